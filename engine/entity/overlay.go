package entity

import (
	"cmp"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
)

// A full frame's create writes a few of its entity's slots (the Dota 2
// signon: some 15 fields each, over top-level nodes of some 60 values) yet
// copied its class baseline's whole top-level node and kid list first: a
// quarter of the start-up's allocated bytes. Such a create's top-level
// node is an overlay instead: the values it wrote, by slot, and the nodes
// below it that it wrote; the rest is read from the baseline node. The
// entity's next update turns it, in place, into the node a copy would have
// made (readFields; a write for another owner, a snapshot's or a
// what-if's, copies it whole), so past the create only the read-only
// accessors see it, and they merge the two.
// Entities never written again never pay the copy: 686 of the Dota 2
// replay's 747 overlays are still overlays at its end.

// overlay is what a node holds besides its own kids while it is one.
type overlay struct {
	base  *Node    // the class baseline's top-level node (owner 0)
	slots []ovSlot // the slots written, by increasing slot
}

// ovSlot is a slot an overlay wrote and its value.
type ovSlot struct {
	i int32
	v decoder.Value
}

// overlayNode allocates a node and its overlay at once, and smallOverlay
// room for a few slots too: a create costs one allocation, or two when it
// writes more.
type overlayNode struct {
	n  Node
	ov overlay
}

type smallOverlay struct {
	overlayNode
	slots [overlayRoom]ovSlot
}

// overlayRoom is how many slots a smallOverlay holds in place.
const overlayRoom = 4

// newOverlay returns an overlay node of base for owner, with room for
// room slots. It holds fewer than DenseSlots (a slot past them makes it
// whole), however many paths a crafted create repeats.
func newOverlay(base *Node, owner uint32, room int) *Node {
	return (*spares)(nil).overlay(base, owner, room)
}

// overlay is newOverlay in an overlay node sp keeps when it has one with
// the room (a released table's, reuse.go).
func (sp *spares) overlay(base *Node, owner uint32, room int) *Node {
	room = min(room, DenseSlots)
	if sp != nil {
		if x := sp.takeOverlay(room); x != nil {
			x.ov.base = base
			x.n.ov, x.n.owner = &x.ov, owner
			return &x.n
		}
	}
	var x *overlayNode
	if room <= overlayRoom {
		sx := &smallOverlay{}
		x = &sx.overlayNode
		x.ov.slots = sx.slots[:0]
	} else {
		x = &overlayNode{}
		x.ov.slots = make([]ovSlot, 0, room)
	}
	x.ov.base = base
	x.n.ov, x.n.owner = &x.ov, owner
	noteAlloc(int(unsafe.Sizeof(*x)) + cap(x.ov.slots)*ovSlotSize)
	return &x.n
}

// ovSlotSize is what an overlay's slot costs, for the state budget.
const ovSlotSize = int(unsafe.Sizeof(ovSlot{}))

// find is the position of slot i in the overlay and whether it is there.
func (ov *overlay) find(i int32) (int, bool) {
	return slices.BinarySearchFunc(ov.slots, i, func(s ovSlot, i int32) int { return cmp.Compare(s.i, i) })
}

// overlayCreates turns overlays on; tests turn them off to compare.
var overlayCreates = true

// canOverlay reports whether a create from base may write an overlay:
// a node with slots past DenseSlots is copied as before.
func canOverlay(base *Node) bool {
	return overlayCreates && base != nil && base.ov == nil && len(base.far) == 0
}

// ovSlot is slot for an overlay node.
func (n *Node) ovSlot(i int32) *decoder.Value {
	ov := n.ov
	if i >= DenseSlots {
		n.materialize()
		return n.slot(i)
	}
	// A new slot starts as the baseline's value, as it would in a copy:
	// a recorded decode keeps it as the field's previous value.
	k := len(ov.slots)
	switch {
	case k == 0 || ov.slots[k-1].i < i: // paths come in increasing order
		ov.slots = append(ov.slots, ovSlot{i, ov.base.Get(int(i))})
		return &ov.slots[k].v
	case ov.slots[k-1].i == i:
		return &ov.slots[k-1].v
	}
	p, found := ov.find(i) // crafted data
	if !found {
		ov.slots = slices.Insert(ov.slots, p, ovSlot{i, ov.base.Get(int(i))})
	}
	return &ov.slots[p].v
}

