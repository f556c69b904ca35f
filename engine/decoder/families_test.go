package decoder

import (
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

func TestBinaryBlock(t *testing.T) {
	var w bitio.Writer
	w.Bool(true) // misalign on purpose
	w.VarUint32(3)
	w.RawBytes([]byte{0, 0xff, 7})
	w.Bits(5, 3)
	r := bitio.NewReader(w.Bytes())
	r.Bool()
	v := (&Decoder{Family: FamBinaryBlock}).Decode(r)
	if v.Kind != KindString || v.Str() != "\x00\xff\x07" {
		t.Fatalf("decoded %v, want the three bytes", v)
	}
	if got := r.Bits(3); got != 5 {
		t.Fatalf("next bits %d, want 5: block consumed the wrong length", got)
	}
	// A length beyond the data overflows instead of allocating.
	var w2 bitio.Writer
	w2.VarUint32(1 << 30)
	r = bitio.NewReader(w2.Bytes())
	(&Decoder{Family: FamBinaryBlock}).Decode(r)
	if !r.Overflowed() {
		t.Fatal("oversized block did not overflow")
	}
}

func TestPolyPointer(t *testing.T) {
	var w bitio.Writer
	w.Bool(true)
	w.UBitVar(2)
	w.Bool(false)
	r := bitio.NewReader(w.Bytes())
	d := &Decoder{Family: FamPolyPointer}
	if v := d.Decode(r); v.Int64() != 2 {
		t.Fatalf("present pointer decoded to %v, want serializer index 2", v)
	}
	if v := d.Decode(r); v.Int64() != -1 {
		t.Fatalf("absent pointer decoded to %v, want -1", v)
	}
}
