package entity

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/schema"
)

// MaxArrayLen bounds a variable array's index; Valve's longest networked
// vectors hold a few thousand elements.
const MaxArrayLen = 1 << 14

// DenseSlots is how many slots of a node are stored in place, by index:
// every real serializer (at most some 220 fields) and nearly every real
// array fits. A slot past it is kept on its own (Node.far), so a crafted
// class of 65,536 fields or an array element at index 16,383 costs one
// value, not a full-width copy at every create.
const DenseSlots = 256

// Node holds the values at one level of a field path, and below slot i the
// level under field i (array elements, nested serializer fields). Slots
// below DenseSlots are kept by index in vals, and packed in kids; the rest,
// sparse, in far.
//
// Nodes are copied on write: a new entity shares its class baseline's nodes
// and copies only the nodes its updates write to, so creating an entity
// costs one copy of the top level instead of the whole baseline tree (a
// full frame's create not even that: overlay.go). A node may be written
// only by the owner that copied it (owner 0 is the baseline).
type Node struct {
	vals  []decoder.Value
	kids  kidList  // the nodes below dense slots (kids.go)
	far   farList  // slots at or past DenseSlots (kids.go)
	ov    *overlay // a full frame's create's writes over its baseline (overlay.go)
	owner uint32
	blk   uint8 // the block its values came in (alloc.go), for spares
}

// farSlot is a slot at or past DenseSlots: its value (whose address stays
// put while its node lives) and the node below it.
type farSlot struct {
	i   int32
	v   decoder.Value
	kid *Node
}

// newNode returns an empty node for owner with room for size slots in
// place.
func newNode(size int, owner uint32) *Node {
	return allocNode(0, min(size, DenseSlots), owner)
}

// cowCopy is a writable copy of n for owner: values copied, children shared
// until written.
func (n *Node) cowCopy(owner uint32) *Node { return n.cowCopyIn(owner, nil) }

// cowCopyIn is cowCopy in a node sp keeps when it has one (nil: a new one).
func (n *Node) cowCopyIn(owner uint32, sp *spares) *Node {
	if n.ov != nil {
		// The overlay made whole in a new node: whole reads n's lists and
		// makes new ones.
		c := &Node{kids: n.kids, ov: n.ov, owner: owner}
		c.materialize()
		return c
	}
	l, room := len(n.vals), max(len(n.vals), cap(n.vals))
	var c *Node
	if room > 32 && room == l {
		// make then copy from a local, as written here, allocates without
		// zeroing what the copy overwrites (the compiler's makeslicecopy):
		// a create's top-level node is most of the start-up's bytes. Only
		// for a full node: makeslicecopy clears the spare room itself,
		// touching pages a fresh span would have left untouched (a crafted
		// node with room for 60,000 values and a few set).
		if c = sp.takeWide(room, owner); c != nil {
			c.vals = c.vals[:l]
			copy(c.vals, n.vals)
		} else {
			src := n.vals
			vals := make([]decoder.Value, l)
			copy(vals, src)
			c = &Node{vals: vals, owner: owner}
		}
	} else {
		c = sp.alloc(l, room, owner)
		copy(c.vals, n.vals)
	}
	c.kids = n.kids.copiedInto(c.kids.nodes)
	c.far = n.far.copied()
	noteAlloc(len(c.vals)*valueSize + len(c.kids.nodes)*8 + len(c.far)*farSize)
	return c
}

// valueSize and farSize are what a value in place and a far slot cost,
// for the state budget (budget.go).
const (
	valueSize = 48
	farSize   = 96
)

// farAt returns the far slot i for writing, creating it.
func (n *Node) farAt(i int32) *farSlot {
	p, ok := n.far.find(i)
	if !ok {
		n.far = slices.Insert(n.far, p, &farSlot{i: i})
		noteAlloc(farSize)
	}
	return n.far[p]
}

// slot returns the value at i for writing, growing vals as needed.
func (n *Node) slot(i int32) *decoder.Value { return n.slotIn(i, nil) }

