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

// TestOnUpdatedAgreesWithRecords holds the per-update summaries of a plain
// decode (entity.Table.OnUpdated, which the debugger's index pass keeps)
// to what a recording decode records, update by update, on every shared
// replay: entity, operation, class, serial, bit range, field count.
func TestOnUpdatedAgreesWithRecords(t *testing.T) {
	testreplays.EachFile(t, func(path string, data []byte) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			var plain, recorded []string
			r, err := replay.Open(data)
			if err != nil {
				t.Fatal(err)
			}
			r.Entities.OnUpdated = func(u *entity.Updated) {
				class, serial := "", uint32(0)
				if u.Entity != nil && u.Entity.Class != nil {
					class, serial = u.Entity.Class.Name, u.Entity.Serial
				}
				plain = append(plain, fmt.Sprintf("#%d %d op%d %s/%d %d-%d %d fields skipped %v", u.Update, u.Index, u.Op, class, serial, u.Start, u.End, u.Fields, u.Skipped))
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
					recorded = append(recorded, fmt.Sprintf("#%d %d op%d %s/%d %d-%d %d fields skipped %v", i, u.Index, u.Op, u.Class, u.Serial, u.Start, u.End, u.NumFields, u.Skipped))
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
