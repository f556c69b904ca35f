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
	entity.WalkPaths(ser, n, func(p *fieldpath.Path, _ *schema.Field, v decoder.Value) { ch[*p] = v })
	return ch
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
