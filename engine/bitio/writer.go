package bitio

import (
	"math"
)

// Writer is the inverse of Reader: it appends bits lowest first.
type Writer struct {
	buf []byte
	n   uint // bits written
}

// Bytes returns the written bytes; a partial last byte is zero-padded.
func (w *Writer) Bytes() []byte { return w.buf }

// Len is the number of bits written.
func (w *Writer) Len() uint { return w.n }

// Bits writes the low n bits of v (n ≤ 64).
func (w *Writer) Bits(v uint64, n uint) {
	for n > 0 {
		if w.n&7 == 0 {
			w.buf = append(w.buf, 0)
		}
		free := 8 - w.n&7
		take := min(free, n)
		w.buf[len(w.buf)-1] |= byte(v&(1<<take-1)) << (w.n & 7)
		v >>= take
		n -= take
		w.n += take
	}
}

// Bool writes one bit.
func (w *Writer) Bool(b bool) {
	if b {
		w.Bits(1, 1)
	} else {
		w.Bits(0, 1)
	}
}

// Float32 writes the IEEE-754 bits of f.
func (w *Writer) Float32(f float32) { w.Bits(uint64(math.Float32bits(f)), 32) }

// UBitVar writes v in the form UBitVar reads, choosing the shortest.
func (w *Writer) UBitVar(v uint32) {
	switch {
	case v < 1<<4:
		w.Bits(uint64(v), 6)
	case v < 1<<8:
		w.Bits(uint64(v&15|0x10), 6)
		w.Bits(uint64(v>>4), 4)
	case v < 1<<12:
		w.Bits(uint64(v&15|0x20), 6)
		w.Bits(uint64(v>>4), 8)
	default:
		w.Bits(uint64(v&15|0x30), 6)
		w.Bits(uint64(v>>4), 28)
	}
}

// UBitVarFP writes v in the field-path form, choosing the shortest.
func (w *Writer) UBitVarFP(v uint32) {
	for _, width := range [...]uint{2, 4, 10, 17} {
		if v < 1<<width {
			w.Bool(true)
			w.Bits(uint64(v), width)
			return
		}
		w.Bool(false)
	}
	w.Bits(uint64(v), 31)
}

// VarUint64 writes a base-128 varint.
func (w *Writer) VarUint64(v uint64) {
	for v >= 0x80 {
		w.Bits(v&0x7f|0x80, 8)
		v >>= 7
	}
	w.Bits(v, 8)
}

// VarUint32 writes a base-128 varint.
func (w *Writer) VarUint32(v uint32) { w.VarUint64(uint64(v)) }

// VarInt32 writes a zigzag varint.
func (w *Writer) VarInt32(v int32) { w.VarUint32(uint32(v<<1) ^ uint32(v>>31)) }

// VarInt64 writes a zigzag 64-bit varint.
func (w *Writer) VarInt64(v int64) { w.VarUint64(uint64(v<<1) ^ uint64(v>>63)) }

// String writes s and a terminating zero byte.
func (w *Writer) String(s string) {
	for i := 0; i < len(s); i++ {
		w.Bits(uint64(s[i]), 8)
	}
	w.Bits(0, 8)
}

// RawBytes writes each byte as 8 bits.
func (w *Writer) RawBytes(b []byte) {
	for _, c := range b {
		w.Bits(uint64(c), 8)
	}
}

// Append writes every bit of src after the bits of w.
func (w *Writer) Append(src *Writer) {
	n := src.Len()
	for i, b := range src.Bytes() {
		w.Bits(uint64(b), min(8, n-uint(i)*8))
	}
}
