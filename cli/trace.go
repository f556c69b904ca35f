package cli

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
)

// Trace decodes data and writes one JSON object per field read in the
// packet-entities messages of commands at tick (optionally one entity).
func Trace(w io.Writer, data []byte, tick int64, entityIndex int64) error {
	r, err := replay.Open(data)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	var rec provenance.Message
	var line []byte
	r.Hooks.Record = func(loc replay.Location) *provenance.Message {
		if int64(loc.Tick) == tick {
			return &rec
		}
		return nil
	}
	r.Hooks.Entities = func(loc replay.Location, _ *messages.PacketEntities, _ entity.Result, m *provenance.Message) {
		if m == nil {
			return
		}
		for i := range m.Fields {
			f := &m.Fields[i]
			u := &m.Updates[f.Update]
			if entityIndex >= 0 && int64(u.Index) != entityIndex {
				continue
			}
			line = appendTraceField(line[:0], loc, u, f)
			bw.Write(line)
		}
	}
	return r.Run(func(c *container.Command) bool { return int64(c.Tick) > tick })
}

func appendTraceField(b []byte, loc replay.Location, u *provenance.EntityUpdate, f *provenance.Field) []byte {
	b = append(b, `{"tick":`...)
	b = strconv.AppendInt(b, int64(loc.Tick), 10)
	b = append(b, `,"command":`...)
	b = strconv.AppendInt(b, int64(loc.Command), 10)
	b = append(b, `,"message":`...)
	b = strconv.AppendInt(b, int64(loc.Message), 10)
	b = append(b, `,"entity":`...)
	b = strconv.AppendInt(b, int64(u.Index), 10)
	b = append(b, `,"class":`...)
	b = strconv.AppendQuote(b, u.Class)
	b = append(b, `,"path":[`...)
	for i, idx := range f.Path.Slice() {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(idx), 10)
	}
	b = append(b, `],"name":`...)
	b = strconv.AppendQuote(b, f.Name)
	b = append(b, `,"type":`...)
	vt := ""
	if f.Schema != nil {
		vt = f.Schema.VarType
	}
	b = strconv.AppendQuote(b, vt)
	b = append(b, `,"decoder":`...)
	b = strconv.AppendQuote(b, f.Decoder.Describe())
	b = append(b, `,"bit_offset":`...)
	b = strconv.AppendUint(b, uint64(f.Start), 10)
	b = append(b, `,"bits":`...)
	b = strconv.AppendUint(b, uint64(f.Bits), 10)
	b = append(b, `,"value":`...)
	b = f.Value.AppendJSON(b)
	return append(b, "}\n"...)
}

func traceCmd() *cobra.Command {
	var tick, ent int64
	cmd := &cobra.Command{
		Use:   "trace FILE --tick N [--entity I]",
		Short: "Print one JSON object per field read at a tick: path, name, type, decoder, bit offset, bits, value",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := readFile(args[0])
			if err != nil {
				return err
			}
			if err := Trace(cmd.OutOrStdout(), data, tick, ent); err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			return nil
		},
	}
	cmd.Flags().Int64Var(&tick, "tick", 0, "demo tick to trace")
	cmd.Flags().Int64Var(&ent, "entity", -1, "only this entity index")
	cmd.MarkFlagRequired("tick")
	return cmd
}
