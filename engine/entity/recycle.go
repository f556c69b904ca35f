package entity

// Deleted entities' top-level nodes are kept for the next create of their
// class: a create's first write copies its class baseline's top-level node
// (cowCopy), and in a long replay the entities that come and go
// (projectiles, creeps, effects) made that copy most of the decode's
// garbage. Only a node its entity owned alone is kept: one a snapshot, a
// keyframe or ShareState still shares carries another owner token.

// maxFreeBytes bounds the values the kept nodes hold room for (a node
// keeps its entity's nodes below it too until reused). A full frame
// deletes and creates hundreds of entities of a class at once.
const maxFreeBytes = 16 << 20

// recycle keeps the top-level node of e, just deleted, when no one else
// holds it. The deleted entity keeps pointing to it until a create reuses
// it: a hook called for the delete still reads its state.
func (t *Table) recycle(e *Entity) {
	if e == nil || e.Class == nil || e.Class.ID < 0 {
		return
	}
	n := e.State
	if n == nil || n.ov != nil || n.owner == 0 || n.owner != e.owner || t.freeBytes+nodeBytes(n) > maxFreeBytes {
		return
	}
	id := int(e.Class.ID)
	if id >= len(t.free) {
		if id >= 1<<16 {
			return
		}
		t.free = append(t.free, make([][]*Node, id+1-len(t.free))...)
	}
	t.free[id] = append(t.free[id], n)
	t.freeBytes += nodeBytes(n)
	t.dead = append(t.dead, e)
	if e.memos != nil { // kept apart, and a few only: most creates never need one
		if len(t.spareMemos) < maxSpareMemos {
			t.spareMemos = append(t.spareMemos, e.memos)
		}
		e.memos = nil
	}
}

// maxSpareMemos bounds the memo sets deleted entities leave for the next
// entities that need one.
const maxSpareMemos = 64

// reuseEntity is a deleted entity whose node recycle kept, zeroed for a
// create, or nil; its memo set is kept for the next entity that needs one.
func (t *Table) reuseEntity() *Entity {
	if len(t.dead) == 0 {
		return nil
	}
	e := popLast(&t.dead)
	if e.memos != nil { // a released table's entity (reuse.go)
		t.spareMemos = append(t.spareMemos, e.memos)
	}
	*e = Entity{}
	return e
}

// newMemoSet is an empty memo set for owner, one a deleted entity had
// when there is one.
func (t *Table) newMemoSet(owner uint32) *memoSet {
	if len(t.spareMemos) == 0 {
		return &memoSet{owner: owner}
	}
	s := popLast(&t.spareMemos)
	s.clear(owner)
	s.last, s.clock = 0, 0
	return s
}

// cowCopy is n.cowCopy(owner), in a node of class c that recycle kept
// when one is large enough, else in one of the table's spares (as a copy
// below the top level is).
func (t *Table) cowCopy(c *Class, n *Node, owner uint32) *Node {
	m := t.keptNode(c, n)
	if m == nil {
		return n.cowCopyIn(owner, &t.spare)
	}
	t.spare.releaseKids(m, m.owner) // the deleted entity's: no one reads them now
	m.refill(n, owner)
	return m
}

// keptNode takes from what recycle kept of class c a node with room for
// a copy of n, or returns nil.
func (t *Table) keptNode(c *Class, n *Node) *Node {
	if c == nil || c.ID < 0 || int(c.ID) >= len(t.free) || len(n.far) > 0 || n.ov != nil {
		return nil
	}
	l := t.free[c.ID]
	if len(l) == 0 {
		return nil
	}
	if m := l[len(l)-1]; cap(m.vals) < max(len(n.vals), cap(n.vals)) || cap(m.kids.nodes) < len(n.kids.nodes) {
		return nil
	}
	m := popLast(&t.free[c.ID])
	t.freeBytes -= nodeBytes(m)
	return m
}

// popLast removes and returns the last element of a non-empty list,
// clearing its slot so that the list's storage holds on to nothing.
func popLast[T any](l *[]T) T {
	n := len(*l) - 1
	x := (*l)[n]
	var zero T
	(*l)[n] = zero
	*l = (*l)[:n]
	return x
}

// refill makes m what n.cowCopy(owner) returns, in m's storage: the slots
// past n's are zeroed, as growVals and kid expect of a node's spare room.
func (m *Node) refill(n *Node, owner uint32) {
	vals := m.vals[:cap(m.vals)]
	copy(vals, n.vals)
	clear(vals[len(n.vals):])
	m.vals = vals[:len(n.vals)]
	kids := m.kids.nodes[:cap(m.kids.nodes)]
	copy(kids, n.kids.nodes)
	clear(kids[len(n.kids.nodes):])
	m.kids = kidList{has: n.kids.has, nodes: kids[:len(n.kids.nodes)]}
	m.far = nil
	m.owner = owner
}

// nodeBytes is what a kept node's own storage costs.
func nodeBytes(n *Node) int { return cap(n.vals)*valueSize + n.kids.bytes() }
