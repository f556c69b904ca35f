package cut_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/cut"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/writer"
)

// decodeAll decodes a cut to its end and returns its last state and the
// inner messages it holds.
func decodeAll(t *testing.T, data []byte) (*replay.Replay, string) {
	t.Helper()
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(nil); err != nil || r.FirstMisaligned != nil {
		t.Fatalf("the cut does not decode: %v %v", err, r.FirstMisaligned)
	}
	return r, dump(r.Entities)
}

// An empty Drop writes the same cut as none, and describes the window's
// commands and the full frame's entities.
func TestCutDropNothing(t *testing.T) {
	for name, data := range map[string][]byte{"dota2": writer.Generate(), "cs2": writer.GenerateCS2()} {
		plain, err := cut.Cut(data, cut.Options{From: 2, To: -1})
		if err != nil {
			t.Fatal(err)
		}
		res, err := cut.Cut(data, cut.Options{From: 2, To: -1, Drop: &cut.Drop{}})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(plain.Data, res.Data) {
			t.Errorf("%s: an empty Drop changes the cut", name)
		}
		el := res.Elements
		if el == nil || len(el.Window) != res.Commands || len(el.Frame) != res.Entities || res.Entities == 0 {
			t.Fatalf("%s: elements %+v for %d commands and %d entities", name, el, res.Commands, res.Entities)
		}
		if plain.Elements != nil {
			t.Errorf("%s: a cut without Drop describes itself", name)
		}
	}
}

