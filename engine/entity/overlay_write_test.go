package entity

import (
	"testing"

	"github.com/dembug/dembug/engine/decoder"
	"pgregory.net/rapid"
)

// An overlay written as a create writes (slots and nodes below in any
// order, a slot past DenseSlots, the same slot twice), then made whole as
// the entity's next update makes it and written again, holds at every step what a copy of its base written the
// same holds; a copy of it, a clone and its whole form too.
func TestOverlayWritesLikeACopy(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base := newNode(rapid.IntRange(0, 40).Draw(t, "size"), 0)
		for range rapid.IntRange(0, 30).Draw(t, "baseVals") {
			*base.slot(rapid.Int32Range(0, 39).Draw(t, "baseSlot")) = decoder.Uint(rapid.Uint64Range(1, 9).Draw(t, "baseVal"))
		}
		for range rapid.IntRange(0, 4).Draw(t, "baseKids") {
			*base.kid(rapid.Int32Range(0, 39).Draw(t, "baseKid"), 4, 0, nil).slot(rapid.Int32Range(0, 5).Draw(t, "baseKidSlot")) = decoder.Uint(7)
		}
		before := base.Clone()
		owner := newOwner()
		ov := newOverlay(base, owner, rapid.IntRange(0, 8).Draw(t, "room"))
		cp := base.cowCopy(owner)
		wholeAt := rapid.IntRange(0, 30).Draw(t, "wholeAt")
		for step := range rapid.IntRange(1, 30).Draw(t, "writes") {
			if step == wholeAt {
				ov.materialize() // what the entity's next update does
			}
			v := decoder.Int(int64(step) - 10)
			if rapid.Bool().Draw(t, "toKid") {
				i := rapid.Int32Range(0, 45).Draw(t, "kid")
				j := rapid.Int32Range(0, 6).Draw(t, "kidSlot")
				*ov.kid(i, 4, owner, nil).slot(j) = v
				*cp.kid(i, 4, owner, nil).slot(j) = v
			} else {
				i := rapid.SampledFrom([]int32{0, 1, 5, 20, 39, 44, DenseSlots - 1, DenseSlots + 3}).Draw(t, "slot")
				a, b := ov.slot(i), cp.slot(i)
				if !a.Equal(*b) {
					t.Fatalf("slot %d before the write: %v against %v", i, *a, *b)
				}
				*a, *b = v, v
			}
			for _, c := range []struct {
				name string
				n    *Node
			}{{"overlay", ov}, {"copy of it", ov.cowCopy(newOwner())}, {"clone", ov.Clone()}} {
				if d := c.n.Diff(cp); d != "" {
					t.Fatalf("step %d, %s: %s", step, c.name, d)
				}
				for i := range DenseSlots + 8 {
					if a, b := c.n.Get(i), cp.Get(i); !a.Equal(b) {
						t.Fatalf("step %d, %s: Get(%d) %v against %v", step, c.name, i, a, b)
					}
				}
			}
		}
		if d := base.Diff(before); d != "" {
			t.Fatal("the base changed: " + d)
		}
	})
}

// A create that repeats its top-level paths (a crafted one may send 16,384)
// gets an overlay with room for no more than DenseSlots slots, the most it
// can hold: its memory stays in proportion to the class, not to the paths.
func TestOverlayRoomIsBounded(t *testing.T) {
	base := newNode(4, 0)
	n := newOverlay(base, newOwner(), 1<<14)
	if c := cap(n.ov.slots); c > DenseSlots {
		t.Fatalf("room for %d slots", c)
	}
	for range 1 << 14 {
		*n.slot(3) = decoder.Uint(1)
	}
	if len(n.ov.slots) != 1 || n.ov.bytes() > DenseSlots*ovSlotSize {
		t.Fatalf("%d slots, %d bytes for one slot written 16,384 times", len(n.ov.slots), n.ov.bytes())
	}
}
