package entity

import (
	"fmt"

	"github.com/dembug/dembug/engine/decoder"
)

// Diff describes the first difference between the values held under n and
// o (slot by slot, then below each slot), or returns "" when they hold the
// same.
func (n *Node) Diff(o *Node) string {
	if n == nil || o == nil {
		if n != o {
			return "a node exists on one side only"
		}
		return ""
	}
	type slot struct {
		i int
		v decoder.Value
	}
	var a, b []slot
	n.EachVal(func(i int, v decoder.Value) { a = append(a, slot{i, v}) })
	o.EachVal(func(i int, v decoder.Value) { b = append(b, slot{i, v}) })
	for k := 0; k < min(len(a), len(b)); k++ {
		if a[k].i != b[k].i || !a[k].v.Equal(b[k].v) {
			return fmt.Sprintf("slot %d: %v against slot %d: %v", a[k].i, a[k].v, b[k].i, b[k].v)
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d values against %d", len(a), len(b))
	}
	kl := max(n.KidLen(), o.KidLen())
	for i := range kl {
		if d := n.Kid(i).Diff(o.Kid(i)); d != "" {
			return fmt.Sprintf("below slot %d: %s", i, d)
		}
	}
	return ""
}
