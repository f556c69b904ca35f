// Package manta checks that Manta, as published, reads dembug's Dota
// sample. (Manta and demoinfocs register protobuf files of the same names,
// so each has a test binary of its own.)
package manta

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dotabuff/manta"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/interop"
	"github.com/dembug/dembug/sample"
)

// mantaOp turns Manta's entity operation into dembug's.
func mantaOp(o manta.EntityOp) (provenance.Op, bool) {
	switch {
	case o.Flag(manta.EntityOpCreated):
		return provenance.Create, true
	case o.Flag(manta.EntityOpDeleted):
		return provenance.Delete, true
	case o.Flag(manta.EntityOpLeft):
		return provenance.Leave, true
	case o.Flag(manta.EntityOpUpdated):
		return provenance.Update, true
	}
	return 0, false
}

// TestMantaReadsTheDotaSample: Manta reads the built-in Dota sample to its
// end, with dembug's last tick, the same entity updates in the same order,
// the same live entities and the same values.
func TestMantaReadsTheDotaSample(t *testing.T) {
	want := interop.ReadDembug(t, sample.Replay)
	if want.LastTick != writer.SampleLastTick {
		t.Fatalf("dembug's last tick %d, want %d", want.LastTick, writer.SampleLastTick)
	}

	p, err := manta.NewParser(sample.Replay)
	if err != nil {
		t.Fatal(err)
	}
	var got []interop.Op
	p.OnEntity(func(e *manta.Entity, o manta.EntityOp) error {
		po, ok := mantaOp(o)
		if !ok {
			return fmt.Errorf("tick %d entity %d: operation %s", p.Tick, e.GetIndex(), o)
		}
		got = append(got, interop.Op{Tick: int32(p.Tick), Index: e.GetIndex(), Op: po})
		return nil
	})
	if err := p.Start(); err != nil {
		t.Fatalf("Manta stops at tick %d: %v", p.Tick, err)
	}
	if p.GameBuild != writer.SampleBuild {
		t.Errorf("Manta takes build %d from the game directory, want %d", p.GameBuild, writer.SampleBuild)
	}
	if int32(p.Tick) != want.LastTick || p.NetTick != want.NetTick {
		t.Errorf("Manta ends at tick %d (net tick %d); dembug at %d (%d)", p.Tick, p.NetTick, want.LastTick, want.NetTick)
	}
	if !slices.Equal(got, want.Ops) {
		t.Errorf("entity updates differ:\nManta  %v\ndembug %v", got, want.Ops)
	}
	t.Logf("Manta: build %d, last tick %d (net tick %d), %d entity updates", p.GameBuild, p.Tick, p.NetTick, len(got))

	// Manta reads no deletion list: what dembug's lists removed stays in
	// Manta's table. The sample's list removes exactly one creep.
	if !slices.Equal(want.Listed, []int32{writer.SampleCreepB}) {
		t.Errorf("dembug's deletion lists removed %v, want [%d]", want.Listed, writer.SampleCreepB)
	}
	live := p.FilterEntity(func(e *manta.Entity) bool { return e != nil })
	var indexes, wantIndexes []int32
	for _, e := range live {
		indexes = append(indexes, e.GetIndex())
	}
	for idx := range want.Live {
		wantIndexes = append(wantIndexes, idx)
	}
	wantIndexes = append(wantIndexes, want.Listed...)
	slices.Sort(indexes)
	slices.Sort(wantIndexes)
	if !slices.Equal(indexes, wantIndexes) {
		t.Fatalf("Manta holds entities %v; dembug %v, plus %v from deletion lists", indexes, wantIndexes, want.Listed)
	}
	t.Logf("Manta: %d entities (dembug %d, and %d removed by a deletion list Manta does not read)", len(indexes), len(want.Live), len(want.Listed))

	values := 0
	for _, e := range live {
		w, ok := want.Live[e.GetIndex()]
		if !ok {
			continue
		}
		if e.GetClassName() != w.Class || uint32(e.GetSerial()) != w.Serial {
			t.Errorf("entity %d: Manta %s serial %d, dembug %s serial %d", e.GetIndex(), e.GetClassName(), e.GetSerial(), w.Class, w.Serial)
		}
		for _, name := range w.Order {
			f := w.Fields[name]
			if interop.IsLength(name, f.Field) {
				continue
			}
			v := f.V
			if mantaKnownDifferences[f.Field.Type.Base] == "zigzag" && v.Kind == decoder.KindUint {
				v = decoder.Int(int64(v.U>>1) ^ -int64(v.U&1))
			}
			if got := e.Get(name); !interop.Same(v, got) {
				t.Errorf("entity %d %s %s: %s", e.GetIndex(), w.Class, name, interop.Mismatch("Manta", f, got))
			}
			values++
		}
		for name := range e.Map() {
			if _, ok := w.Fields[name]; !ok && !w.PastLength(name) {
				t.Errorf("entity %d %s: Manta holds %s, dembug does not", e.GetIndex(), w.Class, name)
			}
		}
	}
	if values < 50 {
		t.Errorf("only %d values compared", values)
	}
	t.Logf("Manta: %d values of the live entities equal dembug's", values)
}

// mantaKnownDifferences are the types whose values Manta and dembug read
// from the same bits but take differently; each is checked to be that
// difference and nothing else.
var mantaKnownDifferences = map[string]string{
	// Manta reads HeroID_t as a zigzag (signed) varint; dembug's decoder
	// choice has no rule for it and reads the default unsigned varint.
	"HeroID_t": "zigzag",
}
