package decoder

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

// stepsFor encodes v with d and explains it.
func stepsFor(t *testing.T, d *Decoder, v Value) []Step {
	t.Helper()
	var w bitio.Writer
	if err := d.Encode(&w, v); err != nil {
		t.Fatal(err)
	}
	return checkExplain(t, d, append(w.Bytes(), 0, 0, 0, 0, 0, 0, 0, 0), 0)
}

func stepText(steps []Step) string {
	var b strings.Builder
	for _, s := range steps {
		b.WriteString(s.Label + " " + s.Text + "\n")
	}
	return b.String()
}

// A negative component of a normal keeps its sign in the arithmetic
// ("x = -1228 / 2047 = -0.5999…", not "1228 / 2047 = -0.5999…"); every
// minus in numbers is the one the values print with ('-', never '−'); a
// one-byte varint is not said to be followed by another.
func TestExplainSignsAndVarintBytes(t *testing.T) {
	normal := stepText(stepsFor(t, &Decoder{Family: FamNormal}, Vector(-0.5999, 0.2, 0.77)))
	if !strings.Contains(normal, "x = -1228 / 2047 = -0.59990") {
		t.Errorf("normal:\n%s", normal)
	}
	all := normal
	for _, c := range []struct {
		d *Decoder
		v Value
	}{
		{&Decoder{Family: FamSigned}, Int(-3)},
		{&Decoder{Family: FamCoord}, Float(-12.5)},
		{&Decoder{Family: FamNoScale}, Float(-2.5)},
		{&Decoder{Family: FamUnsignedMinusOne}, Int(-1)},
	} {
		all += stepText(stepsFor(t, c.d, c.v))
	}
	if strings.Contains(all, "−") {
		t.Errorf("a '−' among the numbers:\n%s", all)
	}
	one := stepText(stepsFor(t, &Decoder{Family: FamUnsigned}, Uint(5)))
	if strings.Contains(one, "another byte follows") || !strings.Contains(one, "the only byte") {
		t.Errorf("one-byte varint:\n%s", one)
	}
	two := stepText(stepsFor(t, &Decoder{Family: FamUnsigned}, Uint(300)))
	if !strings.Contains(two, "each byte but the last") {
		t.Errorf("two-byte varint:\n%s", two)
	}
}