// A dropped entity is not in the full frame; a dropped command or message
// is not in the window; a dropped field is the baseline's value.
func TestCutDropElements(t *testing.T) {
	data := writer.Generate()
	all, err := cut.Cut(data, cut.Options{From: 2, To: -1, Drop: &cut.Drop{}})
	if err != nil {
		t.Fatal(err)
	}

	// Every entity no window update touches can go; find one whose drop
	// still decodes.
	dropped := false
	for _, fe := range all.Elements.Frame {
		res, err := cut.Cut(data, cut.Options{From: 2, To: -1, Drop: &cut.Drop{Entities: map[int32]bool{fe.Index: true}}})
		if err != nil {
			continue
		}
		r, err := replay.Open(res.Data)
		if err != nil {
			t.Fatal(err)
		}
		if r.Run(nil) != nil || r.FirstMisaligned != nil {
			continue
		}
		if e := r.Entities.Entities[fe.Index]; e != nil && e.Class != nil && e.Serial != 0 {
			// created again inside the window: not a proof
			continue
		}
		if res.Entities != all.Entities-1 || len(res.Data) >= len(all.Data) {
			t.Fatalf("dropping entity %d: %d entities, %d bytes (all: %d, %d)", fe.Index, res.Entities, len(res.Data), all.Entities, len(all.Data))
		}
		dropped = true
		break
	}
	if !dropped {
		t.Fatal("no entity of the sample's full frame could be dropped")
	}

	// A window command dropped: one command fewer.
	last := len(all.Elements.Window) - 1
	res, err := cut.Cut(data, cut.Options{From: 2, To: -1, Drop: &cut.Drop{Commands: map[int]bool{last: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Commands != all.Commands-1 || len(res.Elements.Window) != len(all.Elements.Window) {
		t.Fatalf("dropping the last window command: %d commands of %d", res.Commands, all.Commands)
	}

	// A message dropped: the packet holds one fewer.
	for i, wc := range all.Elements.Window {
		if len(wc.Messages) < 2 {
			continue
		}
		res, err := cut.Cut(data, cut.Options{From: 2, To: -1, Drop: &cut.Drop{Messages: map[cut.MessageRef]bool{{Command: i, Message: 0}: true}}})
		if err != nil {
			t.Fatal(err)
		}
		r, _ := decodeAll(t, res.Data)
		a, _ := decodeAll(t, all.Data)
		if r.Stats.Messages != a.Stats.Messages-1 {
			t.Fatalf("dropping message 0 of window command %d: %d messages, %d before", i, r.Stats.Messages, a.Stats.Messages)
		}
		break
	}

	// Fields dropped back to the baseline: the entity differs, the rest not.
	var fe cut.FrameEntity
	for _, f := range all.Elements.Frame {
		if f.Fields > 0 {
			fe = f
			break
		}
	}
	fields := map[cut.FieldRef]bool{}
	for i := range fe.Fields {
		fields[cut.FieldRef{Entity: fe.Index, Field: i}] = true
	}
	res, err = cut.Cut(data, cut.Options{From: 2, To: 2, Drop: &cut.Drop{Fields: fields}})
	if err != nil {
		t.Fatal(err)
	}
	same, err := cut.Cut(data, cut.Options{From: 2, To: 2, Drop: &cut.Drop{}})
	if err != nil {
		t.Fatal(err)
	}
	_, sameState := decodeAll(t, same.Data)
	_, reduced := decodeAll(t, res.Data)
	if reduced == sameState || strings.Count(reduced, "\n") != strings.Count(sameState, "\n") {
		t.Fatalf("entity %d with its %d fields at the baseline: the same state", fe.Index, fe.Fields)
	}
}

// A dropped string-table entry is not in the cut's tables; an instance
// baseline an entity of the full frame is created from cannot go (the
// frame would not read back as the original's), unless the entity goes
// too.
func TestCutDropEntries(t *testing.T) {
	data := writer.Generate()
	all, err := cut.Cut(data, cut.Options{From: 2, To: -1, Drop: &cut.Drop{}})
	if err != nil {
		t.Fatal(err)
	}
	el := all.Elements
	if len(el.Entries) == 0 {
		t.Fatal("no string-table entries described")
	}
	r0, _ := decodeAll(t, all.Data)
	baselines, other := 0, 0
	for _, e := range el.Entries {
		res, err := cut.Cut(data, cut.Options{From: 2, To: -1, Drop: &cut.Drop{Entries: map[cut.EntryRef]bool{e: true}}})
		if el.Tables[e.Table] == "instancebaseline" {
			if err == nil {
				// no entity of that class in the frame: it may go
				continue
			}
			baselines++
			continue
		}
		if err != nil {
			t.Fatalf("dropping %s entry %d: %v", el.Tables[e.Table], e.Index, err)
		}
		r, _ := decodeAll(t, res.Data)
		tb := r.Strings.Tables[e.Table]
		if _, ok := tb.Get(e.Index); ok || tb.Len() != r0.Strings.Tables[e.Table].Len()-1 {
			t.Fatalf("dropping %s entry %d: still there, or %d entries of %d", el.Tables[e.Table], e.Index, tb.Len(), r0.Strings.Tables[e.Table].Len())
		}
		other++
	}
	if baselines == 0 || other == 0 {
		t.Fatalf("%d baselines refused, %d other entries dropped: the sample should give both", baselines, other)
	}
}

// The entities the window's messages touch are named, and a cut without
// one of them (its message kept) does not decode: Cut refuses it.
func TestCutDropTouched(t *testing.T) {
	data := writer.Generate()
	all, err := cut.Cut(data, cut.Options{From: 2, To: -1, Drop: &cut.Drop{}})
	if err != nil {
		t.Fatal(err)
	}
	el := all.Elements
	if len(el.Touches) == 0 {
		t.Fatal("the window's messages touch no entity of the full frame")
	}
	inFrame := map[int32]bool{}
	for _, fe := range el.Frame {
		inFrame[fe.Index] = true
	}
	for _, tc := range el.Touches[:min(len(el.Touches), 5)] {
		if !inFrame[tc.Entity] {
			t.Fatalf("touch %+v: not an entity of the full frame", tc)
		}
		if tc.Message.Command >= len(el.Window) || tc.Message.Message >= len(el.Window[tc.Message.Command].Messages) {
			t.Fatalf("touch %+v: no such message", tc)
		}
		if _, err := cut.Cut(data, cut.Options{From: 2, To: -1, Drop: &cut.Drop{Entities: map[int32]bool{tc.Entity: true}}}); err == nil {
			t.Fatalf("a cut without entity %d, which window message %+v updates, was written", tc.Entity, tc.Message)
		}
	}
}
