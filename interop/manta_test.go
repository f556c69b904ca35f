package interop

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/dotabuff/manta"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/writer"
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

// TestMantaReadsTheDotaSample: Manta, as published, reads the built-in
// Dota sample to its end, with dembug's last tick, the same entity updates
// in the same order, the same live entities and the same values.
func TestMantaReadsTheDotaSample(t *testing.T) {
	want := readDembug(t, sample.Replay)
	if want.lastTick != writer.SampleLastTick {
		t.Fatalf("dembug's last tick %d, want %d", want.lastTick, writer.SampleLastTick)
	}

	p, err := manta.NewParser(sample.Replay)
	if err != nil {
		t.Fatal(err)
	}
	var got []op
	p.OnEntity(func(e *manta.Entity, o manta.EntityOp) error {
		po, ok := mantaOp(o)
		if !ok {
			return fmt.Errorf("tick %d entity %d: operation %s", p.Tick, e.GetIndex(), o)
		}
		got = append(got, op{int32(p.Tick), e.GetIndex(), po})
		return nil
	})
	if err := p.Start(); err != nil {
		t.Fatalf("Manta stops at tick %d: %v", p.Tick, err)
	}
	if p.GameBuild != writer.SampleBuild {
		t.Errorf("Manta takes build %d from the game directory, want %d", p.GameBuild, writer.SampleBuild)
	}
	if int32(p.Tick) != want.lastTick || p.NetTick != want.netTick {
		t.Errorf("Manta ends at tick %d (net tick %d); dembug at %d (%d)", p.Tick, p.NetTick, want.lastTick, want.netTick)
	}
	if !slices.Equal(got, want.ops) {
		t.Errorf("entity updates differ:\nManta  %v\ndembug %v", got, want.ops)
	}
	t.Logf("Manta: build %d, last tick %d, %d entity updates", p.GameBuild, p.Tick, len(got))

	// Manta reads no deletion list: what dembug's lists removed stays in
	// Manta's table. The sample's list removes exactly one creep.
	if !slices.Equal(want.listed, []int32{writer.SampleCreepB}) {
		t.Errorf("dembug's deletion lists removed %v, want [%d]", want.listed, writer.SampleCreepB)
	}
	live := p.FilterEntity(func(e *manta.Entity) bool { return e != nil })
	var indexes []int32
	for _, e := range live {
		indexes = append(indexes, e.GetIndex())
	}
	slices.Sort(indexes)
	var wantIndexes []int32
	for idx := range want.live {
		wantIndexes = append(wantIndexes, idx)
	}
	wantIndexes = append(wantIndexes, want.listed...)
	slices.Sort(wantIndexes)
	if !slices.Equal(indexes, wantIndexes) {
		t.Fatalf("Manta holds entities %v; dembug %v, plus %v from deletion lists", indexes, wantIndexes, want.listed)
	}
	t.Logf("Manta: %d live entities (dembug %d, and %d removed by a deletion list Manta does not read)", len(indexes), len(want.live), len(want.listed))

	values := 0
	for _, e := range live {
		w, ok := want.live[e.GetIndex()]
		if !ok {
			continue
		}
		if e.GetClassName() != w.class || uint32(e.GetSerial()) != w.serial {
			t.Errorf("entity %d: Manta %s serial %d, dembug %s serial %d", e.GetIndex(), e.GetClassName(), e.GetSerial(), w.class, w.serial)
		}
		for _, name := range w.order {
			f := w.fields[name]
			if isLength(name, f.field) {
				continue
			}
			mv := e.Get(name)
			if d := mantaDiffers(f, mv); d != "" {
				t.Errorf("entity %d %s %s: %s", e.GetIndex(), w.class, name, d)
			}
			values++
		}
		for name := range e.Map() {
			if _, ok := w.fields[name]; !ok && !w.pastLength(name) {
				t.Errorf("entity %d %s: Manta holds %s, dembug does not", e.GetIndex(), w.class, name)
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

// mantaDiffers compares one value; "" when equal.
func mantaDiffers(w value, got any) string {
	v := w.v
	if w.field != nil && mantaKnownDifferences[w.field.Type.Base] == "zigzag" && v.Kind == decoder.KindUint {
		v = decoder.Int(int64(v.U>>1) ^ -int64(v.U&1))
	}
	bad := func() string { return fmt.Sprintf("Manta %v (%T), dembug %v", got, got, w.v) }
	switch v.Kind {
	case decoder.KindBool:
		if b, ok := got.(bool); !ok || b != (v.U != 0) {
			return bad()
		}
	case decoder.KindUint, decoder.KindHandle:
		switch g := got.(type) {
		case uint32:
			if uint64(g) != v.U {
				return bad()
			}
		case uint64:
			if g != v.U {
				return bad()
			}
		default:
			return bad()
		}
	case decoder.KindInt:
		switch g := got.(type) {
		case int32:
			if int64(g) != v.Int64() {
				return bad()
			}
		case int64:
			if g != v.Int64() {
				return bad()
			}
		default:
			return bad()
		}
	case decoder.KindFloat:
		if g, ok := got.(float32); !ok || !sameFloat(g, v.F[0]) {
			return bad()
		}
	case decoder.KindVector:
		g, ok := got.([]float32)
		if !ok || len(g) != int(v.N) {
			return bad()
		}
		for i := range g {
			if !sameFloat(g[i], v.F[i]) {
				return bad()
			}
		}
	case decoder.KindString:
		if g, ok := got.(string); !ok || g != v.Str() {
			return bad()
		}
	default:
		return fmt.Sprintf("dembug value of kind %d", v.Kind)
	}
	return ""
}

// sameFloat compares a float32 read by another parser with dembug's: equal
// as float32s (NaNs equal too).
func sameFloat(g float32, w float64) bool {
	if math.IsNaN(float64(g)) && math.IsNaN(w) {
		return true
	}
	return g == float32(w)
}
