package entity

// kidList holds the nodes below a node's dense slots, packed: a node's
// slots are mostly values, and of the slots of a Dota 2 signon's state
// that could hold a node one in eleven does. Kept by slot, every create's
// copy of its class's top-level node copied a row of nil pointers, each
// a write barrier while the collector marks; packed, it copies the few
// that are there.
//
// slots lists the slots that have a node, in increasing order. Copies of
// a node share it, capped at its length, and never write it: adding a slot
// makes a new one, except that a list with room after its last slot adds
// a larger slot there (paths come in increasing order, so a node being
// filled adds its slots so), which no copy sees. nodes[i] is the node
// below slots[i]; each node has its own nodes, which only its owner
// writes.
type kidList struct {
	slots []uint8 // below DenseSlots
	nodes []*Node
}

// at is the position of slot i in slots and whether it is there.
func (l *kidList) at(i int32) (int, bool) {
	s := l.slots
	if uint32(i) < uint32(len(s)) && int32(s[i]) == i {
		return int(i), true // slots 0 to i all there: an array's elements
	}
	if len(s) <= 8 {
		for p, x := range s {
			if int32(x) >= i {
				return p, int32(x) == i
			}
		}
		return len(s), false
	}
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int32(s[m]) < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(s) && int32(s[lo]) == i
}

// get is the node below slot i, or nil.
func (l *kidList) get(i int32) *Node {
	if p, ok := l.at(i); ok {
		return l.nodes[p]
	}
	return nil
}

// ref is where the node below slot i is kept, the slot added (holding
// nil) when it has none. The list must be its node's own.
func (l *kidList) ref(i int32) **Node {
	p, ok := l.at(i)
	if !ok {
		s := l.slots
		if p == len(s) && p < cap(s) {
			s = s[:p+1]
		} else {
			s = make([]uint8, len(s)+1, max(4, 2*len(s)))
			copy(s, l.slots[:p])
			copy(s[p+1:], l.slots[p:])
			noteAlloc(cap(s))
		}
		s[p] = uint8(i)
		l.slots = s
		l.nodes = append(l.nodes, nil)
		copy(l.nodes[p+1:], l.nodes[p:])
		l.nodes[p] = nil
	}
	return &l.nodes[p]
}

// copied is the list for a copy of its node: the slots shared (capped, so
// that neither side adds to the other's), the nodes its own.
func (l *kidList) copied() kidList {
	if len(l.nodes) == 0 {
		return kidList{}
	}
	return kidList{slots: l.shared(), nodes: append([]*Node(nil), l.nodes...)}
}

// shared is slots for another node to share: capped at its length.
func (l *kidList) shared() []uint8 { return l.slots[:len(l.slots):len(l.slots)] }

// each calls fn with every node, in slot order.
func (l *kidList) each(fn func(i int, k *Node)) {
	for p, k := range l.nodes {
		if k != nil {
			fn(int(l.slots[p]), k)
		}
	}
}

// sameSlots reports whether two lists have nodes below the same slots.
func (l *kidList) sameSlots(o *kidList) bool {
	if len(l.slots) != len(o.slots) {
		return false
	}
	if len(l.slots) == 0 || &l.slots[0] == &o.slots[0] {
		return true
	}
	for p, x := range l.slots {
		if o.slots[p] != x {
			return false
		}
	}
	return true
}

// bytes is what the list's storage costs.
func (l *kidList) bytes() int { return cap(l.slots) + cap(l.nodes)*8 }

// farList holds a node's slots at or past DenseSlots, in increasing slot
// order: a CS2 pawn has dozens, and each create's copy of its class's
// top-level node copies them, so a list (copied in one block) serves
// better than a map. A slot stays at its address while its node lives
// (update memos keep it), so the list holds pointers.
type farList []*farSlot

// find is the position of slot i in the list and whether it is there.
func (l farList) find(i int32) (int, bool) {
	lo, hi := 0, len(l)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if l[m].i < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(l) && l[lo].i == i
}

// get is slot i, or nil.
func (l farList) get(i int32) *farSlot {
	if p, ok := l.find(i); ok {
		return l[p]
	}
	return nil
}

// copied is the list for a copy of its node: every slot copied, in one
// block.
func (l farList) copied() farList {
	if len(l) == 0 {
		return nil
	}
	block := make([]farSlot, len(l))
	c := make(farList, len(l))
	for p, f := range l {
		block[p] = *f
		c[p] = &block[p]
	}
	return c
}
