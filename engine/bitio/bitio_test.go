package bitio

import (
	"testing"

	"pgregory.net/rapid"
)

func TestVarintEdges(t *testing.T) {
	cases := []struct {
		data []byte
		u32  uint32
		n    uint
	}{
		{[]byte{0x00}, 0, 8},
		{[]byte{0x7f}, 127, 8},
		{[]byte{0x80, 0x01}, 128, 16},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, 0xffffffff, 40},
		// A 10-byte encoding of -1 as int32: VarUint32 stops after 5 bytes.
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 0xffffffff, 40},
	}
	for _, c := range cases {
		r := NewReader(c.data)
		if got := r.VarUint32(); got != c.u32 || r.Pos() != c.n {
			t.Errorf("% x: got %d after %d bits, want %d after %d", c.data, got, r.Pos(), c.u32, c.n)
		}
	}
	r := NewReader([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	if got := r.VarUint64(); got != ^uint64(0) || r.Pos() != 80 {
		t.Errorf("10-byte varint = %d after %d bits", got, r.Pos())
	}
	if v := NewReader([]byte{3}).VarInt32(); v != -2 {
		t.Errorf("zigzag 3 = %d, want -2", v)
	}
}

func TestUBitVar(t *testing.T) {
	var w Writer
	w.Bits(0x25, 6) // prefix 0x20: 8 more bits
	w.Bits(0xab, 8)
	r := NewReader(w.Bytes())
	if got := r.UBitVar(); got != 0xab<<4|5 || r.Pos() != 14 {
		t.Fatalf("UBitVar = %#x after %d bits", got, r.Pos())
	}
}

func TestOverflowNamesOffset(t *testing.T) {
	r := NewReader([]byte{0xff})
	r.Bits(5)
	r.Bits(5)
	if !r.Overflowed() {
		t.Fatal("no overflow")
	}
	if got := r.Err().Error(); got != "read past end of data at bit 0x0.5 (data is 1 byte)" {
		t.Fatalf("error %q", got)
	}
}

func TestOffsetAndSize(t *testing.T) {
	if Offset(0x1a*8+3) != "0x1a.3" || Size(21) != "2 bytes 5 bits" || Size(8) != "1 byte" || Size(1) != "1 bit" {
		t.Fatal(Offset(0x1a*8+3), Size(21), Size(8), Size(1))
	}
}

// Everything the writer writes, the reader reads back, bit for bit.
func TestWriterReaderRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "n")
		kinds := make([]int, n)
		vals := make([]uint64, n)
		widths := make([]uint, n)
		var w Writer
		for i := range kinds {
			kinds[i] = rapid.IntRange(0, 4).Draw(t, "kind")
			vals[i] = rapid.Uint64().Draw(t, "v")
			switch kinds[i] {
			case 0:
				widths[i] = uint(rapid.IntRange(0, 64).Draw(t, "w"))
				if widths[i] < 64 {
					vals[i] &= 1<<widths[i] - 1
				}
				w.Bits(vals[i], widths[i])
			case 1:
				w.VarUint64(vals[i])
			case 2:
				vals[i] &= 0xffffffff
				w.UBitVar(uint32(vals[i]))
			case 3:
				vals[i] &= 0x7fffffff
				w.UBitVarFP(uint32(vals[i]))
			case 4:
				w.VarInt64(int64(vals[i]))
			}
		}
		r := NewReader(w.Bytes())
		for i := range kinds {
			var got uint64
			switch kinds[i] {
			case 0:
				got = r.Bits64(widths[i])
			case 1:
				got = r.VarUint64()
			case 2:
				got = uint64(r.UBitVar())
			case 3:
				got = uint64(r.UBitVarFP())
			case 4:
				got = uint64(r.VarInt64())
			}
			if got != vals[i] {
				t.Fatalf("item %d kind %d: got %#x, want %#x", i, kinds[i], got, vals[i])
			}
		}
		if r.Pos() != w.Len() || r.Overflowed() {
			t.Fatalf("read %d bits of %d (overflow %v)", r.Pos(), w.Len(), r.Overflowed())
		}
	})
}

// TestWindowedReadsMatchNearEnd writes one value after a random prefix and
// reads it back twice: from a buffer that ends with the value (the reads
// near the end, bit by bit) and from one followed by 16 more bytes (the
// one-load window paths). Both must give the value and stop at its end.
func TestWindowedReadsMatchNearEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var w Writer
		pre := uint(rapid.IntRange(0, 70).Draw(t, "prefix bits"))
		w.Bits(rapid.Uint64().Draw(t, "prefix"), min(pre, 64))
		w.Bits(0, pre-min(pre, 64))
		kind := rapid.IntRange(0, 3).Draw(t, "kind")
		v := uint64(rapid.Uint32().Draw(t, "value"))
		n := uint(rapid.IntRange(0, 32).Draw(t, "bit count"))
		switch kind {
		case 0:
			w.UBitVar(uint32(v))
		case 1:
			v &= 0x7fffffff
			w.UBitVarFP(uint32(v))
		case 2:
			w.VarUint32(uint32(v))
		case 3:
			v &= 1<<n - 1
			w.Bits(v, n)
		}
		end := w.Len()
		short := w.Bytes()
		long := append(append([]byte(nil), short...), rapid.SliceOfN(rapid.Byte(), 16, 16).Draw(t, "more")...)
		for _, buf := range [][]byte{short, long} {
			r := NewReader(buf)
			r.Skip(pre)
			var got uint64
			switch kind {
			case 0:
				got = uint64(r.UBitVar())
			case 1:
				got = uint64(r.UBitVarFP())
			case 2:
				got = uint64(r.VarUint32())
			case 3:
				got = uint64(r.Bits(n))
			}
			if got != v || r.Pos() != end || r.Overflowed() {
				t.Fatalf("kind %d in %d bytes: %#x at bit %d (overflow %v), want %#x at %d", kind, len(buf), got, r.Pos(), r.Overflowed(), v, end)
			}
		}
	})
}

func TestWindowOnlyAwayFromTheEnd(t *testing.T) {
	r := NewReader([]byte{0x81, 2, 3, 4, 5, 6, 7, 8, 9})
	r.Skip(3)
	w, ok := r.Window()
	if !ok || w&(1<<WindowBits-1) != (0x0807060504030281>>3)&(1<<WindowBits-1) {
		t.Fatalf("window at bit 3 of 9 bytes: %#x, %v", w, ok)
	}
	r.Skip(6) // bit 9: byte 1, and 8 bytes remain
	if _, ok := r.Window(); !ok {
		t.Fatal("no window with 8 bytes left")
	}
	r.Skip(8) // byte 2: 7 bytes left
	if _, ok := r.Window(); ok {
		t.Fatal("a window within the last 8 bytes")
	}
}

func TestWindowAtMatchesWindow(t *testing.T) {
	buf := []byte{0x81, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	r := NewReader(buf)
	for pos := uint(0); pos < uint(len(buf))*8+16; pos++ {
		r.Seek(min(pos, r.Len()))
		want, wantOK := r.Window()
		if !wantOK { // near the end: the remaining bits, then zeros
			want = 0
			for k := uint(0); k < 64 && pos+k < r.Len(); k++ {
				want |= uint64(buf[(pos+k)/8]>>((pos+k)%8)&1) << k
			}
		}
		r.Seek(0)
		got := r.WindowAt(pos)
		if got&(1<<WindowBits-1) != want&(1<<WindowBits-1) || r.Pos() != 0 {
			t.Fatalf("WindowAt(%d) = %#x (reader at %d); want %#x", pos, got, r.Pos(), want)
		}
	}
}
