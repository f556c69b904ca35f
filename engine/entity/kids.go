package entity

import "math/bits"

// kidList holds the nodes below a node's dense slots, packed: a node's
// slots are mostly values, and of the slots of a Dota 2 signon's state
// that could hold a node one in eleven does. Kept by slot, every create's
// copy of its class's top-level node copied a row of nil pointers, each
// a write barrier while the collector marks; packed, it copies the few
// that are there.
//
// has marks the slots that have a node; nodes holds them in slot order,
// so a slot's position is the count of marks below it. Each node has its
// own nodes, which only its owner writes.
type kidList struct {
	has   [DenseSlots / 64]uint64
	nodes []*Node
}

// at is the position of slot i (0 <= i < DenseSlots) in nodes and whether
// it has a node.
func (l *kidList) at(i int32) (int, bool) {
	w, bit := uint(i)>>6, uint64(1)<<(uint(i)&63)
	p := bits.OnesCount64(l.has[w&3] & (bit - 1))
	for k := uint(0); k < w&3; k++ {
		p += bits.OnesCount64(l.has[k])
	}
	return p, l.has[w&3]&bit != 0
}

// get is the node below slot i, or nil.
func (l *kidList) get(i int32) *Node {
	if uint32(i) >= DenseSlots {
		return nil
	}
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
		l.has[uint(i)>>6&3] |= 1 << (uint(i) & 63)
		if l.nodes == nil {
			// Room for a few: a baseline's or a create's nodes gain their
			// kids one by one, and most have several.
			l.nodes = make([]*Node, 0, 4)
		}
		l.nodes = append(l.nodes, nil)
		copy(l.nodes[p+1:], l.nodes[p:])
		l.nodes[p] = nil
	}
	return &l.nodes[p]
}

// copied is the list for a copy of its node: the nodes its own.
func (l *kidList) copied() kidList {
	if len(l.nodes) == 0 {
		return kidList{}
	}
	return kidList{has: l.has, nodes: append([]*Node(nil), l.nodes...)}
}

// copiedInto is copied, in buf's storage when it has the room.
func (l *kidList) copiedInto(buf []*Node) kidList {
	if len(l.nodes) == 0 {
		return kidList{nodes: buf[:0]}
	}
	if cap(buf) < len(l.nodes) {
		return l.copied()
	}
	return kidList{has: l.has, nodes: append(buf[:0], l.nodes...)}
}

// each calls fn with the position, the slot and the node of every node,
// in slot order.
func (l *kidList) each(fn func(p, i int, k *Node)) {
	p := 0
	for w, m := range l.has {
		for m != 0 {
			b := bits.TrailingZeros64(m)
			m &= m - 1
			if k := l.nodes[p]; k != nil {
				fn(p, w*64+b, k)
			}
			p++
		}
	}
}

// bytes is what the list's storage costs.
func (l *kidList) bytes() int { return cap(l.nodes) * 8 }

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
