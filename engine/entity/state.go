// Package entity keeps the live entities of a replay and applies
// packet-entities messages to them: create, update, leave and delete, with
// field state stored as a tree that mirrors the serializer tree.
package entity

import (
	"fmt"
	"strconv"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/schema"
)

// MaxArrayLen bounds a variable array's index; Valve's longest networked
// vectors hold a few thousand elements.
const MaxArrayLen = 1 << 14

// Node holds the values at one level of a field path. Kids[i] holds the
// level below field i (array elements, nested serializer fields).
//
// Nodes are copied on write: a new entity shares its class baseline's nodes
// and copies only the nodes its updates write to, so creating an entity
// costs one copy of the top level instead of the whole baseline tree. A node
// may be written only by the owner that copied it (owner 0 is the baseline).
type Node struct {
	Vals  []decoder.Value
	Kids  []*Node
	owner uint32
}

// cowCopy is a writable copy of n for owner: values copied, children shared
// until written.
func (n *Node) cowCopy(owner uint32) *Node {
	c := &Node{Vals: make([]decoder.Value, len(n.Vals), max(len(n.Vals), cap(n.Vals))), owner: owner}
	copy(c.Vals, n.Vals)
	if len(n.Kids) > 0 {
		c.Kids = append([]*Node(nil), n.Kids...)
	}
	return c
}

// slot returns the value at i for writing, growing Vals as needed.
func (n *Node) slot(i int32) *decoder.Value {
	if int(i) >= len(n.Vals) {
		n.Vals = growVals(n.Vals, int(i)+1)
	}
	return &n.Vals[i]
}

// Get returns the value at slot i (KindNone when unset).
func (n *Node) Get(i int) decoder.Value {
	if n == nil || i >= len(n.Vals) {
		return decoder.Value{}
	}
	return n.Vals[i]
}

// Kid returns the node below slot i, or nil.
func (n *Node) Kid(i int) *Node {
	if n == nil || i >= len(n.Kids) {
		return nil
	}
	return n.Kids[i]
}

func growVals(v []decoder.Value, n int) []decoder.Value {
	if n <= cap(v) {
		return v[:n]
	}
	nv := make([]decoder.Value, n, max(n, 2*cap(v)))
	copy(nv, v)
	return nv
}

// kid returns a node below slot i that owner may write, creating it or
// copying a shared one.
func (n *Node) kid(i int32, size int, owner uint32) *Node {
	if int(i) >= len(n.Kids) {
		if int(i) < cap(n.Kids) {
			n.Kids = n.Kids[:i+1]
		} else {
			nk := make([]*Node, i+1, max(int(i)+1, 2*cap(n.Kids)))
			copy(nk, n.Kids)
			n.Kids = nk
		}
	}
	k := n.Kids[i]
	if k == nil {
		k = &Node{Vals: make([]decoder.Value, 0, size), owner: owner}
		n.Kids[i] = k
	} else if k.owner != owner {
		k = k.cowCopy(owner)
		n.Kids[i] = k
	}
	return k
}

