package entity

import (
	"bytes"
	"fmt"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/schema"
)

// owners hands out copy-on-write tokens; global so that tables made from one
// another never share a token.
var owners atomic.Uint32

func newOwner() uint32 { return owners.Add(1) }

// Snapshot returns an independent copy of the table in time proportional to
// the number of entities: state nodes are shared and both tables copy a node
// before writing to it. A what-if (package diagnose) decodes a message
// again from a snapshot taken just before it; a fork of a replay starts
// from one.
func (t *Table) Snapshot() *Table { return t.copyTable(true) }

// Copy returns a writable copy of a table that is never written again (a
// keyframe): unlike Snapshot it changes nothing in t, so several copies of
// one table may be taken at once, from several goroutines.
func (t *Table) Copy() *Table { return t.copyTable(false) }

func (t *Table) copyTable(retoken bool) *Table {
	t.shared.Store(true)
	c := &Table{
		Classes:     t.Classes,
		ClassIDBits: t.ClassIDBits,
		maxClasses:  t.maxClasses,
		Stats:       t.Stats,
		Game:        t.Game,
		Strings:     t.Strings,
		baselines:   make(map[int32][]byte, len(t.baselines)),
		baseState:   make(map[int32]*Node, len(t.baseState)),
		fullFrames:  t.fullFrames,
	}
	c.shared.Store(true)
	for k, v := range t.baselines {
		c.baselines[k] = v // never mutated: SetBaseline replaces
	}
	for k, v := range t.baseState {
		c.baseState[k] = v // owner 0: read-only
	}
	for i, e := range t.Entities {
		if e == nil {
			continue
		}
		if retoken {
			// New tokens on both sides: every node either table owns
			// now becomes shared, so neither writes into the other's
			// state.
			e.owner = newOwner()
			e.forgetHot() // their slots are shared now; memo sets check the owner
		}
		ce := *e
		ce.owner = newOwner()
		ce.forgetHot()
		ce.memos = nil // their targets are the other table's nodes
		c.Entities[i] = &ce
	}
	return c
}

// Freeze returns a read-only copy of the table for a keyframe and leaves t
// as it is: t's decode goes on copying nothing on write and keeping its
// update memos (a Snapshot would make every entity copy its top-level node
// at its next write, and forget its memos). Each state node is copied at
// its length, owned by no one (Copy of the frozen table copies before
// writing), unless prev, a table an earlier Freeze returned or nil, holds
// a node with the same values and children at the same place of the same
// entity: that one is shared. Between two keyframes of a game most nodes
// below an entity's top level do not change, and a class baseline's
// nodes never do.
func (t *Table) Freeze(prev *Table) *Table {
	c := t.copyTable(false)
	for i, e := range c.Entities {
		if e == nil {
			continue
		}
		var old *Node
		if prev != nil {
			if pe := prev.Entities[i]; sameEntity(pe, e) {
				old = pe.State
			}
		}
		e.State = freeze(e.State, old)
	}
	return c
}

// sameEntity reports whether two entities, of one decode or of two decodes
// of a file (a keyframe filled in by a later pass), are the same entity:
// the same serial of the same class (by id and name: each decode has its
// own classes).
func sameEntity(a, b *Entity) bool {
	if a == nil || b == nil || a.Serial != b.Serial {
		return false
	}
	if a.Class == b.Class {
		return true
	}
	return a.Class != nil && b.Class != nil && a.Class.ID == b.Class.ID && a.Class.Name == b.Class.Name
}

// freeze copies n for a frozen table, sharing what old (n's counterpart in
// an earlier frozen table) has alike.
func freeze(n, old *Node) *Node {
	if n == nil {
		return nil
	}
	if n.owner == 0 {
		return n // a class baseline's node: read-only already
	}
	vals, nkids := n.whole()
	var kids kidList
	same := old != nil && len(old.vals) == len(vals) && old.kids.has == nkids.has && len(old.far) == len(n.far)
	if len(nkids.nodes) > 0 {
		kids = kidList{has: nkids.has, nodes: make([]*Node, len(nkids.nodes))}
		nkids.each(func(p, i int, k *Node) {
			o := old.Kid(i)
			kids.nodes[p] = freeze(k, o)
			same = same && kids.nodes[p] == o
		})
	}
	var far farList
	if len(n.far) > 0 {
		far = n.far.copied()
		for p, f := range far {
			f.kid = freeze(f.kid, old.Kid(int(f.i)))
			if same {
				of := old.far[p]
				same = of.i == f.i && of.kid == f.kid && of.v.Equal(f.v)
			}
		}
	}
	if same && sameVals(vals, old.vals) {
		return old
	}
	if n.ov == nil {
		vals = append([]decoder.Value(nil), vals...)
	} // else whole made them
	return &Node{vals: vals, kids: kids, far: far}
}

// Reshare returns t, a table Freeze returned, with the nodes that equal
// their counterparts in prev, another frozen table of the same decode taken
// after it was and before t, taken from prev: a keyframe filled in later
// between two (replay.Keyframes.Fill) so lets the one after it share what
// did not change since, as if they had been taken in order. Neither t nor
// prev changes.
func (t *Table) Reshare(prev *Table) *Table {
	c := t.copyTable(false)
	for i, e := range c.Entities {
		if e == nil {
			continue
		}
		if pe := prev.Entities[i]; sameEntity(pe, e) {
			e.State = reshare(e.State, pe.State)
		}
	}
	return c
}

