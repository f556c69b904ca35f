package schema

import (
	"testing"

	"github.com/dembug/dembug/engine/decoder"
)

// A rename's effect on decoding comes from what the two decoders read:
// varints of one width, of two widths, a length before one and not the
// other, anything else.
func TestDecoderEffect(t *testing.T) {
	simple := func(f decoder.Family) *Field { return &Field{Model: Simple, Decoder: &decoder.Decoder{Family: f}} }
	array := func(f decoder.Family) *Field {
		return &Field{Model: VariableArray, Decoder: &decoder.Decoder{Family: decoder.FamUnsigned}, Elem: &decoder.Decoder{Family: f}}
	}
	for _, c := range []struct {
		before, after *Field
		want          string
	}{
		{simple(decoder.FamSigned), simple(decoder.FamDefault), "the same bits, other values"},
		{simple(decoder.FamHandle), simple(decoder.FamUnsignedMinusOne), "the same bits, other values"},
		{array(decoder.FamSigned), array(decoder.FamUnsigned), "the same bits, other values"},
		{simple(decoder.FamUnsigned), simple(decoder.FamSigned64), "the same bits while a value fits 32 bits; a longer one is cut or misaligns"},
		{array(decoder.FamSigned), simple(decoder.FamUnsigned), "other bits: the decode misaligns where it reads one"},
		{simple(decoder.FamSigned), simple(decoder.FamNoScale), "other bits: the decode misaligns where it reads one"},
		{&Field{Model: FixedTable, Decoder: &decoder.Decoder{Family: decoder.FamBool}}, simple(decoder.FamBool), "other bits: the decode misaligns where it reads one"},
	} {
		if got := decoderEffect(c.before, c.after); got != c.want {
			t.Errorf("%s → %s: %q, want %q", decoderText(c.before), decoderText(c.after), got, c.want)
		}
	}
}
