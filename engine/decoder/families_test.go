package decoder

import (
	"strings"
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

// A binary block shows as its bytes in hex, not as text (0xde 0xb0 is a
// rune of no width that would shift a screen's border); other values and
// strings keep their text form.
func TestBinaryBlockText(t *testing.T) {
	bin := &Decoder{Family: FamBinaryBlock}
	for _, c := range []struct {
		v    Value
		d    *Decoder
		want string
	}{
		{StringBytes([]byte{2, 0, 0xde, 0xb0, 0x67, 1}), bin, "6 bytes: 02 00 de b0 67 01"},
		{StringBytes([]byte{0xff}), bin, "1 byte: ff"},
		{StringBytes(nil), bin, "0 bytes"},
		{StringBytes([]byte("dota")), &Decoder{Family: FamString}, `"dota"`},
		{StringBytes([]byte("dota")), nil, `"dota"`},
		{Value{Kind: KindUint, U: 6}, bin, "6"},
	} {
		if got := c.v.TextAs(c.d); got != c.want {
			t.Errorf("TextAs = %q, want %q", got, c.want)
		}
	}
	long := StringBytes(make([]byte, 100)).TextAs(bin)
	if want := "100 bytes: " + strings.Repeat("00 ", 63) + "00 …"; long != want {
		t.Errorf("a long block shows %q, want %q", long, want)
	}
}
