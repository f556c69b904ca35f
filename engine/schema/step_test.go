package schema

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
)

func pathOf(idx ...int32) *fieldpath.Path {
	p := &fieldpath.Path{Last: len(idx) - 1}
	copy(p.Idx[:], idx)
	return p
}

// StepAt names each level of a path by the field's model: where it ends,
// which element it names, where it goes on, and why it does not fit.
func TestStepAt(t *testing.T) {
	val, elem, pres := &decoder.Decoder{}, &decoder.Decoder{}, &decoder.Decoder{}
	inner, alt := &Serializer{Name: "Inner"}, &Serializer{Name: "Alt"}
	ser := &Serializer{Name: "Outer", Fields: []*Field{
		{Name: "s", Model: Simple, Decoder: val, Why: "simple"},
		{Name: "fa", Model: FixedArray, Decoder: val, Type: VarType{Count: 3}},
		{Name: "va", Model: VariableArray, Decoder: val, Elem: elem, Why: "length", ElemWhy: "element"},
		{Name: "ft", Model: FixedTable, Decoder: pres, Serializer: inner, Polymorphic: []*Serializer{inner, alt}},
		{Name: "vt", Model: VariableTable, Decoder: val, Serializer: inner},
	}}
	one := func() decoder.Value { return decoder.Value{U: 1} }
	cases := []struct {
		p        *fieldpath.Path
		elem     bool
		ser      *Serializer
		next     int
		dec      *decoder.Decoder
		why, err string
	}{
		{p: pathOf(0), dec: val, why: "simple"},
		{p: pathOf(0, 1), err: "continues below simple field s"},
		{p: pathOf(1, 2), elem: true, dec: val},
		{p: pathOf(1), err: "needs exactly one element index"},
		{p: pathOf(1, 3), elem: true, err: "element 3 of fa[3]"},
		{p: pathOf(2), dec: val, why: "length"},
		{p: pathOf(2, 7), elem: true, dec: elem, why: "element"},
		{p: pathOf(2, 7, 0), elem: true, err: "needs exactly one element index"},
		{p: pathOf(3), dec: pres},
		{p: pathOf(3, 0), ser: alt, next: 1},
		{p: pathOf(4), dec: val},
		{p: pathOf(4, 5), elem: true, err: "without naming its field"},
		{p: pathOf(4, 5, 0), elem: true, ser: inner, next: 2},
		{p: pathOf(5), err: "index 5 at depth 0 is outside Outer (5 fields)"},
	}
	for _, c := range cases {
		s, err := StepAt(ser, c.p, 0, one)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.p, err, c.err)
			}
		} else if err != nil {
			t.Errorf("%s: %v", c.p, err)
		}
		if s.Elem != c.elem || s.Ser != c.ser || (c.ser != nil && s.Next != c.next) || (c.err == "" && (s.Dec != c.dec || s.Why != c.why)) {
			t.Errorf("%s: step %+v", c.p, s)
		}
	}
}