// slotIn is slot with grown values in a node sp keeps when it has one.
func (n *Node) slotIn(i int32, sp *spares) *decoder.Value {
	if n.ov != nil {
		return n.ovSlot(i)
	}
	if i >= DenseSlots {
		return &n.farAt(i).v
	}
	if int(i) >= len(n.vals) {
		if int(i) < cap(n.vals) {
			// A self-slice writes no pointer: no write barrier while the
			// collector marks (a signon's baselines and creates extend
			// their nodes thousands of times).
			n.vals = n.vals[:i+1]
		} else {
			n.vals = growVals(n.vals, int(i)+1, sp)
		}
	}
	return &n.vals[i]
}

// Get returns the value at slot i (KindNone when unset).
func (n *Node) Get(i int) decoder.Value {
	if n == nil {
		return decoder.Value{}
	}
	if n.ov != nil {
		return n.ovGet(i)
	}
	if i >= len(n.vals) {
		if i >= DenseSlots {
			if f := n.far.get(int32(i)); f != nil {
				return f.v
			}
		}
		return decoder.Value{}
	}
	return n.vals[i]
}

// Kid returns the node below slot i, or nil.
func (n *Node) Kid(i int) *Node {
	if n == nil {
		return nil
	}
	if n.ov != nil {
		return n.ovKidAt(i)
	}
	if i >= DenseSlots {
		if f := n.far.get(int32(i)); f != nil {
			return f.kid
		}
		return nil
	}
	return n.kids.get(int32(i))
}

// EachVal calls fn with every slot that holds a value, in index order.
func (n *Node) EachVal(fn func(i int, v decoder.Value)) {
	if n == nil {
		return
	}
	if n.ov != nil {
		n.ovEachVal(fn)
		return
	}
	for i, v := range n.vals {
		if v.Kind != decoder.KindNone {
			fn(i, v)
		}
	}
	for _, f := range n.far {
		if f.v.Kind != decoder.KindNone {
			fn(int(f.i), f.v)
		}
	}
}

// EachKid calls fn with every node below a slot, in index order.
func (n *Node) EachKid(fn func(i int, k *Node)) {
	if n == nil {
		return
	}
	if n.ov != nil {
		n.ovEachKid(fn)
		return
	}
	n.kids.each(func(_, i int, k *Node) { fn(i, k) })
	for _, f := range n.far {
		if f.kid != nil {
			fn(int(f.i), f.kid)
		}
	}
}

// KidLen is one more than the highest slot with a node below it.
func (n *Node) KidLen() int {
	l := 0
	n.EachKid(func(i int, _ *Node) { l = i + 1 })
	return l
}

// growVals returns v with length n, moved when it lacks the room to
// a block of twice its room (at most DenseSlots): one sp keeps when it has
// one, as a released decode does; a new block of 12 KiB costs its pages'
// first touch (a CS2 pawn's animation graph grows arrays to 256 at
// every create).
func growVals(v []decoder.Value, n int, sp *spares) []decoder.Value {
	if n <= cap(v) {
		return v[:n]
	}
	c := min(max(n, 2*cap(v)), DenseSlots)
	var nv []decoder.Value
	if w := sp.takeWide(c, 0); w != nil {
		nv = w.vals[:n] // zeroed; the node w is dropped
	} else {
		nv = make([]decoder.Value, n, c)
	}
	copy(nv, v)
	noteAlloc(cap(nv) * valueSize)
	return nv
}

// kid returns a node below slot i that owner may write, creating it or
// copying a shared one.
func (n *Node) kid(i int32, size int, owner uint32, sp *spares) *Node {
	if n.ov != nil {
		return n.ovKid(i, size, owner, sp)
	}
	var at **Node
	if i >= DenseSlots {
		at = &n.farAt(i).kid
	} else {
		at = n.kids.ref(i)
	}
	k := *at
	if k == nil {
		k = sp.alloc(0, min(size, DenseSlots), owner)
		noteAlloc(cap(k.vals) * valueSize)
		*at = k
	} else if k.owner != owner {
		k = k.cowCopyIn(owner, sp)
		*at = k
	}
	return k
}

