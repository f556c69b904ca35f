package entity_test

import (
	"fmt"
	"testing"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/signon"
	"github.com/dembug/dembug/internal/testreplays"
)

// A full frame's creates write overlays of their baselines; every entity
// must hold what a copy of its baseline would: at the end of the signon
// (overlays as created, read through the accessors and frozen), and at the
// end of the file (most written again, made whole in place). The decode
// without overlays is the reference.
func TestOverlayCreatesHoldWhatCopiesHold(t *testing.T) {
	testreplays.Subtests(t, func(t *testing.T, data []byte) {
		restore := entity.SetOverlayCreates(false)
		copied := signon.End(t, data)
		restore()
		overlaid := signon.End(t, data)

		overlays := 0
		for _, e := range overlaid.Entities.Entities {
			if e != nil && entity.IsOverlay(e.State) {
				overlays++
			}
		}
		if overlays == 0 {
			t.Fatal("no entity of the signon's full frame holds an overlay")
		}
		sameEntities(t, "signon", overlaid.Entities, copied.Entities)
		sameEntities(t, "signon, frozen", overlaid.Entities.Freeze(nil), copied.Entities.Freeze(nil))

		for _, r := range []*replay.Replay{copied, overlaid} {
			if err := r.Run(nil); err != nil {
				t.Fatal(err)
			}
		}
		sameEntities(t, "end", overlaid.Entities, copied.Entities)
	})
}

// sameEntities fails unless a and b hold the same entities with the same
// state, value for value and node for node.
func sameEntities(t *testing.T, when string, a, b *entity.Table) {
	t.Helper()
	n := 0
	for i := range a.Entities {
		ea, eb := a.Entities[i], b.Entities[i]
		if (ea == nil) != (eb == nil) {
			t.Fatalf("%s: entity %d exists on one side only", when, i)
		}
		if ea == nil {
			continue
		}
		n++
		if ea.Serial != eb.Serial || ea.Class.Name != eb.Class.Name {
			t.Fatalf("%s: entity %d is %s/%d against %s/%d", when, i, ea.Class.Name, ea.Serial, eb.Class.Name, eb.Serial)
		}
		if d := ea.State.Diff(eb.State); d != "" {
			t.Fatalf("%s: entity %d (%s): %s", when, i, ea.Class.Name, d)
		}
		if d := sameByIndex(ea.State, eb.State); d != "" {
			t.Fatalf("%s: entity %d (%s): %s", when, i, ea.Class.Name, d)
		}
	}
	if n == 0 {
		t.Fatalf("%s: no entities", when)
	}
}

// sameByIndex compares two nodes through Get and Kid, slot by slot (Diff
// goes through EachVal and EachKid).
func sameByIndex(a, b *entity.Node) string {
	if (a == nil) != (b == nil) {
		return "a node exists on one side only"
	}
	if a == nil {
		return ""
	}
	for i := range entity.DenseSlots {
		if va, vb := a.Get(i), b.Get(i); !va.Equal(vb) {
			return fmt.Sprintf("Get(%d): %v against %v", i, va, vb)
		}
		if d := sameByIndex(a.Kid(i), b.Kid(i)); d != "" {
			return fmt.Sprintf("Kid(%d): %s", i, d)
		}
	}
	return ""
}
