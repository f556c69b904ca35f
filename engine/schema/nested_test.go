package schema

import (
	"testing"

	"github.com/dembug/dembug/engine/decoder"
)

// A table field leads into its declared serializer, a polymorphic pointer
// into the alternative its value names when that is in range.
func TestNested(t *testing.T) {
	base, alt := &Serializer{Name: "Base"}, &Serializer{Name: "Alt"}
	plain := &Field{Name: "p", Serializer: base}
	poly := &Field{Name: "q", Serializer: base, Polymorphic: []*Serializer{base, alt}}
	cases := []struct {
		f    *Field
		v    decoder.Value
		want *Serializer
	}{
		{plain, decoder.Value{}, base},
		{plain, decoder.Value{U: 1}, base},
		{poly, decoder.Value{}, base},
		{poly, decoder.Value{U: 1}, alt},
		{poly, decoder.Value{U: 2}, base},       // out of range
		{poly, decoder.Value{U: 1 << 63}, base}, // negative as int64
	}
	for i, c := range cases {
		if got := c.f.Nested(c.v); got != c.want {
			t.Errorf("case %d: %s.Nested(%d) = %s, want %s", i, c.f.Name, c.v.U, got.Name, c.want.Name)
		}
	}
}