// Clone deep-copies the node.
func (n *Node) Clone() *Node {
	if n == nil {
		return nil
	}
	vals, kids := n.whole()
	c := &Node{vals: append([]decoder.Value(nil), vals...), owner: n.owner}
	if len(kids.nodes) > 0 {
		c.kids = kidList{has: kids.has, nodes: make([]*Node, len(kids.nodes))}
		for p, k := range kids.nodes {
			c.kids.nodes[p] = k.Clone()
		}
	}
	if len(n.far) > 0 {
		c.far = n.far.copied()
		for _, f := range c.far {
			f.kid = f.kid.Clone()
		}
	}
	return c
}

// Edit returns a copy of n with the values at the given paths set,
// copying only the nodes on those paths (the rest is shared with n).
func (n *Node) Edit(edits func(set func(path []int32, v decoder.Value))) *Node {
	owner := newOwner()
	root := n.cowCopy(owner)
	edits(func(path []int32, v decoder.Value) {
		if len(path) == 0 {
			return
		}
		at := root
		for _, i := range path[:len(path)-1] {
			if i < 0 || at.Kid(int(i)) == nil {
				return // nothing below: the path was never written
			}
			at = at.kid(i, 0, owner, nil)
		}
		if i := path[len(path)-1]; i >= 0 {
			*at.slot(i) = v
		}
	})
	return root
}

// target is where one field path's value goes.
type target struct {
	dec  *decoder.Decoder
	node *Node
	slot int32
	// bound is one more than the largest slot the schema lets any path
	// write in node (MaxArrayLen for a variable array's elements): a node
	// whose Vals have that capacity never moves them.
	bound int32
	dst   *decoder.Value // &node.Vals[slot], kept only by update memos
}

// value is where the target's value goes.
func (tg *target) value() *decoder.Value {
	if tg.dst != nil {
		return tg.dst
	}
	return tg.node.slot(tg.slot)
}

// PathError says a field path does not fit the serializer.
type PathError struct {
	Path fieldpath.Path
	Msg  string
	// Field is the field the path does not fit, where it reached one:
	// its model (from its type) is what the path disagrees with.
	Field *schema.Field
}

func (e *PathError) Error() string { return fmt.Sprintf("field path %s: %s", e.Path, e.Msg) }

