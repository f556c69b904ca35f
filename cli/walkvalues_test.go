package cli

import (
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/schema"
)

// walkValues reports an entity's scalar numeric values by name.
func walkValues(e *entity.Entity, fn func(name string, f float64)) {
	entity.Walk(e.Class.Serializer, e.State, func(name string, _ *schema.Field, v decoder.Value) {
		switch v.Kind {
		case decoder.KindUint:
			fn(name, float64(v.U))
		case decoder.KindInt:
			fn(name, float64(v.Int64()))
		case decoder.KindFloat:
			fn(name, v.F[0])
		}
	})
}
