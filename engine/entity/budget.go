package entity

import (
	"sync/atomic"
	"unsafe"

	"github.com/dembug/dembug/engine/budget"
)

// allocated is a running total of the bytes of entity state every table
// has allocated (never decreased): Apply checks the memory budget each
// time it has grown by budgetStep, so that no message can grow the state
// far past the budget between two checks.
var allocated atomic.Int64

const budgetStep = 4 << 20

func noteAlloc(n int) { allocated.Add(int64(n)) }

// overBudget checks the memory budget when the state has grown by
// budgetStep since the table last did.
func (t *Table) overBudget() error {
	if allocated.Load() < t.budgetAt {
		return nil
	}
	if err := budget.Check(); err != nil {
		return err
	}
	t.budgetAt = allocated.Load() + budgetStep
	return nil
}

// SizeOutside is the size in bytes of the nodes under n that are not
// under old (the same node in an earlier copy of the state): what keeping
// n costs beside old.
func (n *Node) SizeOutside(old *Node) int64 {
	if n == nil || n == old {
		return 0
	}
	b := int64(unsafe.Sizeof(Node{})) + int64(cap(n.vals))*valueSize + int64(n.kids.bytes()) + int64(len(n.far))*farSize + int64(n.ov.bytes())
	n.kids.each(func(_, i int, kid *Node) { b += kid.SizeOutside(old.Kid(i)) }) // an overlay's own kids: its base's are the baseline's
	for _, f := range n.far {
		b += f.kid.SizeOutside(old.Kid(int(f.i)))
	}
	return b
}
