package bitio

import "testing"

func TestSpanAndSpell(t *testing.T) {
	for _, c := range []struct {
		s    Span
		want string
	}{
		{Span{Start: 0xd3, Bits: 5}, "0x1a.3 +5 bits"},
		{Span{Start: 8, Bits: 13}, "0x1.0 +1 byte 5 bits"},
		{Span{Start: 7, Bits: 1}, "0x0.7 +1 bit"},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
	if s := (Span{Start: 3, Bits: 4}); s.End() != 7 {
		t.Errorf("end %d", s.End())
	}
	// Reading order: the first bit read is the lowest.
	if got := Spell(0b1101, 6); got != "101100" {
		t.Errorf("Spell = %q", got)
	}
}