// reshare is n, a frozen node, or old where the two are alike; nodes are
// made anew only above a kid that changed.
func reshare(n, old *Node) *Node {
	if n == nil || old == nil || n == old || n.owner != 0 || old.owner != 0 {
		return n
	}
	kids, far, changed := n.kids, n.far, false
	n.kids.each(func(p, i int, k *Node) {
		if nk := reshare(k, old.Kid(i)); nk != k {
			if !changed {
				kids, changed = n.kids.copied(), true
			}
			kids.nodes[p] = nk
		}
	})
	farChanged := false
	for p, f := range n.far {
		if nk := reshare(f.kid, old.Kid(int(f.i))); nk != f.kid {
			if !farChanged {
				far, farChanged = slices.Clone(n.far), true
			}
			far[p] = &farSlot{i: f.i, v: f.v, kid: nk}
		}
	}
	same := len(old.vals) == len(n.vals) && old.kids.has == kids.has && len(old.far) == len(far) && sameVals(n.vals, old.vals)
	for p := 0; same && p < len(kids.nodes); p++ {
		same = kids.nodes[p] == old.kids.nodes[p]
	}
	for i, f := range far {
		if !same {
			break
		}
		of := old.far[i]
		same = of.i == f.i && of.kid == f.kid && of.v.Equal(f.v)
	}
	switch {
	case same:
		return old
	case changed || farChanged:
		return &Node{vals: n.vals, kids: kids, far: far} // frozen values are never written: shared
	}
	return n
}

// sameVals reports whether two value lists of a length are bit for bit the
// same (decoder.Value.Equal for each), by comparing their memory at once:
// a keyframe compares every entity's values with the keyframe before's.
// Values hold no pointers, and their padding is never written, so equal
// memory is equal values; unequal padding alone would only make a keyframe
// copy a node it could have shared.
func sameVals(a, b []decoder.Value) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return true
	}
	n := len(a) * int(unsafe.Sizeof(a[0]))
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), n), unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), n))
}

// Own copies now every state node the table shares with another (a
// snapshot it was made from, a class baseline) instead of on first write.
// Benchmarks use it to measure the steady state of a long decode, where
// every entity has long since written its own nodes.
func (t *Table) Own() {
	for _, e := range t.Entities {
		if e != nil {
			e.State = e.State.own(e.owner)
		}
	}
}

// own returns n, or a copy of it, owned by owner, with every node below
// owned too.
func (n *Node) own(owner uint32) *Node {
	if n.owner != owner {
		n = n.cowCopy(owner)
	} else {
		n.materialize()
	}
	for p, k := range n.kids.nodes {
		if k != nil {
			n.kids.nodes[p] = k.own(owner)
		}
	}
	for _, f := range n.far {
		if f.kid != nil {
			f.kid = f.kid.own(owner)
		}
	}
	return n
}

// Rebind links the table's classes and entities to another schema with the
// same structure (the same serializers, field for field, with perhaps other
// decoders: the schema under other aliases), and forgets the baselines it
// decoded with serializers that changed, so that what is decoded next
// uses the new decoders. It fails when the serializer of a class with a
// live entity differs in shape, as state laid out for one would not fit
// the other.
func (t *Table) Rebind(s *schema.Schema) error {
	live := make(map[int32]bool)
	for _, e := range t.Entities {
		if e != nil && e.Class != nil {
			live[e.Class.ID] = true
		}
	}
	classes := make([]*Class, len(t.Classes))
	for i, c := range t.Classes {
		if c == nil {
			continue
		}
		nc := &Class{ID: c.ID, Name: c.Name, Serializer: s.LazySerializer(c.Name)}
		if live[c.ID] {
			nc.Serializer.Load()
		}
		// Only state that exists must fit: a class with no entity has none
		// (its decoded baseline is dropped below when its serializer changed).
		if live[c.ID] && c.Serializer != nil && nc.Serializer != c.Serializer && !sameShape(c.Serializer, nc.Serializer, 0) {
			return fmt.Errorf("class %s has another shape under the new schema", c.Name)
		}
		classes[i] = nc
	}
	old := t.Classes
	t.Classes = classes
	t.Game = s.Game
	for _, e := range t.Entities {
		if e != nil && e.Class != nil && int(e.Class.ID) < len(classes) {
			e.forgetHot()
			e.memos = nil
			e.Class = classes[e.Class.ID]
		}
	}
	t.names = nil
	for id := range t.baseState {
		if int(id) >= len(classes) || classes[id] == nil || old[id] == nil || classes[id].Serializer != old[id].Serializer {
			delete(t.baseState, id) // decoded with other decoders
		}
	}
	return nil
}

// sameShape reports whether two serializers lay out state alike.
func sameShape(a, b *schema.Serializer, depth int) bool {
	if a == nil || b == nil || len(a.Fields) != len(b.Fields) || depth > 32 {
		return a == b
	}
	for i, fa := range a.Fields {
		fb := b.Fields[i]
		if fa.Model != fb.Model || fa.Type.Count != fb.Type.Count || (fa.Serializer == nil) != (fb.Serializer == nil) {
			return false
		}
		if fa.Serializer != nil && !sameShape(fa.Serializer, fb.Serializer, depth+1) {
			return false
		}
	}
	return true
}

// ShareState returns the state of the entity at index, shared with the
// table in constant time: the entity's next writes copy each node first,
// so the returned state never changes. The debugger keeps one per update
// it shows. Nil when there is no entity there.
func (t *Table) ShareState(index int32) *Node {
	if index < 0 || index >= MaxEntities || t.Entities[index] == nil {
		return nil
	}
	e := t.Entities[index]
	t.shared.Store(true)
	e.owner = newOwner()
	e.forgetHot() // their slots are shared now; memo sets check the owner
	return e.State
}