// ovKid is kid for an overlay node.
func (n *Node) ovKid(i int32, size int, owner uint32, sp *spares) *Node {
	if i >= DenseSlots {
		n.materialize()
		return n.kid(i, size, owner, sp)
	}
	at := n.kids.ref(i)
	if *at == nil {
		// Nodes below stay whole copies: small (arrays of a few elements,
		// nested classes of a few fields), as overlays they cost more
		// allocations than the bytes they save.
		if b := n.ov.base.Kid(int(i)); b != nil {
			*at = b.cowCopyIn(owner, sp)
		} else {
			*at = sp.alloc(0, min(size, DenseSlots), owner)
			noteAlloc(cap((*at).vals) * valueSize)
		}
	}
	return *at
}

// ovGet is Get for an overlay node.
func (n *Node) ovGet(i int) decoder.Value {
	if i < DenseSlots {
		if p, found := n.ov.find(int32(i)); found {
			return n.ov.slots[p].v
		}
	}
	return n.ov.base.Get(i)
}

// ovKidAt is Kid for an overlay node.
func (n *Node) ovKidAt(i int) *Node {
	if k := n.kids.get(int32(i)); k != nil {
		return k
	}
	return n.ov.base.Kid(i)
}

// whole returns the values and kids of the node a copy would have made:
// for an overlay, new lists merging it with its base (the kid list the
// caller's own); otherwise the node's own.
func (n *Node) whole() ([]decoder.Value, kidList) { return n.wholeIn(nil) }

// wholeIn is whole with the values in a node sp keeps when it has one of
// their room.
func (n *Node) wholeIn(sp *spares) ([]decoder.Value, kidList) {
	ov := n.ov
	if ov == nil {
		return n.vals, n.kids
	}
	b := ov.base
	l := len(b.vals)
	if k := len(ov.slots); k > 0 {
		l = max(l, int(ov.slots[k-1].i)+1)
	}
	// The room the baseline's values have, as a copy's, so the node's
	// values stop moving as soon (update memos pin them then).
	var vals []decoder.Value
	if w := sp.takeWide(max(l, cap(b.vals)), 0); w != nil {
		vals = w.vals[:l] // zeroed; the node w is dropped
	} else {
		vals = make([]decoder.Value, l, max(l, cap(b.vals)))
	}
	copy(vals, b.vals)
	for _, s := range ov.slots {
		vals[s.i] = s.v
	}
	kids := b.kids.copied()
	n.kids.each(func(_, i int, k *Node) { *kids.ref(int32(i)) = k })
	return vals, kids
}

// materialize makes an overlay node, in place, the node a copy of its
// base would have been with the overlay's writes made: nodes and memos
// that point to it stay right.
func (n *Node) materialize() { n.materializeIn(nil) }

// materializeIn is materialize with the values in a node sp keeps when it
// has one.
func (n *Node) materializeIn(sp *spares) {
	if n.ov == nil {
		return
	}
	vals, kids := n.wholeIn(sp)
	noteAlloc(cap(vals)*valueSize + len(kids.nodes)*8)
	n.vals, n.kids, n.ov = vals, kids, nil
}

// bytes is what an overlay's slots cost.
func (ov *overlay) bytes() int {
	if ov == nil {
		return 0
	}
	return cap(ov.slots) * ovSlotSize
}

// ovEachVal is EachVal for an overlay node (its base has no far slots).
func (n *Node) ovEachVal(fn func(i int, v decoder.Value)) {
	ov, b := n.ov, n.ov.base.vals
	l := len(b)
	if k := len(ov.slots); k > 0 {
		l = max(l, int(ov.slots[k-1].i)+1)
	}
	p := 0
	for i := range l {
		var v decoder.Value
		if p < len(ov.slots) && int(ov.slots[p].i) == i {
			v = ov.slots[p].v
			p++
		} else if i < len(b) {
			v = b[i]
		}
		if v.Kind != decoder.KindNone {
			fn(i, v)
		}
	}
}

// ovEachKid is EachKid for an overlay node: its own kids and its base's.
func (n *Node) ovEachKid(fn func(i int, k *Node)) {
	for w := range n.kids.has {
		m := n.kids.has[w] | n.ov.base.kids.has[w]
		for m != 0 {
			i := w*64 + bits.TrailingZeros64(m)
			m &= m - 1
			if k := n.ovKidAt(i); k != nil {
				fn(i, k)
			}
		}
	}
}

// topPaths counts the paths that write a top-level slot.
func topPaths(paths []fieldpath.Path) int {
	n := 0
	for i := range paths {
		if paths[i].Last == 0 {
			n++
		}
	}
	return n
}
