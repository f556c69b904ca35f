package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
)

// TraceOptions are trace's settings beyond tick and entity.
type TraceOptions struct {
	Aliases schema.Aliases
	// Baselines also writes, before each create, the fields read from
	// the class's instance baseline ("in":"baseline", bit offsets from
	// the baseline's first bit).
	Baselines bool
	// Explain adds to each object the decoder's walk-through of the read
	// (decoder.Explain): an "explain" list of steps.
	Explain bool
	// AllTicks traces every tick (tick is ignored): a whole-file trace to
	// compare a parser's own against.
	AllTicks bool
	// Headers also writes each update's header ("in":"header": its bit
	// offset, bits and parts: index delta, command, class id, serial,
	// spawn group, PVS bits) before its fields, and a delta message's
	// deletion list ("in":"deletions") after its updates.
	Headers bool
	// Ops writes each update's field-path op stream instead of its reads
	// (appendTraceOps): one object per op, the finish op last.
	Ops bool
}

// TraceWith is Trace with options.
func TraceWith(w io.Writer, data []byte, tick int64, entityIndex int64, o TraceOptions) error {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	var rec provenance.Message
	var line []byte
	printed, seenMsgs := 0, 0
	var seen []int32 // entities the tick's messages update
	// The ticks of the packet-entities messages nearest the one asked
	// for, to say where to look when it has none (-2: none).
	before, after := int64(-2), int64(-2)
	var r *session.Pass
	var v session.Visitor
	v.Record = func(_ session.Ref, loc session.Location) *provenance.Message {
		if o.AllTicks || int64(loc.Tick) == tick {
			return &rec
		}
		return nil
	}
	v.Entities = func(_ session.Ref, loc session.Location, pe *messages.PacketEntities, _ session.Result, m *provenance.Message) {
		switch t := int64(loc.Tick); {
		case t < tick:
			before = t
		case t > tick && after == -2:
			after = t
		}
		if m == nil {
			return
		}
		seenMsgs++
		for ui := range m.Updates {
			u := &m.Updates[ui]
			if len(seen) < 8 {
				seen = append(seen, u.Index)
			}
			if entityIndex >= 0 && int64(u.Index) != entityIndex {
				continue
			}
			printed++
			if o.Headers {
				writeTraceHeader(bw, loc, u, session.ReadHeader(pe.EntityData, m, ui, r.ClassIDBits()), "header")
			}
			if o.Baselines && u.Op == provenance.Create {
				if b, _ := r.RecordBaseline(u.ClassID); b != nil {
					var data []byte
					if o.Explain {
						data = r.Baseline(u.ClassID)
					}
					for i := range b.Fields {
						line = appendTraceField(line[:0], loc, u, &b.Fields[i], true, data)
						bw.Write(line)
					}
				}
			}
			if o.Ops {
				bw.Write(appendTraceOps(line[:0], loc, u, m.Fields[u.FirstField:u.FirstField+u.NumFields], pe.EntityData))
				continue
			}
			var data []byte
			if o.Explain {
				data = pe.EntityData
			}
			for _, f := range m.Fields[u.FirstField : u.FirstField+u.NumFields] {
				line = appendTraceField(line[:0], loc, u, &f, false, data)
				bw.Write(line)
			}
		}
		if o.Headers && entityIndex < 0 && m.DeletionBits > 0 {
			writeTraceHeader(bw, loc, nil, session.ReadDeletions(pe.EntityData, m, 1<<14), "deletions")
		}
	}
	r, err := session.OpenFile(data, o.Aliases).Pass(v)
	if err != nil {
		return err
	}
	var game inGame
	if err := r.Run(func(c *container.Command) bool {
		past := bool(game) && int64(c.Tick) > tick // (DEM_SyncTick carries the signon's tick)
		game.after(c.Kind)
		// With nothing at the tick, on to the next message that is.
		return past && !o.AllTicks && (seenMsgs > 0 || after != -2)
	}); err != nil {
		return err
	}
	if o.AllTicks {
		if seenMsgs == 0 {
			return fmt.Errorf("no packet-entities message in the file")
		}
		if printed == 0 && entityIndex >= 0 {
			return fmt.Errorf("entity %d is never updated", entityIndex)
		}
		return nil
	}
	// Nothing printed is an answer too, and it says why.
	switch {
	case seenMsgs == 0 && tick > int64(r.Stats().LastTick):
		return fmt.Errorf("tick %d is past the end: the file's last tick is %d", tick, r.Stats().LastTick)
	case tick < -1:
		return fmt.Errorf("tick %d: ticks are demo command ticks, -1 for the signon and 0 on", tick)
	case seenMsgs == 0:
		return fmt.Errorf("no packet-entities message at tick %d%s", tick, nearestTicks(before, after))
	case printed == 0 && entityIndex >= 0:
		return fmt.Errorf("entity %d is not updated at tick %d (updated there: %v…)", entityIndex, tick, seen)
	}
	return nil
}

