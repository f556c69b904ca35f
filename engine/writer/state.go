package writer

import (
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/schema"
)

// StateChanges turns an entity state the engine decoded into the changes
// that rebuild it from nothing: every value entity.Walk shows, by path, and
// the presence value of each pointer walked through. Writing them (in
// a create, WriteFields) gives a reader the state back, values as they
// were decoded (each decoder's encoder is its exact inverse on values it
// decodes).
func StateChanges(ser *schema.Serializer, n *entity.Node) Changes {
	ch := Changes{}
	p := fieldpath.Path{Last: -1}
	stateChanges(ser, n, &p, ch)
	return ch
}

func stateChanges(ser *schema.Serializer, n *entity.Node, p *fieldpath.Path, ch Changes) {
	if ser == nil || n == nil || p.Last+1 >= fieldpath.MaxDepth {
		return
	}
	ser.Load()
	p.Last++
	defer func() { p.Idx[p.Last] = 0; p.Last-- }()
	at := func(k int32, v decoder.Value) {
		q := *p
		q.Last++
		q.Idx[q.Last] = k
		ch[q] = v
	}
	for i, f := range ser.Fields {
		p.Idx[p.Last] = int32(i)
		v := n.Get(i)
		if v.Kind != decoder.KindNone {
			ch[*p] = v
		}
		kid := n.Kid(i)
		switch f.Model {
		case schema.FixedArray:
			if p.Last+1 < fieldpath.MaxDepth {
				kid.EachVal(func(k int, ev decoder.Value) { at(int32(k), ev) })
			}
		case schema.FixedTable:
			stateChanges(f.Nested(v), kid, p, ch)
		case schema.VariableArray, schema.VariableTable:
			var count int
			switch {
			case v.Kind != decoder.KindNone:
				count = int(min(v.U, entity.MaxArrayLen))
			case f.Model == schema.VariableTable && f.Type.Count > 0 && kid != nil:
				count = min(kid.KidLen(), f.Type.Count) // T[N]: no length is sent
			}
			if kid == nil || p.Last+1 >= fieldpath.MaxDepth {
				continue
			}
			for k := 0; k < count; k++ {
				if f.Model == schema.VariableArray {
					if ev := kid.Get(k); ev.Kind != decoder.KindNone {
						at(int32(k), ev)
					}
					continue
				}
				p.Last++
				p.Idx[p.Last] = int32(k)
				stateChanges(f.Serializer, kid.Kid(k), p, ch)
				p.Idx[p.Last] = 0
				p.Last--
			}
		}
	}
}

// Unlike returns the changes of ch whose value base does not hold at the
// same path: what a create must write on top of a class baseline.
func Unlike(ch, base Changes) Changes {
	out := make(Changes, len(ch))
	for p, v := range ch {
		if b, ok := base[p]; !ok || !b.Equal(v) {
			out[p] = v
		}
	}
	return out
}

// UseBaseline sets a class's baseline state as the reader holds it (a
// decoded instance baseline, StateChanges) without writing it: creates
// start from it.
func (e *Entities) UseBaseline(class int32, st Changes) { e.baselines[class] = st }