// Clone deep-copies the node.
func (n *Node) Clone() *Node {
	if n == nil {
		return nil
	}
	c := &Node{Vals: append([]decoder.Value(nil), n.Vals...), owner: n.owner}
	if len(n.Kids) > 0 {
		c.Kids = make([]*Node, len(n.Kids))
		for i, k := range n.Kids {
			c.Kids[i] = k.Clone()
		}
	}
	return c
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

// resolve walks serializer and state together along p.
// node must be writable by owner. With strict (what-if decodes) an element
// at or past its variable array's length is refused: Valve sends a longer
// length before the new elements, so such a path was read from the wrong
// bits.
func resolve(ser *schema.Serializer, node *Node, p *fieldpath.Path, owner uint32, strict bool) (target, error) {
	for i := 0; ; i++ {
		hot := ser.Hot()
		idx := p.Idx[i]
		if int(idx) >= len(hot) {
			return target{}, &PathError{*p, fmt.Sprintf("index %d at depth %d is outside %s (%d fields)", idx, i, ser.Name, len(ser.Fields)), nil}
		}
		h := &hot[idx]
		switch h.Model {
		case schema.Simple:
			if i != p.Last {
				return target{}, &PathError{*p, fmt.Sprintf("continues below simple field %s", ser.Fields[idx].Name), ser.Fields[idx]}
			}
			return target{dec: h.Dec, node: node, slot: idx, bound: int32(len(hot))}, nil
		case schema.FixedArray:
			if i+1 != p.Last {
				return target{}, &PathError{*p, fmt.Sprintf("fixed array %s needs exactly one element index", ser.Fields[idx].Name), ser.Fields[idx]}
			}
			k := p.Idx[i+1]
			if k >= h.Count {
				return target{}, &PathError{*p, fmt.Sprintf("element %d of %s[%d]", k, ser.Fields[idx].Name, h.Count), ser.Fields[idx]}
			}
			return target{dec: h.Dec, node: node.kid(idx, int(h.Count), owner), slot: k, bound: h.Count}, nil
		case schema.FixedTable:
			if i == p.Last {
				return target{dec: h.Dec, node: node, slot: idx, bound: int32(len(hot))}, nil
			}
			next := h.Sub
			if h.Poly {
				poly := ser.Fields[idx].Polymorphic
				if pi := node.Get(int(idx)).Int64(); pi > 0 && pi < int64(len(poly)) {
					next = poly[pi]
				}
			}
			ser, node = next, node.kid(idx, len(next.Fields), owner)
		case schema.VariableArray:
			if i == p.Last {
				return target{dec: h.Dec, node: node, slot: idx, bound: int32(len(hot))}, nil
			}
			if i+1 != p.Last {
				return target{}, &PathError{*p, fmt.Sprintf("variable array %s needs exactly one element index", ser.Fields[idx].Name), ser.Fields[idx]}
			}
			k := p.Idx[i+1]
			if k >= MaxArrayLen {
				return target{}, &PathError{*p, fmt.Sprintf("element %d of %s exceeds %d", k, ser.Fields[idx].Name, MaxArrayLen), ser.Fields[idx]}
			}
			if strict {
				if err := pastLength(node, idx, k, p); err != nil {
					return target{}, err
				}
			}
			return target{dec: h.Elem, node: node.kid(idx, 8, owner), slot: k, bound: MaxArrayLen}, nil
		case schema.VariableTable:
			if i == p.Last {
				return target{dec: h.Dec, node: node, slot: idx, bound: int32(len(hot))}, nil
			}
			k := p.Idx[i+1]
			if k >= MaxArrayLen {
				return target{}, &PathError{*p, fmt.Sprintf("element %d of %s exceeds %d", k, ser.Fields[idx].Name, MaxArrayLen), ser.Fields[idx]}
			}
			if i+1 == p.Last {
				return target{}, &PathError{*p, fmt.Sprintf("ends at an element of %s without naming its field", ser.Fields[idx].Name), ser.Fields[idx]}
			}
			if strict {
				if err := pastLength(node, idx, k, p); err != nil {
					return target{}, err
				}
			}
			ser, node = h.Sub, node.kid(idx, 4, owner).kid(k, len(h.Sub.Fields), owner)
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
	for i := 0; i <= p.Last; i++ {
		idx := p.Idx[i]
		if ser == nil || int(idx) >= len(ser.Fields) {
			return string(b) + "?", nil, ""
		}
		f = ser.Fields[idx]
		if len(b) > 0 {
			b = append(b, '.')
		}
		b = append(b, f.Name...)
		why = f.Why
		switch f.Model {
		case schema.Simple:
			return string(b), f, why
		case schema.FixedArray, schema.VariableArray:
			if i < p.Last {
				b = appendIndex(b, p.Idx[i+1])
				if f.Model == schema.VariableArray {
					why = f.ElemWhy
				}
			}
			return string(b), f, why
		case schema.FixedTable:
			next := f.Serializer
			if len(f.Polymorphic) > 0 {
				if pi := node.Get(int(idx)).Int64(); pi > 0 && pi < int64(len(f.Polymorphic)) {
					next = f.Polymorphic[pi]
				}
			}
			ser, node = next, node.Kid(int(idx))
		case schema.VariableTable:
			if i < p.Last {
				i++
				b = appendIndex(b, p.Idx[i])
				node = node.Kid(int(idx)).Kid(int(p.Idx[i]))
			}
			ser = f.Serializer
		}
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