// resolve walks serializer and state together along p, into *tg (written
// in place: a returned target is copied through the stack, a stall per field).
// node must be writable by owner; new nodes come from sp. With strict (what-if decodes) an element
// at or past its variable array's length is refused: Valve sends a longer
// length before the new elements, so such a path was read from the wrong
// bits.
func resolve(tg *target, ser *schema.Serializer, node *Node, p *fieldpath.Path, owner uint32, sp *spares, strict bool) error {
	for i := 0; ; i++ {
		hot := ser.Hot()
		idx := p.Idx[i]
		if int(idx) >= len(hot) {
			return &PathError{*p, fmt.Sprintf("index %d at depth %d is outside %s (%d fields)", idx, i, ser.Name, len(ser.Fields)), nil}
		}
		h := &hot[idx]
		if i == p.Last && h.Model != schema.FixedArray {
			// The field itself: a simple one, or a table's or variable
			// array's own value (a pointer's presence, an array's length).
			*tg = target{dec: h.Dec, node: node, slot: idx, bound: int32(min(len(hot), DenseSlots))}
			return nil
		}
		switch h.Model {
		case schema.Simple:
			return &PathError{*p, fmt.Sprintf("continues below simple field %s", ser.Fields[idx].Name), ser.Fields[idx]}
		case schema.FixedArray:
			if i+1 != p.Last {
				return &PathError{*p, fmt.Sprintf("fixed array %s needs exactly one element index", ser.Fields[idx].Name), ser.Fields[idx]}
			}
			k := p.Idx[i+1]
			if k >= h.Count {
				return &PathError{*p, fmt.Sprintf("element %d of %s[%d]", k, ser.Fields[idx].Name, h.Count), ser.Fields[idx]}
			}
			*tg = target{dec: h.Dec, node: node.kid(idx, int(h.Count), owner, sp), slot: k, bound: min(h.Count, DenseSlots)}
			return nil
		case schema.FixedTable:
			next := h.Sub
			if h.Poly {
				next = ser.Fields[idx].Nested(node.Get(int(idx)))
			}
			ser, node = next, node.kid(idx, len(next.Fields), owner, sp)
		case schema.VariableArray:
			if i+1 != p.Last {
				return &PathError{*p, fmt.Sprintf("variable array %s needs exactly one element index", ser.Fields[idx].Name), ser.Fields[idx]}
			}
			k := p.Idx[i+1]
			if k >= MaxArrayLen {
				return &PathError{*p, fmt.Sprintf("element %d of %s exceeds %d", k, ser.Fields[idx].Name, MaxArrayLen), ser.Fields[idx]}
			}
			if strict {
				if err := pastLength(node, idx, k, p); err != nil {
					return err
				}
			}
			size := 8 // room for a short array's elements in place
			if k >= DenseSlots {
				size = 0 // an element kept on its own: no room needed
			}
			*tg = target{dec: h.Elem, node: node.kid(idx, size, owner, sp), slot: k, bound: min(MaxArrayLen, DenseSlots)}
			return nil
		case schema.VariableTable:
			k := p.Idx[i+1]
			if k >= MaxArrayLen {
				return &PathError{*p, fmt.Sprintf("element %d of %s exceeds %d", k, ser.Fields[idx].Name, MaxArrayLen), ser.Fields[idx]}
			}
			if i+1 == p.Last {
				return &PathError{*p, fmt.Sprintf("ends at an element of %s without naming its field", ser.Fields[idx].Name), ser.Fields[idx]}
			}
			if strict {
				if err := pastLength(node, idx, k, p); err != nil {
					return err
				}
			}
			// The elements' node holds only nodes below it, no values.
			ser, node = h.Sub, node.kid(idx, 0, owner, sp).kid(k, len(h.Sub.Fields), owner, sp)
			i++
		}
	}
}

// FieldName spells the path Manta-style: CBodyComponent.m_cellX,
// m_iCaptainPlayerIDs.0001, m_vecX.0003.m_y. It also returns the schema
// field and why its decoder was chosen. state may be nil (polymorphic
// pointers then use their base serializer).
func FieldName(ser *schema.Serializer, state *Node, p *fieldpath.Path) (name string, f *schema.Field, why string) {
	b := make([]byte, 0, 48)
	node := state
	for i := 0; i <= p.Last; {
		idx := int(p.Idx[i])
		// A path that does not fit is named as far as it goes.
		s, _ := schema.StepAt(ser, p, i, func() decoder.Value { return node.Get(idx) })
		if s.Field == nil {
			return string(b) + "?", nil, ""
		}
		f, why = s.Field, s.Why
		if len(b) > 0 {
			b = append(b, '.')
		}
		b = append(b, f.Name...)
		if s.Elem {
			b = appendIndex(b, p.Idx[i+1])
		}
		if s.Ser == nil {
			break
		}
		node = node.Kid(idx)
		if s.Elem {
			node = node.Kid(int(p.Idx[i+1]))
		}
		ser, i = s.Ser, s.Next
	}
	return string(b), f, why
}

func appendIndex(b []byte, k int32) []byte {
	b = append(b, '.')
	s := strconv.Itoa(int(k))
	for i := len(s); i < 4; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// pastLength refuses element k of the variable array or table at slot idx
// of node when its length, in node, is k or less.
func pastLength(node *Node, idx, k int32, p *fieldpath.Path) error {
	if n := node.Get(int(idx)); n.Kind == decoder.KindUint && uint64(k) >= n.U {
		return &PathError{*p, fmt.Sprintf("element %d past the array's length %d", k, n.U), nil}
	}
	return nil
}
