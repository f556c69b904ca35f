package cli

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/layout"
)

// commandJSON is one line of `commands --json`.
type commandJSON struct {
	Index      int            `json:"index"`
	Offset     int            `json:"offset"`
	Kind       commandKind    `json:"kind"`
	Compressed bool           `json:"compressed"`
	Tick       int32          `json:"tick"`
	Size       int            `json:"size"`
	BodyOffset int            `json:"body_offset"`
	Messages   []innerMsgJSON `json:"messages"`
}

type commandKind struct {
	Name   string `json:"name"`
	Number int32  `json:"number"`
}

type innerMsgJSON struct {
	Type          uint32 `json:"type"`
	Name          string `json:"name"`
	Size          int    `json:"size"`
	BitOffset     uint   `json:"bit_offset"`
	EntityDataBit *int   `json:"entity_data_bit,omitempty"`
}

func commandsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "commands FILE",
		Short: "Every demo command as framed in the file: offset, kind and its EDemoCommands number, tick, size, body, and each packet's inner messages",
		Long: "commands walks the file's framing without decoding it. Each line is one demo command: its index, the\n" +
			"byte offset of its command varint, the bytes of its framing (command|64 when compressed, tick, size),\n" +
			"its kind with its EDemoCommands number, whether the body is snappy-compressed, the tick (-1 during\n" +
			"the signon), the body's size and byte offset; then, for a packet, every inner message: name and\n" +
			"type, body size, and the bit offset of its header in the packet data (0x1a.3 is bit 3 of byte\n" +
			"0x1a); for svc_PacketEntities also where its entity data starts in the packet. A broadcast capture's\n" +
			"commands are framed as the broadcast frames them (the tick and size in 4 bytes each): the text names\n" +
			"the fragment file and the byte in it, --json the byte in the fragments laid end to end.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := readFile(args[0])
			if err != nil {
				return err
			}
			w := bufio.NewWriterSize(cmd.OutOrStdout(), 64<<10)
			err = writeCommands(w, data, asJSON)
			if ferr := w.Flush(); err == nil {
				err = ferr
			}
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `one object per command: {"index", "offset", "kind": {"name", "number"}, "compressed", "tick", "size", "body_offset", "messages": [{"type", "name", "size", "bit_offset", "entity_data_bit"}]}`)
	return cmd
}

// writeCommands prints every command of data, text or JSON lines; a file
// that breaks is printed up to the break, which is returned.
func writeCommands(w io.Writer, data []byte, asJSON bool) error {
	var b []byte
	return layout.Walk(data, func(lw *layout.Walker, c layout.Command) error {
		if asJSON {
			j, err := json.Marshal(commandToJSON(c))
			if err != nil {
				return err
			}
			_, err = w.Write(append(j, '\n'))
			return err
		}
		b = appendCommandLine(b[:0], lw.Segments(), data, c)
		_, err := w.Write(b)
		return err
	})
}

func commandToJSON(c layout.Command) commandJSON {
	j := commandJSON{
		Index: c.Index, Offset: c.Offset, Kind: commandKind{c.Kind.String(), c.Number()},
		Compressed: c.Compressed, Tick: c.Tick, Size: c.Size, BodyOffset: c.BodyOffset,
		Messages: make([]innerMsgJSON, 0, len(c.Messages)),
	}
	for _, m := range c.Messages {
		mj := innerMsgJSON{Type: m.Type, Name: m.Name, Size: m.Size, BitOffset: m.Bit}
		if m.EntityDataBit >= 0 {
			bit := m.EntityDataBit
			mj.EntityDataBit = &bit
		}
		j.Messages = append(j.Messages, mj)
	}
	return j
}

// appendCommandLine writes one command as a text line:
//
//	#7 byte 1234 [07 03 a9 0c] DEM_Packet (7) tick 3 size 1577 body byte 1238: net_Tick (4) 14 B at 0x0.0, …
func appendCommandLine(b []byte, segs []container.Segment, data []byte, c layout.Command) []byte {
	b = append(b, '#')
	b = strconv.AppendInt(b, int64(c.Index), 10)
	b = append(b, ' ')
	b = append(b, container.FormatPlace(segs, c.Offset)...)
	if c.Offset < c.BodyOffset && c.BodyOffset <= len(data) {
		b = append(b, " ["...)
		for i, x := range data[c.Offset:c.BodyOffset] {
			if i > 0 {
				b = append(b, ' ')
			}
			b = hex.AppendEncode(b, []byte{x})
		}
		b = append(b, ']')
	}
	b = append(b, ' ')
	b = append(b, c.Kind.String()...)
	b = append(b, " ("...)
	b = strconv.AppendInt(b, int64(c.Number()), 10)
	b = append(b, ')')
	if c.Compressed {
		b = append(b, " snappy"...)
	}
	b = append(b, " tick "...)
	b = strconv.AppendInt(b, int64(c.Tick), 10)
	b = append(b, " size "...)
	b = strconv.AppendInt(b, int64(c.Size), 10)
	b = append(b, " body "...)
	b = append(b, container.FormatPlace(segs, c.BodyOffset)...)
	if c.Packet {
		b = append(b, ": "...)
		if len(c.Messages) == 0 {
			b = append(b, "no messages"...)
		}
		for i, m := range c.Messages {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, m.Name...)
			b = append(b, " ("...)
			b = strconv.AppendUint(b, uint64(m.Type), 10)
			b = append(b, ") "...)
			b = strconv.AppendInt(b, int64(m.Size), 10)
			b = append(b, " B at "...)
			b = append(b, bitio.Offset(m.Bit)...)
			if m.EntityDataBit >= 0 {
				b = append(b, ", entity data at "...)
				b = append(b, bitio.Offset(uint(m.EntityDataBit))...)
			}
		}
	}
	return append(b, '\n')
}
