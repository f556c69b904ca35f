package bitio

import (
	"testing"
)

// refReader is a deliberately slow bit-at-a-time reader: the fuzz target
// checks every fast path of Reader against it.
type refReader struct {
	buf []byte
	pos uint
}

func (r *refReader) bit() (uint64, bool) {
	if r.pos >= uint(len(r.buf))*8 {
		return 0, false
	}
	b := uint64(r.buf[r.pos>>3]>>(r.pos&7)) & 1
	r.pos++
	return b, true
}

func (r *refReader) bits(n uint) (uint64, bool) {
	var v uint64
	for i := uint(0); i < n; i++ {
		b, ok := r.bit()
		if !ok {
			return 0, false
		}
		v |= b << i
	}
	return v, true
}

func (r *refReader) varint(maxBytes int) (uint64, bool) {
	var x uint64
	for i := 0; i < maxBytes; i++ {
		b, ok := r.bits(8)
		if !ok {
			return 0, false
		}
		x |= (b & 0x7f) << (7 * i)
		if b&0x80 == 0 {
			break
		}
	}
	return x, true
}

// FuzzReader drives a Reader over arbitrary data with an arbitrary program
// of reads (each program byte picks an operation and a width) and checks,
// after every read, that the position never passes the end, that an
// over-read is reported by Overflowed and Err, and that every read that did
// not over-read returns what the bit-at-a-time reference reader returns.
func FuzzReader(f *testing.F) {
	f.Add([]byte{0xff, 0x01, 0x80, 0x80, 0x80, 0x80, 0x0f, 0x12, 0x34, 0x56, 0x78, 0x9a}, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Add([]byte("hello\x00world"), []byte{0x8a, 0x05, 0x0a, 0x29})
	f.Add(make([]byte, 16), []byte{0x13, 0x33, 0x53, 0x73, 0x93, 0xb3, 0xd3, 0xf3})
	f.Add([]byte{}, []byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, data, prog []byte) {
		if len(prog) > 256 {
			prog = prog[:256]
		}
		r := NewReader(data)
		ref := &refReader{buf: data}
		for step, p := range prog {
			op, w := p&15, uint(p>>4) // w: 0..15
			before := r.Pos()
			ref.pos = before
			var got, want uint64
			ok := true
			switch op {
			case 0: // Bits, 0..32
				n := w * 32 / 15
				got = uint64(r.Bits(n))
				want, ok = ref.bits(n)
			case 1: // Bits64, 0..64
				n := w * 64 / 15
				got = r.Bits64(n)
				want, ok = ref.bits(n)
			case 2:
				got = b2u(r.Bool())
				want, ok = ref.bit()
			case 3:
				got = uint64(r.VarUint32())
				want, ok = ref.varint(5)
				want = uint64(uint32(want))
			case 4:
				got = r.VarUint64()
				want, ok = ref.varint(10)
			case 5:
				got = uint64(r.UBitVar())
				var v uint64
				if v, ok = ref.bits(6); ok {
					want = v & 15
					var extra uint64
					switch v & 0x30 {
					case 0x10:
						extra, ok = ref.bits(4)
					case 0x20:
						extra, ok = ref.bits(8)
					case 0x30:
						extra, ok = ref.bits(28)
					}
					want |= extra << 4
				}
			case 6:
				got = uint64(r.UBitVarFP())
				n := uint(31)
				for _, width := range []uint{2, 4, 10, 17} {
					var b uint64
					if b, ok = ref.bit(); !ok || b == 1 {
						n = width
						break
					}
				}
				if ok {
					want, ok = ref.bits(n)
				}
			case 7: // AppendString with a small maximum
				s := r.AppendString(nil, int(w))
				got = uint64(len(s))
				for i := 0; i < int(w); i++ {
					var b uint64
					if b, ok = ref.bits(8); !ok || b == 0 {
						break
					}
					if i >= len(s) || uint64(s[i]) != b {
						t.Fatalf("step %d: AppendString byte %d differs", step, i)
					}
					want++
				}
			case 8: // AppendBits, up to 60 bits
				n := w * 4
				b := r.AppendBits(nil, n)
				if !r.Overflowed() && uint(len(b)) != (n+7)/8 {
					t.Fatalf("step %d: AppendBits(%d) gave %d bytes", step, n, len(b))
				}
				ok = before+n <= r.Len()
				for i := range b {
					k := min(8, n-uint(i)*8)
					if v, _ := ref.bits(k); uint64(b[i]) != v {
						t.Fatalf("step %d: AppendBits byte %d = %#x, want %#x", step, i, b[i], v)
					}
				}
			case 9: // Peek never moves and never overflows
				n := w * 32 / 15
				was := r.Overflowed()
				got = uint64(r.Peek(n))
				if r.Pos() != before || r.Overflowed() != was {
					t.Fatalf("step %d: Peek moved or overflowed", step)
				}
				v, full := ref.bits(n)
				ref.pos = before
				if full {
					want = v
				} else {
					want = got // zero-padded past the end; checked below
					for i := uint(0); i < n; i++ {
						if before+i >= uint(len(data))*8 && got>>i&1 != 0 {
							t.Fatalf("step %d: Peek returned a set bit past the end", step)
						}
					}
				}
			case 10:
				r.Skip(w * 8)
				_, ok = ref.bits(w * 8)
			case 11:
				r.Seek(before + w)
				ok = before+w <= r.Len()
			case 12:
				got = uint64(r.VarInt32())
				want, ok = ref.varint(5)
				u := uint32(want)
				want = uint64(int32(u>>1) ^ -int32(u&1))
				got = uint64(int32(got))
			default:
				r.Bits(w)
				_, ok = ref.bits(w)
			}
			if r.Pos() > r.Len() {
				t.Fatalf("step %d (op %d): position %d past the end %d", step, op, r.Pos(), r.Len())
			}
			if r.Len() != uint(len(data))*8 {
				t.Fatalf("length changed to %d", r.Len())
			}
			if !ok && !r.Overflowed() {
				t.Fatalf("step %d (op %d, width %d) at bit %d of %d: over-read not reported", step, op, w, before, r.Len())
			}
			if r.Overflowed() {
				if ok {
					t.Fatalf("step %d (op %d, width %d) at bit %d of %d: overflow reported for a read that fits", step, op, w, before, r.Len())
				}
				if r.Err() == nil {
					t.Fatal("Overflowed without Err")
				}
				oe := r.Err().(*OverflowError)
				if oe.Pos > r.Len() || oe.Len != r.Len() {
					t.Fatalf("overflow error %+v for %d bits", oe, r.Len())
				}
				if r.Remaining() != 0 && r.Pos() == r.Len() {
					t.Fatal("Remaining after the end")
				}
				return // values after an over-read are unspecified (zero)
			}
			if r.Err() != nil {
				t.Fatal("Err without Overflowed")
			}
			if got != want {
				t.Fatalf("step %d (op %d, width %d) at bit %d: got %#x, reference %#x", step, op, w, before, got, want)
			}
			if op != 9 && op != 11 && r.Pos() != ref.pos {
				t.Fatalf("step %d (op %d, width %d): position %d, reference %d", step, op, w, r.Pos(), ref.pos)
			}
			if r.Remaining() != r.Len()-r.Pos() {
				t.Fatalf("Remaining %d at %d of %d", r.Remaining(), r.Pos(), r.Len())
			}
		}
	})
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
