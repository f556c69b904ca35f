package entity

import (
	"testing"

	"github.com/dembug/dembug/engine/decoder"
)

// A deleted entity's top-level node becomes the next create's copy of its
// class baseline: the baseline's values and children, nothing of the
// deleted entity's, with room for every slot. A node a snapshot or
// ShareState still shares is not kept.
func TestRecycledNodeIsAFreshCopy(t *testing.T) {
	tb := NewTable()
	c := &Class{ID: 3, Name: "C"}
	base := newNode(10, 0)
	for i := range int32(4) {
		*base.slot(i) = decoder.Uint(uint64(i + 1))
	}
	*base.kid(5, 2, 0, nil).slot(1) = decoder.Uint(50)

	e := &Entity{Class: c, owner: newOwner()}
	e.State = tb.cowCopy(c, base, e.owner)
	*e.State.slot(2) = decoder.Uint(99)
	*e.State.slot(9) = decoder.Uint(9)
	*e.State.kid(5, 2, e.owner, nil).slot(0) = decoder.Uint(7)
	*e.State.kid(8, 2, e.owner, nil).slot(1) = decoder.Uint(8)
	old := e.State
	tb.recycle(e)

	n := tb.cowCopy(c, base, newOwner())
	if n != old {
		t.Fatal("the deleted entity's node was not reused")
	}
	if d := n.Diff(base); d != "" {
		t.Fatalf("the reused node is not the baseline: %s", d)
	}
	if cap(n.vals) < cap(base.vals) || len(n.vals) != len(base.vals) {
		t.Fatalf("reused values: length %d capacity %d, baseline's %d and %d", len(n.vals), cap(n.vals), len(base.vals), cap(base.vals))
	}
	if n.Kid(5) != base.Kid(5) || n.Kid(8) != nil {
		t.Fatal("the reused node keeps the deleted entity's children")
	}
	if v := *n.slot(9); v.Kind != decoder.KindNone {
		t.Fatalf("slot 9, past the baseline's, reads %v after reuse", v)
	}
	if base.Get(2).U != 3 || base.Kid(5).Get(0).Kind != decoder.KindNone {
		t.Fatal("the baseline changed")
	}
	if again := tb.cowCopy(c, base, newOwner()); again == old {
		t.Fatal("one node reused twice")
	}

	// Shared (ShareState gives the entity a new token): not kept.
	s := &Entity{Class: c, owner: newOwner()}
	s.State = tb.cowCopy(c, base, s.owner)
	*s.State.slot(1) = decoder.Uint(11)
	shared := s.State
	s.owner = newOwner()
	tb.recycle(s)
	if n := tb.cowCopy(c, base, newOwner()); n == shared {
		t.Fatal("a shared node was reused")
	}
	if shared.Get(1).U != 11 {
		t.Fatal("a shared node changed")
	}
}

// The nodes a deleted entity wrote below its top level are kept once its
// top-level node is reused, and come back zeroed, with the room asked for,
// as the nodes a later create writes below its own; a node the baseline
// or another owner holds is never kept.
func TestRecycledKidsComeBackZeroed(t *testing.T) {
	tb := NewTable()
	c := &Class{ID: 3, Name: "C"}
	base := newNode(10, 0)
	*base.kid(5, 2, 0, nil).slot(1) = decoder.Uint(50)

	e := &Entity{Class: c, owner: newOwner()}
	e.State = tb.cowCopy(c, base, e.owner)
	*e.State.kid(5, 2, e.owner, &tb.spare).slot(0) = decoder.Uint(7) // a copy of the baseline's
	small := e.State.kid(8, 3, e.owner, &tb.spare)
	*small.slot(2) = decoder.Uint(8)
	wide := e.State.kid(9, 40, e.owner, &tb.spare)
	*wide.slot(39) = decoder.Uint(9)
	copied := e.State.Kid(5)
	tb.recycle(e)
	if got := tb.reuseEntity(); got != e || got.State != nil || got.owner != 0 {
		t.Fatal("the deleted entity was not handed back zeroed")
	}

	owner := newOwner()
	n := tb.cowCopy(c, base, owner)
	if n.Kid(5) != base.Kid(5) || base.Kid(5).Get(1).U != 50 || base.Kid(5).Get(0).Kind != decoder.KindNone {
		t.Fatal("the baseline's node was touched")
	}
	k := n.kid(7, 4, owner, &tb.spare)
	if k != small && k != copied {
		t.Fatal("a kept node was not reused")
	}
	if len(k.vals) != 0 || cap(k.vals) != 4 || k.Get(2).Kind != decoder.KindNone || k.Get(0).Kind != decoder.KindNone || k.KidLen() != 0 {
		t.Fatalf("a reused node holds %d values of room %d, slot 2 %v", len(k.vals), cap(k.vals), k.Get(2))
	}
	if *k.slot(3) = decoder.Uint(1); k.Get(3).U != 1 || len(k.vals) != 4 {
		t.Fatal("a reused node does not take writes")
	}
	w := n.kid(6, 40, owner, &tb.spare)
	if w != wide || len(w.vals) != 0 || cap(w.vals) != 40 || w.Get(39).Kind != decoder.KindNone {
		t.Fatal("the wide node was not reused zeroed")
	}
}

// A node's values that outgrow their room move into a block the spares
// keep, when they keep one of the size: the values come along, the room
// past them reads empty, and the block is not handed out again.
func TestGrownValuesTakeAKeptBlock(t *testing.T) {
	var sp spares
	sp.all = true
	used := allocNode(64, 64, 1) // values allocated apart: kept by their room
	for i := range int32(64) {
		*used.slot(i) = decoder.Uint(1000 + uint64(i))
	}
	block := &used.vals[:cap(used.vals)][0]
	sp.release(used, 1)

	n := allocNode(0, 32, 2)
	for i := range int32(32) {
		*n.slotIn(i, &sp) = decoder.Uint(uint64(i))
	}
	*n.slotIn(32, &sp) = decoder.Uint(32) // past the room of 32: grows to 64
	if &n.vals[0] != block {
		t.Fatal("the grown values did not take the kept block")
	}
	for i := range 64 {
		want := decoder.Value{}
		if i <= 32 {
			want = decoder.Uint(uint64(i))
		}
		if got := n.vals[:cap(n.vals)][i]; got != want {
			t.Fatalf("slot %d reads %v after the move, want %v", i, got, want)
		}
	}
	if sp.takeWide(64, 3) != nil {
		t.Fatal("the block was handed out twice")
	}
	m := allocNode(0, 32, 4)
	*m.slotIn(40, &sp) = decoder.Uint(40)
	if &m.vals[0] == block || m.Get(40).U != 40 {
		t.Fatal("a node grown without a kept block shares one or lost its value")
	}
}
