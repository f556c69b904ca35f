package writer

import (
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/messages"
)

// The structural changes a game update makes outside the field decoders,
// made to a copy of a real demo file: a field the message did not have, a
// demo command or an inner message of a type no definition names, a file
// without its header. Tests use them to see that dembug names each change
// and decodes on past it.

// CommandEdit is what RewriteCommands does with one command: the commands
// to write in its place (none drops it).
type CommandEdit func(c container.Command) []Command

// Command is a demo command to write.
type Command struct {
	Kind       container.Kind
	Tick       int32
	Body       []byte
	Compressed bool
}

// RewriteCommands copies a demo file command by command through edit.
func RewriteCommands(data []byte, edit CommandEdit) ([]byte, error) {
	cr, err := container.NewReader(data)
	if err != nil {
		return nil, err
	}
	out := NewFile()
	for {
		c, err := cr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		c.Body = append([]byte(nil), c.Body...)
		for _, w := range edit(c) {
			out.Command(w.Kind, w.Tick, w.Body, w.Compressed)
		}
	}
	return out.Bytes(), nil
}

// same writes a command back unchanged.
func same(c container.Command) []Command {
	return []Command{{Kind: c.Kind, Tick: c.Tick, Body: c.Body, Compressed: c.Compressed}}
}

// RewriteInner copies a demo file passing every packet's inner messages
// through edit (the packet's position among all packets counted from 0,
// and its messages); the commands around them are unchanged. It returns
// the file and how many packets edit changed.
func RewriteInner(data []byte, edit func(packet int, msgs []Inner) ([]Inner, bool)) ([]byte, int, error) {
	n, changed := 0, 0
	var failed error
	out, err := RewriteCommands(data, func(c container.Command) []Command {
		if failed != nil || (c.Kind != container.Packet && c.Kind != container.SignonPacket) {
			return same(c)
		}
		pd, err := messages.PacketData(c.Body)
		if err != nil {
			failed = err
			return same(c)
		}
		split, _, err := messages.SplitInner(pd, nil, nil)
		if err != nil {
			failed = fmt.Errorf("command #%d: %w", c.Index, err)
			return same(c)
		}
		msgs := make([]Inner, len(split))
		for i, m := range split {
			msgs[i] = Inner{Type: m.Type, Body: append([]byte(nil), m.Body...)}
		}
		n++
		msgs, ok := edit(n-1, msgs)
		if !ok {
			return same(c)
		}
		changed++
		return []Command{{Kind: c.Kind, Tick: c.Tick, Body: PacketBody(Packet(msgs...)), Compressed: c.Compressed}}
	})
	if failed != nil {
		return nil, 0, failed
	}
	return out, changed, err
}

// AddField appends a varint field num = value to every inner message of
// type typ: a field its definitions do not have, as a game update adds one.
// It returns the file and the number of messages changed.
func AddField(data []byte, typ uint32, num protowire.Number, value uint64) ([]byte, int, error) {
	count := 0
	out, _, err := RewriteInner(data, func(_ int, msgs []Inner) ([]Inner, bool) {
		ok := false
		for i := range msgs {
			if msgs[i].Type == typ {
				b := protowire.AppendTag(msgs[i].Body, num, protowire.VarintType)
				msgs[i].Body = protowire.AppendVarint(b, value)
				ok = true
				count++
			}
		}
		return msgs, ok
	})
	return out, count, err
}

// InsertInner puts an inner message first in the packet-th packet (counted
// from 0 over DEM_Packet and DEM_SignonPacket commands).
func InsertInner(data []byte, packet int, m Inner) ([]byte, error) {
	out, changed, err := RewriteInner(data, func(n int, msgs []Inner) ([]Inner, bool) {
		if n != packet {
			return msgs, false
		}
		return append([]Inner{m}, msgs...), true
	})
	if err == nil && changed == 0 {
		err = fmt.Errorf("the file has no packet #%d", packet)
	}
	return out, err
}

// InsertCommand puts a command before the command at index (its tick
// copied from that command).
func InsertCommand(data []byte, index int, kind container.Kind, body []byte) ([]byte, error) {
	found := false
	out, err := RewriteCommands(data, func(c container.Command) []Command {
		if c.Index != index {
			return same(c)
		}
		found = true
		return append([]Command{{Kind: kind, Tick: c.Tick, Body: body}}, same(c)...)
	})
	if err == nil && !found {
		err = fmt.Errorf("the file has no command #%d", index)
	}
	return out, err
}

// StripHeader drops the DEM_FileHeader command: a stream that does not
// say which game wrote it.
func StripHeader(data []byte) ([]byte, error) {
	return RewriteCommands(data, func(c container.Command) []Command {
		if c.Kind == container.FileHeader {
			return nil
		}
		return same(c)
	})
}
