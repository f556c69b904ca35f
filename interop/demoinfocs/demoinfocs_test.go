// Package demoinfocs checks that demoinfocs-golang, as published, reads
// dembug's CS2 sample. (Manta and demoinfocs register protobuf files of
// the same names, so each has a test binary of its own.)
package demoinfocs

import (
	"bytes"
	"slices"
	"testing"

	dem "github.com/markus-wa/demoinfocs-golang/v5/pkg/demoinfocs"
	"github.com/markus-wa/demoinfocs-golang/v5/pkg/demoinfocs/events"
	st "github.com/markus-wa/demoinfocs-golang/v5/pkg/demoinfocs/sendtables"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/interop"
	"github.com/dembug/dembug/sample"
)

// TestDemoinfocsReadsTheCS2Sample: demoinfocs reads the built-in CS2
// sample to its end, with dembug's last tick, the same creates and deletes
// at the same ticks, the same live entities and the same values.
func TestDemoinfocsReadsTheCS2Sample(t *testing.T) {
	data := sample.CS2
	want := interop.ReadDembug(t, data)
	if want.LastTick != writer.SampleCS2LastTick {
		t.Fatalf("dembug's last tick %d, want %d", want.LastTick, writer.SampleCS2LastTick)
	}

	p := dem.NewParserWithConfig(bytes.NewReader(data), dem.ParserConfig{})
	defer p.Close()
	var got []interop.Op
	// IngameTick is the demo command's tick, as dembug's ticks are.
	tick := func() int32 { return int32(p.GameState().IngameTick()) }
	p.RegisterEventHandler(func(events.DataTablesParsed) {
		for _, sc := range p.ServerClasses().All() {
			sc.OnEntityCreated(func(e st.Entity) {
				got = append(got, interop.Op{Tick: tick(), Index: int32(e.ID()), Op: provenance.Create})
				e.OnDestroy(func() { got = append(got, interop.Op{Tick: tick(), Index: int32(e.ID()), Op: provenance.Delete}) })
			})
		}
	})
	if err := p.ParseToEnd(); err != nil {
		t.Fatalf("demoinfocs stops at net tick %d: %v", p.GameState().IngameTick(), err)
	}
	if tick() != want.LastTick {
		t.Errorf("demoinfocs ends at tick %d; dembug at %d", tick(), want.LastTick)
	}
	var wantOps []interop.Op
	for _, o := range want.Ops {
		if o.Op == provenance.Create || o.Op == provenance.Delete {
			wantOps = append(wantOps, o)
		}
	}
	if len(wantOps) < 4 || !slices.Equal(got, wantOps) {
		t.Errorf("creates and deletes differ:\ndemoinfocs %v\ndembug     %v", got, wantOps)
	}
	t.Logf("demoinfocs: last tick %d, %d frames, %d creates and deletes", tick(), p.CurrentFrame(), len(got))

	ents := p.GameState().Entities()
	var indexes, wantIndexes []int32
	for idx, e := range ents {
		if e != nil {
			indexes = append(indexes, int32(idx))
		}
	}
	for idx := range want.Live {
		wantIndexes = append(wantIndexes, idx)
	}
	slices.Sort(indexes)
	slices.Sort(wantIndexes)
	if !slices.Equal(indexes, wantIndexes) || len(want.Listed) != 0 {
		t.Fatalf("demoinfocs holds entities %v; dembug %v (deletion lists: %v)", indexes, wantIndexes, want.Listed)
	}

	values, unnamed := 0, 0
	for idx, w := range want.Live {
		e := ents[int(idx)]
		if e.ServerClass().Name() != w.Class || uint32(e.SerialNum()) != w.Serial {
			t.Errorf("entity %d: demoinfocs %s serial %d, dembug %s serial %d", idx, e.ServerClass().Name(), e.SerialNum(), w.Class, w.Serial)
		}
		for _, name := range w.Order {
			f := w.Fields[name]
			if interop.IsLength(name, f.Field) {
				continue
			}
			pv, ok := e.PropertyValue(name)
			if !ok {
				t.Errorf("entity %d %s: demoinfocs has no %s", idx, w.Class, name)
				continue
			}
			if !same(f, pv.Any) {
				t.Errorf("entity %d %s %s: %s", idx, w.Class, name, interop.Mismatch("demoinfocs", f, pv.Any))
			}
			values++
		}
		for _, prop := range e.Properties() {
			if prop == nil {
				// demoinfocs caches a class's field names by path and
				// does not forget them when a polymorphic pointer switches
				// alternative: the path's old name no longer resolves.
				if !w.Poly {
					t.Errorf("entity %d %s: demoinfocs lists a property it cannot name", idx, w.Class)
				}
				unnamed++
				continue
			}
			if _, ok := w.Fields[prop.Name()]; !ok && !w.PastLength(prop.Name()) {
				t.Errorf("entity %d %s: demoinfocs holds %s, dembug does not", idx, w.Class, prop.Name())
			}
		}
	}
	if values < 15 {
		t.Errorf("only %d values compared", values)
	}
	t.Logf("demoinfocs: %d live entities, %d values equal dembug's (%d properties it cannot name after a polymorphic switch)", len(indexes), values, unnamed)
}

// same compares one value, minding how demoinfocs holds two families.
func same(w interop.Value, got any) bool {
	switch w.Field.Decoder.Family {
	case decoder.FamUnsignedMinusOne:
		// demoinfocs subtracts the one in uint32: −1 is 4294967295.
		g, ok := got.(uint32)
		return ok && int64(int32(g)) == w.V.Int64()
	case decoder.FamBinaryBlock:
		// demoinfocs has no binary-block decoder: it reads the byte count
		// as an unsigned varint and no bytes, the same bits only where the
		// block is empty or ends the entity data (the sample sends it so).
		g, ok := got.(uint32)
		return ok && int(g) == len(w.V.Str())
	}
	return interop.Same(w.V, got)
}
