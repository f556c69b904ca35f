package entity

import "github.com/dembug/dembug/engine/decoder"

// Nodes with room for few values take it in the same allocation as the
// node: a create copies each node its fields write below the top level
// (CS2's per-round statistics are thirty nodes of thirteen values), and
// one allocation for two halves the start-up's count and the objects the
// collector tracks. The values' capacity is what was asked, not the room
// the block has, so a node grows and memoises exactly as one whose values
// were allocated alone.

type node4 struct {
	n Node
	v [4]decoder.Value
}

type node8 struct {
	n Node
	v [8]decoder.Value
}

type node16 struct {
	n Node
	v [16]decoder.Value
}

type node32 struct {
	n Node
	v [32]decoder.Value
}

// allocNode returns a node for owner whose values are l zero values with
// capacity c.
func allocNode(l, c int, owner uint32) *Node {
	var n *Node
	switch {
	case c == 0:
		return &Node{owner: owner}
	case c <= 4:
		x := new(node4)
		x.n.vals = x.v[:l:c]
		n = &x.n
	case c <= 8:
		x := new(node8)
		x.n.vals = x.v[:l:c]
		n = &x.n
	case c <= 16:
		x := new(node16)
		x.n.vals = x.v[:l:c]
		n = &x.n
	case c <= 32:
		x := new(node32)
		x.n.vals = x.v[:l:c]
		n = &x.n
	default:
		return &Node{vals: make([]decoder.Value, l, c), owner: owner}
	}
	n.owner = owner
	return n
}

// newEntity returns a zero entity. A full frame's creates (the signon's
// hundreds) are cut from blocks of entityBlock: one allocation for many,
// and they are the long-lived entities, so a block is not kept for a few
// survivors. A table applies one full frame (the rest are skipped), so the
// blocks hold no more entities than it created. Other creates allocate
// alone.
func (t *Table) newEntity(fullFrame bool) *Entity {
	if !fullFrame {
		return &Entity{}
	}
	if len(t.entBlock) == cap(t.entBlock) {
		t.entBlock = make([]Entity, 0, entityBlock)
	}
	t.entBlock = t.entBlock[:len(t.entBlock)+1]
	return &t.entBlock[len(t.entBlock)-1]
}

// entityBlock is how many entities a block of newEntity holds.
const entityBlock = 64
