package entity

import (
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/schema"
)

// Visit is called for each set value of an entity, in serializer order, with
// its Manta-style name.
type Visit func(name string, f *schema.Field, v decoder.Value)

// Walk visits every value held in state. Variable arrays yield their length
// under the field's own name, then their elements up to that length.
func Walk(ser *schema.Serializer, state *Node, visit Visit) {
	walk(ser, state, nil, visit)
}

func walk(ser *schema.Serializer, node *Node, prefix []byte, visit Visit) {
	if ser == nil || node == nil {
		return
	}
	for i, f := range ser.Fields {
		name := append(prefix, f.Name...)
		v := node.Get(i)
		switch f.Model {
		case schema.Simple:
			if v.Kind != decoder.KindNone {
				visit(string(name), f, v)
			}
		case schema.FixedArray:
			kid := node.Kid(i)
			if kid == nil {
				continue
			}
			kid.EachVal(func(k int, ev decoder.Value) {
				visit(string(appendIndex(name, int32(k))), f, ev)
			})
		case schema.FixedTable:
			kid := node.Kid(i)
			if kid == nil {
				continue
			}
			walk(f.Nested(v), kid, append(name, '.'), visit)
		case schema.VariableArray, schema.VariableTable:
			kid := node.Kid(i)
			var n int
			switch {
			case v.Kind != decoder.KindNone:
				visit(string(name), f, v)
				n = int(min(v.U, MaxArrayLen))
			case f.Model == schema.VariableTable && f.Type.Count > 0 && kid != nil:
				// A fixed-count struct array (T[N]): Valve sends no
				// length, only its elements' fields.
				n = min(kid.KidLen(), f.Type.Count)
			default:
				continue
			}
			for k := 0; k < n && kid != nil; k++ {
				en := appendIndex(name, int32(k))
				if f.Model == schema.VariableArray {
					if ev := kid.Get(k); ev.Kind != decoder.KindNone {
						visit(string(en), f, ev)
					}
				} else {
					walk(f.Serializer, kid.Kid(k), append(en, '.'), visit)
				}
			}
		}
	}
}
