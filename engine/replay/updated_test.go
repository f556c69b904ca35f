package replay_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

// TestUpdateLogAgreesWithRecords holds the update log of a plain decode
// (entity.Table.Log, which the debugger's index pass keeps) to what a
// recording decode records, update by update, on every shared replay:
// position in its message, entity, operation, class, bit range, field
// count, PVS skip.
func TestUpdateLogAgreesWithRecords(t *testing.T) {
	testreplays.EachFile(t, func(path string, data []byte) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			var plain, recorded []string
			r, err := replay.Open(data)
			if err != nil {
				t.Fatal(err)
			}
			r.Entities.Logging = true
			r.Hooks.Entities = func(_ replay.Location, _ *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
				log := r.Entities.Log
				for i, u := range log {
					end := r.Entities.LogEnd
					if i+1 < len(log) {
						end = uint(log[i+1].Start)
					}
					class := ""
					if int(u.Class) < len(r.Entities.Classes) && r.Entities.Classes[u.Class] != nil {
						class = r.Entities.Classes[u.Class].Name
					}
					plain = append(plain, fmt.Sprintf("#%d %d op%d %s %d-%d %d fields skipped %v", i, u.Entity, u.Op, class, u.Start, end, u.Fields(), u.Skipped()))
				}
				r.Entities.Log = r.Entities.Log[:0]
			}
			r.Run(nil)
			rr, _ := replay.Open(data)
			var rec provenance.Message
			rr.Hooks.Record = func(replay.Location) *provenance.Message { return &rec }
			rr.Hooks.Entities = func(_ replay.Location, _ *messages.PacketEntities, res entity.Result, m *provenance.Message) {
				for i, u := range m.Updates {
					if u.Err != nil {
						break
					}
					recorded = append(recorded, fmt.Sprintf("#%d %d op%d %s %d-%d %d fields skipped %v", i, u.Index, u.Op, u.Class, u.Start, u.End, u.NumFields, u.Skipped))
				}
			}
			rr.Run(nil)
			if len(plain) != len(recorded) || len(plain) == 0 {
				t.Fatalf("%d updates summarised, %d recorded", len(plain), len(recorded))
			}
			for i := range plain {
				if plain[i] != recorded[i] {
					t.Fatalf("update %d: %s; recorded %s", i, plain[i], recorded[i])
				}
			}
		})
	})
}