// appendTraceHead opens a trace object with the place of the update it
// belongs to: tick, command, message, entity and class.
func appendTraceHead(b []byte, loc session.Location, u *provenance.EntityUpdate) []byte {
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
	return b
}

// appendTraceField writes one read as a JSON object; with data (the bytes
// the read's offsets count in) its walk-through as well.
func appendTraceField(b []byte, loc session.Location, u *provenance.EntityUpdate, f *provenance.Field, inBaseline bool, data []byte) []byte {
	b = appendTraceHead(b, loc, u)
	b = append(b, `,"path":`...)
	b = appendPath(b, f.Path.Slice())
	b = append(b, `,"name":`...)
	b = strconv.AppendQuote(b, f.Name)
	b = append(b, `,"type":`...)
	vt := ""
	if f.Schema != nil {
		vt = f.Schema.VarType
	}
	b = strconv.AppendQuote(b, vt)
	b = append(b, `,"decoder":`...)
	b = strconv.AppendQuote(b, f.Decoder.Describe())
	b = append(b, `,"family":"`...)
	b = append(b, f.Decoder.Family.ID()...)
	b = append(b, `","bit_offset":`...)
	b = strconv.AppendUint(b, uint64(f.Start), 10)
	b = append(b, `,"at":`...)
	b = appendAt(b, f.Start)
	b = append(b, `,"bits":`...)
	b = strconv.AppendUint(b, uint64(f.Bits), 10)
	b = append(b, `,"value":`...)
	b = f.Value.AppendJSONAs(b, f.Decoder)
	if inBaseline {
		b = append(b, `,"in":"baseline"`...)
	}
	if data != nil {
		b = appendExplain(b, f, data)
	}
	return append(b, "}\n"...)
}

