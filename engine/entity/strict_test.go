package entity_test

import (
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

// TestRealReplaysPassWhatIfChecks decodes every message of every shared
// replay a second time as an empty what-if, which stops at a path out of
// order or an array element past its length: real data has neither, so
// those checks only ever stop a misread.
func TestRealReplaysPassWhatIfChecks(t *testing.T) {
	testreplays.EachFile(t, func(path string, data []byte) {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		var before *entity.Table
		r.Hooks.Record = func(replay.Location) *provenance.Message {
			before = r.Entities.Snapshot()
			return nil
		}
		checked := 0
		r.Hooks.Entities = func(loc replay.Location, m *messages.PacketEntities, res entity.Result, _ *provenance.Message) {
			if res.Skipped || before == nil {
				return
			}
			if half := uint(len(m.EntityData)) * 4; res.Updates > 1 {
				// Stopped halfway: unfinished, with no error.
				w := before.Snapshot().ApplyWhatIf(m, nil, entity.WhatIf{Occurrence: -1, StopAt: half})
				if !w.Unfinished || w.Err != nil || w.EndBit < half || w.Updates >= res.Updates {
					t.Fatalf("%s tick %d: stopped at bit %d: %+v", path, loc.Tick, half, w)
				}
			}
			if w := before.ApplyWhatIf(m, nil, entity.WhatIf{Occurrence: -1}); w.Misaligned || w.Err != nil {
				t.Fatalf("%s tick %d: the empty what-if fails where the decode does not: %v", path, loc.Tick, w.Err)
			}
			checked++
		}
		if err := r.Run(func(*container.Command) bool { return false }); err != nil {
			t.Fatal(err)
		}
		if checked == 0 {
			t.Fatalf("%s: no message checked", path)
		}
	})
}
