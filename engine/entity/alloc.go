package entity

import (
	"unsafe"

	"github.com/dembug/dembug/engine/decoder"
)

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
	n.owner, n.blk = owner, blockOf(c)
	return n
}

// blockOf is the block a node with room for c values (1 to 32) comes in:
// 1 node4, 2 node8, 3 node16, 4 node32.
func blockOf(c int) uint8 {
	switch {
	case c <= 4:
		return 1
	case c <= 8:
		return 2
	case c <= 16:
		return 3
	}
	return 4
}

// blockVals is the whole of the values n's block holds (n.blk > 0): n is
// the block's first member.
func blockVals(n *Node) []decoder.Value {
	switch n.blk {
	case 1:
		return (*node4)(unsafe.Pointer(n)).v[:]
	case 2:
		return (*node8)(unsafe.Pointer(n)).v[:]
	case 3:
		return (*node16)(unsafe.Pointer(n)).v[:]
	}
	return (*node32)(unsafe.Pointer(n)).v[:]
}

// spares keeps the nodes below deleted entities' top-level nodes, by
// block, for the nodes creates write below theirs: in a long replay the
// entities that come and go (creeps, projectiles) wrote most of the
// decode's garbage there once their top-level nodes were reused
// (recycle.go). A node is kept with its kid list's storage. A nil spares
// allocates.
type spares struct {
	blocks [5][]*Node      // [0]: nodes with no values in place
	wide   map[int][]*Node // nodes whose values were allocated apart, by their capacity
	// overlay nodes of a released table (reuse.go), with room for
	// overlayRoom slots in place and with more
	smallOv, bigOv []*overlayNode
	bytes          int  // what the nodes kept since the table was new or reused hold (spareSize)
	all            bool // keep every node released, past maxSpareBytes (Table.Release)
}

// alloc is allocNode(l, c, owner), in a kept node when there is one.
func (sp *spares) alloc(l, c int, owner uint32) *Node {
	if sp == nil {
		return allocNode(l, c, owner)
	}
	if c > 32 {
		if n := sp.takeWide(c, owner); n != nil {
			n.vals = n.vals[:l]
			return n
		}
		return allocNode(l, c, owner)
	}
	b := uint8(0)
	if c > 0 {
		b = blockOf(c)
	}
	if len(sp.blocks[b]) == 0 {
		return allocNode(l, c, owner)
	}
	n := popLast(&sp.blocks[b])
	if sp.bytes > 0 {
		sp.bytes = max(sp.bytes-spareSize(n), 0)
	}
	kids := n.kids.nodes[:0]
	*n = Node{kids: kidList{nodes: kids}, owner: owner, blk: b}
	if b > 0 {
		vals := blockVals(n)
		clear(vals)
		n.vals = vals[:l:c]
	}
	return n
}

// takeWide is a kept node whose values have capacity c, zeroed and empty,
// or nil.
func (sp *spares) takeWide(c int, owner uint32) *Node {
	if sp == nil {
		return nil
	}
	list := sp.wide[c]
	if len(list) == 0 {
		return nil
	}
	n := popLast(&list)
	sp.wide[c] = list
	if sp.bytes > 0 {
		sp.bytes = max(sp.bytes-spareSize(n), 0)
	}
	vals := n.vals[:c]
	clear(vals)
	*n = Node{vals: vals[:0], kids: kidList{nodes: n.kids.nodes[:0]}, owner: owner}
	return n
}

// release keeps n and every node below it that owner alone wrote. Nodes
// shared with the baseline or a snapshot carry another owner and stay.
func (sp *spares) release(n *Node, owner uint32) {
	if n == nil || n.owner != owner || n.ov != nil {
		return
	}
	sp.releaseKids(n, owner)
	size := 0 // a released table's spares are not counted (reuse.go)
	if !sp.all {
		if size = spareSize(n); sp.bytes+size > maxSpareBytes {
			return // a decode keeps what its creates are likely to need
		}
	}
	clear(n.kids.nodes)
	n.far = nil
	switch c := cap(n.vals); {
	case n.blk > 0 || c == 0:
		sp.blocks[n.blk] = append(sp.blocks[n.blk], n)
	case c > 32:
		if sp.wide == nil {
			sp.wide = map[int][]*Node{}
		}
		sp.wide[c] = append(sp.wide[c], n)
	default:
		return
	}
	sp.bytes += size
}

// maxSpareBytes bounds what a decode's spares hold (a released table's
// hold all it had): past it a deleted entity's nodes go to the collector.
const maxSpareBytes = 1 << 20

// spareSize is what a kept node holds: its block, or its values.
func spareSize(n *Node) int {
	if n.blk > 0 {
		return blockBytes[n.blk&3]
	}
	return cap(n.vals)*valueSize + nodeSize
}

// nodeSize is a Node's own size, and blockBytes a block's by Node.blk
// (4 for node32, which blk&3 makes 0).
const nodeSize = int(unsafe.Sizeof(Node{}))

var blockBytes = [4]int{32*valueSize + nodeSize, 4*valueSize + nodeSize, 8*valueSize + nodeSize, 16*valueSize + nodeSize}

// releaseKids releases the nodes below n.
func (sp *spares) releaseKids(n *Node, owner uint32) {
	for _, k := range n.kids.nodes {
		sp.release(k, owner)
	}
	for _, f := range n.far {
		sp.release(f.kid, owner)
	}
}

// newEntity returns a zero entity: a deleted one recycle kept, or one of a
// released table, when there is one (recycle.go, reuse.go). A full frame's creates (the signon's
// hundreds) are cut from blocks of entityBlock: one allocation for many,
// and they are the long-lived entities, so a block is not kept for a few
// survivors. A table applies one full frame (the rest are skipped), so the
// blocks hold no more entities than it created. Other creates allocate
// alone.
func (t *Table) newEntity(fullFrame bool) *Entity {
	if e := t.reuseEntity(); e != nil {
		return e
	}
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
