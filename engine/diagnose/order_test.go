package diagnose

import (
	"testing"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

func pathOf(idx ...int32) fieldpath.Path {
	var p fieldpath.Path
	copy(p.Idx[:], idx)
	p.Last = len(idx) - 1
	return p
}

func TestPathOrder(t *testing.T) {
	msg := func(paths ...fieldpath.Path) *provenance.Message {
		m := &provenance.Message{Updates: []provenance.EntityUpdate{{}, {}}}
		for i, p := range paths {
			f := field("int32", decoder.FamSigned, decoder.Int(1), 8)
			f.Path, f.Update = p, min(i/3, 1) // fields 0-2 in update 0, the rest in update 1
			m.Fields = append(m.Fields, *f)
		}
		return m
	}
	cases := []struct {
		name  string
		m     *provenance.Message
		trips int // index of the field that trips, -1 none
	}{
		{"increasing", msg(pathOf(1), pathOf(1, 0), pathOf(2)), -1},
		{"deeper then back up", msg(pathOf(3, 4, 5), pathOf(3, 5), pathOf(4)), -1},
		{"repeated", msg(pathOf(1), pathOf(2), pathOf(2)), 2},
		{"backwards", msg(pathOf(5), pathOf(3, 1), pathOf(6)), 1},
		{"a new update starts over", msg(pathOf(5), pathOf(6), pathOf(7), pathOf(0), pathOf(1)), -1},
	}
	for _, c := range cases {
		rep := Message(c.m, nil)
		for i := range c.m.Fields {
			if got := has(rep.Anomalies[i], PathOrder); got != (i == c.trips) {
				t.Errorf("%s: field %d (%s) trips: %v", c.name, i, c.m.Fields[i].Path, got)
			}
		}
	}
}

// TestRealReplaysWritePathsInOrder backs the rule: no update of any shared
// replay has a field path at or before the one before it.
func TestRealReplaysWritePathsInOrder(t *testing.T) {
	testreplays.EachFile(t, func(path string, data []byte) {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		rec := &provenance.Message{}
		fields := 0
		r.Hooks.Record = func(replay.Location) *provenance.Message { return rec }
		r.Hooks.Entities = func(loc replay.Location, _ *messages.PacketEntities, _ entity.Result, m *provenance.Message) {
			rep := Message(m, nil)
			fields += len(m.Fields)
			for i, as := range rep.Anomalies {
				if has(as, PathOrder) {
					t.Fatalf("%s tick %d: %s: %v", path, loc.Tick, m.Fields[i].Name, as)
				}
			}
		}
		if err := r.Run(nil); err != nil {
			t.Fatal(err)
		}
		if fields == 0 {
			t.Fatalf("%s: no field recorded", path)
		}
	})
}
