package entity

import (
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/schema"
)

// Visit is called for each set value of an entity, in serializer order, with
// its Manta-style name.
type Visit func(name string, f *schema.Field, v decoder.Value)

// Walk visits every value held in state. Variable arrays yield their length
// under the field's own name, then their elements up to that length.
func Walk(ser *schema.Serializer, state *Node, visit Visit) {
	var p fieldpath.Path
	p.Last = -1
	walk(ser, state, nil, &p, false, func(name []byte, _ *fieldpath.Path, f *schema.Field, v decoder.Value) {
		visit(string(name), f, v)
	})
}

// WalkPaths visits what Walk visits, by field path, and also the presence
// value of each pointer walked through: every value a writer must write to
// rebuild the state. p is valid during the call.
func WalkPaths(ser *schema.Serializer, state *Node, visit func(p *fieldpath.Path, f *schema.Field, v decoder.Value)) {
	var p fieldpath.Path
	p.Last = -1
	walk(ser, state, nil, &p, true, func(_ []byte, p *fieldpath.Path, f *schema.Field, v decoder.Value) {
		visit(p, f, v)
	})
}

// walk is Walk's and WalkPaths' traversal: name and p are the prefix and
// path of the level being walked; presence says whether pointers' presence
// values are visited too.
func walk(ser *schema.Serializer, node *Node, prefix []byte, p *fieldpath.Path, presence bool,
	visit func(name []byte, p *fieldpath.Path, f *schema.Field, v decoder.Value)) {
	// A state is as deep as the paths that built it; the guards keep a
	// path in its array whatever the nodes.
	if ser == nil || node == nil || p.Last+1 >= fieldpath.MaxDepth {
		return
	}
	deeper := p.Last+2 < fieldpath.MaxDepth // room for an element index
	p.Last++
	defer func() { p.Idx[p.Last] = 0; p.Last-- }()
	// at visits element k of the field at this level.
	at := func(name []byte, f *schema.Field, k int, v decoder.Value) {
		if !deeper {
			return
		}
		p.Last++
		p.Idx[p.Last] = int32(k)
		visit(appendIndex(name, int32(k)), p, f, v)
		p.Idx[p.Last] = 0
		p.Last--
	}
	for i, f := range ser.Fields {
		p.Idx[p.Last] = int32(i)
		name := append(prefix, f.Name...)
		v := node.Get(i)
		switch f.Model {
		case schema.Simple:
			if v.Kind != decoder.KindNone {
				visit(name, p, f, v)
			}
		case schema.FixedArray:
			node.Kid(i).EachVal(func(k int, ev decoder.Value) { at(name, f, k, ev) })
		case schema.FixedTable:
			kid := node.Kid(i)
			if presence && v.Kind != decoder.KindNone {
				visit(name, p, f, v)
			}
			if kid != nil {
				walk(f.Nested(v), kid, append(name, '.'), p, presence, visit)
			}
		case schema.VariableArray, schema.VariableTable:
			kid := node.Kid(i)
			var n int
			switch {
			case v.Kind != decoder.KindNone:
				visit(name, p, f, v)
				n = int(min(v.U, MaxArrayLen))
			case f.Model == schema.VariableTable && f.Type.Count > 0 && kid != nil:
				// A fixed-count struct array (T[N]): Valve sends no
				// length, only its elements' fields.
				n = min(kid.KidLen(), f.Type.Count)
			}
			for k := 0; k < n && kid != nil && deeper; k++ {
				if f.Model == schema.VariableArray {
					if ev := kid.Get(k); ev.Kind != decoder.KindNone {
						at(name, f, k, ev)
					}
					continue
				}
				p.Last++
				p.Idx[p.Last] = int32(k)
				walk(f.Serializer, kid.Kid(k), append(appendIndex(name, int32(k)), '.'), p, presence, visit)
				p.Idx[p.Last] = 0
				p.Last--
			}
		}
	}
}