// appendExplain writes the read's steps: `,"explain":[{"kind":"bits",
// "label":…,"bit_offset":…,"at":…,"bits":…,"raw":…,"text":…}, {"kind":"math",
// "label":…,"text":…}, …]`. A read with no decoder has none.
func appendExplain(b []byte, f *provenance.Field, data []byte) []byte {
	b = append(b, `,"explain":[`...)
	if f.Decoder != nil {
		var r bitio.Reader
		r.Reset(data)
		r.Seek(f.Start)
		_, steps := f.Decoder.Explain(&r)
		for i, s := range steps {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"kind":`...)
			b = appendJSONString(b, s.Kind.String())
			b = append(b, `,"label":`...)
			b = appendJSONString(b, s.Label)
			if s.Kind == decoder.StepBits {
				b = append(b, `,"bit_offset":`...)
				b = strconv.AppendUint(b, uint64(s.Span.Start), 10)
				b = append(b, `,"at":`...)
				b = appendAt(b, s.Span.Start)
				b = append(b, `,"bits":`...)
				b = strconv.AppendUint(b, uint64(s.Span.Bits), 10)
				b = append(b, `,"raw":`...)
				b = appendJSONString(b, s.Raw)
			}
			if s.Text != "" {
				b = append(b, `,"text":`...)
				b = appendJSONString(b, s.Text)
			}
			b = append(b, '}')
		}
	}
	return append(b, ']')
}

// nearestTicks says where the packet-entities messages nearest a tick
// that has none are: the last before it and the first after (-2: none).
func nearestTicks(before, after int64) string {
	switch {
	case before != -2 && after != -2:
		return fmt.Sprintf(": the nearest are at ticks %d and %d", before, after)
	case after != -2:
		return fmt.Sprintf(": the first is at tick %d", after)
	case before != -2:
		return fmt.Sprintf(": the last is at tick %d", before)
	}
	return ""
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

func traceCmd() *cobra.Command {
	var tick, ent int64
	var df decodeFlags
	var baselines, explain, allTicks, headers, ops bool
	cmd := &cobra.Command{
		Use:   "trace FILE (--tick N | --all-ticks) [--entity I] [--baselines] [--explain]",
		Short: "Print one JSON object per field read at a tick: path, name, type, decoder, bit offset, bits, value",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("entity") && (ent < 0 || ent >= session.MaxEntities) {
				return fmt.Errorf("--entity %d: entity indexes run 0…%d (leave --entity out for every entity)", ent, session.MaxEntities-1)
			}
			if !allTicks && !cmd.Flags().Changed("tick") {
				return fmt.Errorf("trace needs --tick N (one tick) or --all-ticks (the whole file)")
			}
			data, aliases, err := readWithAliases(args[0], df)
			if err != nil {
				return err
			}
			if err := TraceWith(cmd.OutOrStdout(), data, tick, ent, TraceOptions{Aliases: aliases, Baselines: baselines, Explain: explain, AllTicks: allTicks, Headers: headers, Ops: ops}); err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			return nil
		},
	}
	cmd.Flags().Int64Var(&tick, "tick", 0, "demo tick to trace")
	cmd.Flags().Int64Var(&ent, "entity", -1, "only this entity index")
	cmd.Flags().BoolVar(&baselines, "baselines", false, "also print each created entity's baseline reads (\"in\":\"baseline\", offsets inside the baseline)")
	cmd.Flags().BoolVar(&ops, "ops", false, "print each update's field-path op stream instead of its reads: one JSON object per op (op, code, bit_offset, bits, code_bits, operand_bits, operand, path_before, path; the finish op last, path null)")
	cmd.Flags().BoolVar(&headers, "headers", false, "also print each update's header (\"in\":\"header\": index delta, command bits, class id, serial, spawn group) and each deletion list (\"in\":\"deletions\")")
	cmd.Flags().BoolVar(&explain, "explain", false, "add each read's walk-through from its bits to its value (an \"explain\" list of steps)")
	cmd.Flags().BoolVar(&allTicks, "all-ticks", false, "trace every tick of the file (a whole-file trace for compare)")
	df.add(cmd)
	return cmd
}

// writeTraceHeader writes an update's header (in "header") or a message's
// deletion list (in "deletions", u nil) as one JSON object: where it is,
// its bits, and each part re-read.
func writeTraceHeader(w io.Writer, loc session.Location, u *provenance.EntityUpdate, parts []session.HeaderPart, in string) {
	type part struct {
		Name      string `json:"name"`
		BitOffset uint   `json:"bit_offset"`
		At        string `json:"at"`
		Bits      uint   `json:"bits"`
		Value     uint64 `json:"value"`
	}
	obj := struct {
		Tick      int32    `json:"tick"`
		Command   int      `json:"command"`
		Message   int      `json:"message"`
		Entity    *int32   `json:"entity,omitempty"`
		Class     string   `json:"class,omitempty"`
		Op        string   `json:"op,omitempty"`
		In        string   `json:"in"`
		BitOffset uint     `json:"bit_offset"`
		At        string   `json:"at"`
		Bits      uint     `json:"bits"`
		Parts     []part   `json:"parts"`
		Deleted   []uint64 `json:"entities,omitempty"`
	}{Tick: loc.Tick, Command: loc.Command, Message: loc.Message, In: in, Parts: []part{}}
	if u != nil {
		obj.Entity, obj.Class, obj.Op = &u.Index, u.Class, u.Op.String()
	}
	for i, p := range parts {
		if i == 0 {
			obj.BitOffset, obj.At = p.Start, bitio.Offset(p.Start)
		}
		obj.Bits += p.Len
		obj.Parts = append(obj.Parts, part{p.Name, p.Start, bitio.Offset(p.Start), p.Len, p.Value})
		if p.Name == "delete" {
			obj.Deleted = append(obj.Deleted, p.Value)
		}
	}
	b, _ := json.Marshal(obj)
	w.Write(append(b, '\n'))
}
