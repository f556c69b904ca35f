package entity

import (
	"testing"

	"github.com/dembug/dembug/engine/decoder"
)

// Slots past DenseSlots are kept on their own: setting slot 16,383 costs
// one slot, reads back, iterates in index order, and copies apart.
func TestFarSlots(t *testing.T) {
	o1, o2 := newOwner(), newOwner()
	n := newNode(65536, o1)
	*n.slot(3) = decoder.Uint(3)
	*n.slot(16383) = decoder.Uint(16383)
	*n.slot(300) = decoder.Uint(300)
	n.kid(20000, 4, o1, nil).slot(2)
	*n.kid(20000, 4, o1, nil).slot(2) = decoder.Uint(7)
	if len(n.vals) > 4 || cap(n.vals) > DenseSlots {
		t.Fatalf("%d values in place (capacity %d) for slots 3, 300 and 16383", len(n.vals), cap(n.vals))
	}
	for _, i := range []int{3, 300, 16383} {
		if v := n.Get(i); v.U != uint64(i) {
			t.Errorf("Get(%d) = %v", i, v)
		}
	}
	if v := n.Kid(20000).Get(2); v.U != 7 {
		t.Errorf("Kid(20000).Get(2) = %v", v)
	}
	var order []int
	n.EachVal(func(i int, v decoder.Value) { order = append(order, i) })
	if len(order) != 3 || order[0] != 3 || order[1] != 300 || order[2] != 16383 {
		t.Errorf("EachVal order %v", order)
	}
	if n.KidLen() != 20001 {
		t.Errorf("KidLen %d", n.KidLen())
	}
	c := n.cowCopy(o2)
	*c.slot(16383) = decoder.Uint(1)
	*c.kid(20000, 4, o2, nil).slot(2) = decoder.Uint(1)
	if n.Get(16383).U != 16383 || n.Kid(20000).Get(2).U != 7 {
		t.Error("writing a copy changed the original's far slots")
	}
	if d := n.Diff(n.Clone()); d != "" {
		t.Errorf("a clone differs: %s", d)
	}
	if d := n.Diff(c); d == "" {
		t.Error("Diff finds no difference after a write")
	}
	e := n.Edit(func(set func([]int32, decoder.Value)) {
		set([]int32{16383}, decoder.Uint(9))
		set([]int32{20000, 2}, decoder.Uint(9))
		set([]int32{5, 1}, decoder.Uint(9)) // nothing below slot 5: ignored
	})
	if e.Get(16383).U != 9 || e.Kid(20000).Get(2).U != 9 || n.Get(16383).U != 16383 || n.Kid(20000).Get(2).U != 7 {
		t.Error("Edit wrote through to the original, or not at all")
	}
	if e.Kid(5) != nil {
		t.Error("Edit created a node below an unset slot")
	}
}
