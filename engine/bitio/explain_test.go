package bitio

import "testing"

// A ubitvar taken apart reads back the value written, in the bits the
// writer used, its low, selector and high bits spelt as read.
func TestReadUBitVarAt(t *testing.T) {
	for _, v := range []uint32{0, 5, 15, 16, 255, 256, 4095, 4096, 1 << 20, 1<<32 - 1} {
		var w Writer
		w.Bits(1, 3) // not at a byte's start
		w.UBitVar(v)
		end := w.Len()
		u := ReadUBitVarAt(w.Bytes(), 3)
		if u.Value != uint64(v) || u.Bits != end-3 || u.Past {
			t.Errorf("%d: read %+v, written in %d bits", v, u, end-3)
		}
		if len(u.LowBits) != 4 || len(u.SelBits) != 2 || uint(len(u.HiBits)) != u.Extra {
			t.Errorf("%d: spelt %q %q %q", v, u.LowBits, u.SelBits, u.HiBits)
		}
	}
	if u := ReadUBitVarAt([]byte{0xff}, 0); !u.Past {
		t.Errorf("a ubitvar past the data's end: %+v", u)
	}
}

// SpellRange spells any number of bits, SpellAt up to 64, both as Spell.
func TestSpellAtAndRange(t *testing.T) {
	data := []byte{0b1010_0110, 0xff, 0x01}
	if got := SpellAt(data, 1, 5); got != Spell(0b10011, 5) {
		t.Errorf("SpellAt: %q", got)
	}
	if got := SpellRange(data, 0, 24); got != SpellAt(data, 0, 24) || len(got) != 24 {
		t.Errorf("SpellRange: %q", got)
	}
}
