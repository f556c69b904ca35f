package bitio

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// Reader consumes bits from a byte slice, lowest bit of each byte first.
type Reader struct {
	buf      []byte
	pos      uint // next bit to read
	end      uint // bit length of buf
	overPos  uint // where the first over-read started
	overflow bool

	// Strings is where the decoders reading from the reader intern the
	// strings they read (a *decoder.Pool); nil for the default pool.
	// Reset clears it.
	Strings any
}

// NewReader returns a reader over buf.
func NewReader(buf []byte) *Reader {
	r := &Reader{}
	r.Reset(buf)
	return r
}

// Reset points the reader at buf, bit 0, clearing any overflow.
func (r *Reader) Reset(buf []byte) {
	*r = Reader{buf: buf, end: uint(len(buf)) * 8}
}

// Bytes is the underlying buffer.
func (r *Reader) Bytes() []byte { return r.buf }

// Pos is the index of the next bit to read.
func (r *Reader) Pos() uint { return r.pos }

// Len is the total number of bits.
func (r *Reader) Len() uint { return r.end }

// Remaining is the number of unread bits (zero after an overflow).
func (r *Reader) Remaining() uint {
	if r.pos >= r.end {
		return 0
	}
	return r.end - r.pos
}

// Seek moves to bit position pos. Seeking past the end overflows.
func (r *Reader) Seek(pos uint) {
	if pos > r.end {
		r.markOverflow(r.end)
		pos = r.end
	}
	r.pos = pos
}

// Overflowed reports whether any read ran past the end.
func (r *Reader) Overflowed() bool { return r.overflow }

// Err describes the first over-read, or is nil.
func (r *Reader) Err() error {
	if !r.overflow {
		return nil
	}
	return &OverflowError{Pos: r.overPos, Len: r.end}
}

// OverflowError says that a read needed bits beyond the end of the buffer.
type OverflowError struct {
	Pos uint // bit offset where the read that ran out started
	Len uint // bits available
}

func (e *OverflowError) Error() string {
	return fmt.Sprintf("read past end of data at bit %s (data is %s)", Offset(e.Pos), Size(e.Len))
}

func (r *Reader) markOverflow(at uint) {
	if !r.overflow {
		r.overflow = true
		r.overPos = at
	}
}

// peek64 returns the 64 bits starting at byte index i, zero-padded past the end.
func (r *Reader) peek64(i uint) uint64 {
	if i+8 <= uint(len(r.buf)) {
		return binary.LittleEndian.Uint64(r.buf[i:])
	}
	var v uint64
	for k := uint(0); i+k < uint(len(r.buf)) && k < 8; k++ {
		v |= uint64(r.buf[i+k]) << (8 * k)
	}
	return v
}

// WindowBits is how many bits a successful Window holds.
const WindowBits = 57

// Window returns the next WindowBits bits (lowest first, in the low bits of
// w) without consuming them, or ok=false within the last 8 bytes of the
// buffer. Hot decoders parse several small values out of one Window and then
// Skip what they used; near the end they fall back to the single reads. It
// is small enough to inline, which the single reads with their end checks
// are not.
func (r *Reader) Window() (w uint64, ok bool) {
	if i := r.pos >> 3; i+8 <= uint(len(r.buf)) {
		return load64(r.buf, i) >> (r.pos & 7), true
	}
	return 0, false
}

// WindowAt returns the bits from pos on, lowest first, at least
// WindowBits of them, without moving the read position. Unlike Window it
// works anywhere: bits past the end read as zero. It is for comparing bits
// with remembered ones (callers check that what they compare lies within
// the data), never for consuming them.
func (r *Reader) WindowAt(pos uint) uint64 {
	if i := pos >> 3; i+8 <= uint(len(r.buf)) {
		return load64(r.buf, i) >> (pos & 7)
	}
	return r.peek64(pos>>3) >> (pos & 7)
}

// Bits reads n bits (0 ≤ n ≤ 32) as an unsigned number.
//
// Away from the last 8 bytes one load holds all n bits and the end cannot
// be crossed.
func (r *Reader) Bits(n uint) uint32 {
	if w, ok := r.Window(); ok && n <= 32 {
		r.pos += n
		return uint32(w) & (1<<n - 1)
	}
	return r.bitsNearEnd(n)
}

// bitsNearEnd is Bits within the last 8 bytes, where a read may over-run,
// and Bits asked for more than 32 bits (a corrupt schema's bit count), which
// still consumes them all.
func (r *Reader) bitsNearEnd(n uint) uint32 {
	if n == 0 {
		return 0
	}
	if r.pos+n > r.end {
		r.markOverflow(r.pos)
		r.pos = r.end
		return 0
	}
	v := r.peek64(r.pos>>3) >> (r.pos & 7)
	r.pos += n
	return uint32(v & (1<<n - 1))
}

// Bits64 reads n bits (0 ≤ n ≤ 64).
func (r *Reader) Bits64(n uint) uint64 {
	if n <= 32 {
		return uint64(r.Bits(n))
	}
	lo := uint64(r.Bits(32))
	return lo | uint64(r.Bits(n-32))<<32
}

// Bool reads one bit.
func (r *Reader) Bool() bool {
	if r.pos >= r.end {
		r.markOverflow(r.pos)
		return false
	}
	b := r.buf[r.pos>>3]>>(r.pos&7)&1 == 1
	r.pos++
	return b
}

// Byte reads 8 bits.
func (r *Reader) Byte() byte { return byte(r.Bits(8)) }

// Float32 reads 32 bits as an IEEE-754 float.
func (r *Reader) Float32() float32 { return math.Float32frombits(r.Bits(32)) }

// Uint64LE reads 64 bits as a little-endian integer.
func (r *Reader) Uint64LE() uint64 { return r.Bits64(64) }

// UBitVar reads Valve's 6-bit-prefixed variable integer: the low 4 bits of the
// prefix are the value's low bits, the top 2 say how many more bits follow
// (0, 4, 8 or 28).
func (r *Reader) UBitVar() uint32 {
	if w, ok := r.Window(); ok {
		v, n := UBitVarOf(w)
		r.pos += n
		return v
	}
	v := r.Bits(6)
	switch v & 0x30 {
	case 0x10:
		return v&15 | r.Bits(4)<<4
	case 0x20:
		return v&15 | r.Bits(8)<<4
	case 0x30:
		return v&15 | r.Bits(28)<<4
	}
	return v
}

// UBitVarOf decodes a UBitVar from the low bits of a Window, returning it
// and its length (at most 34 bits).
func UBitVarOf(w uint64) (v uint32, n uint) {
	v = uint32(w) & 63
	switch v & 0x30 {
	case 0x10:
		return v&15 | uint32(w>>6)&15<<4, 10
	case 0x20:
		return v&15 | uint32(w>>6)&255<<4, 14
	case 0x30:
		return v&15 | uint32(w>>6)&(1<<28-1)<<4, 34
	}
	return v, 6
}

// UBitVarFP reads the field-path variant: unary prefix selecting 2, 4, 10, 17
// or 31 value bits.
func (r *Reader) UBitVarFP() uint32 {
	if w, ok := r.Window(); ok {
		v, n := UBitVarFPOf(w)
		r.pos += n
		return v
	}
	switch {
	case r.Bool():
		return r.Bits(2)
	case r.Bool():
		return r.Bits(4)
	case r.Bool():
		return r.Bits(10)
	case r.Bool():
		return r.Bits(17)
	}
	return r.Bits(31)
}

// UBitVarFPOf decodes a UBitVarFP from the low bits of a Window, returning
// it and its length (at most 35 bits).
func UBitVarFPOf(w uint64) (v uint32, n uint) {
	switch {
	case w&1 != 0:
		return uint32(w>>1) & 3, 3
	case w&2 != 0:
		return uint32(w>>2) & 15, 6
	case w&4 != 0:
		return uint32(w>>3) & 1023, 13
	case w&8 != 0:
		return uint32(w>>4) & (1<<17 - 1), 21
	}
	return uint32(w>>4) & (1<<31 - 1), 35
}

// VarUint32 reads a protobuf-style base-128 varint of at most 5 bytes.
func (r *Reader) VarUint32() uint32 {
	if w, ok := r.Window(); ok {
		v, n := VarUint32Of(w)
		r.pos += n
		return v
	}
	var x uint32
	for s := uint(0); s < 35; s += 7 {
		b := r.Bits(8)
		x |= (b & 0x7f) << s
		if b&0x80 == 0 || r.overflow {
			return x
		}
	}
	return x
}

// VarUint32Of decodes a VarUint32 from the low bits of a Window, returning
// it and its length (at most 40 bits).
func VarUint32Of(w uint64) (v uint32, n uint) {
	for i := uint(0); i < 5; i++ {
		b := uint32(w >> (8 * i))
		v |= (b & 0x7f) << (7 * i)
		if b&0x80 == 0 {
			return v, 8 * (i + 1)
		}
	}
	return v, 40
}

// VarUint64 reads a base-128 varint of at most 10 bytes.
func (r *Reader) VarUint64() uint64 {
	var x uint64
	for s := uint(0); s < 70; s += 7 {
		b := uint64(r.Bits(8))
		x |= (b & 0x7f) << s
		if b&0x80 == 0 || r.overflow {
			return x
		}
	}
	return x
}

// VarInt32 reads a zigzag-encoded signed varint.
func (r *Reader) VarInt32() int32 { return ZigZag32(r.VarUint32()) }

// ZigZag32 undoes zigzag encoding: 0, 1, 2, 3 → 0, -1, 1, -2.
func ZigZag32(u uint32) int32 { return int32(u>>1) ^ -int32(u&1) }

// VarInt64 reads a zigzag-encoded signed 64-bit varint.
func (r *Reader) VarInt64() int64 {
	u := r.VarUint64()
	return int64(u>>1) ^ -int64(u&1)
}

// AppendString appends bytes up to (not including) a zero byte, reading at
// most max bytes; the terminator is consumed.
func (r *Reader) AppendString(dst []byte, max int) []byte {
	// Seven bytes from each window while they are in the data (string
	// table keys, a signon's thousands of them, run to dozens of bytes).
	i := 0
	for ; max-i >= 7 && r.pos+56 <= r.end; i += 7 {
		w, ok := r.Window()
		if !ok {
			break
		}
		w &= 1<<56 - 1
		// The lowest zero byte's top bit is set here; bits above a zero
		// byte may be spurious but are never lowest.
		if z := (w - 0x01010101010101) &^ w & 0x80808080808080; z != 0 {
			n := uint(bits.TrailingZeros64(z) >> 3)
			for k := range n {
				dst = append(dst, byte(w>>(8*k)))
			}
			r.pos += 8 * (n + 1)
			return dst
		}
		dst = append(dst, byte(w), byte(w>>8), byte(w>>16), byte(w>>24), byte(w>>32), byte(w>>40), byte(w>>48))
		r.pos += 56
	}
	for ; i < max; i++ {
		b := byte(r.Bits(8))
		if b == 0 || r.overflow {
			return dst
		}
		dst = append(dst, b)
	}
	return dst
}

// AppendBits appends n bits as bytes (the last byte zero-padded at the top).
func (r *Reader) AppendBits(dst []byte, n uint) []byte {
	if r.pos+n > r.end {
		r.markOverflow(r.pos)
		r.pos = r.end
		return dst
	}
	if r.pos&7 == 0 {
		start := r.pos >> 3
		dst = append(dst, r.buf[start:start+n>>3]...)
		r.pos += n &^ 7
		n &= 7
	}
	// Unaligned: seven bytes from each window (string-table values, CS2's
	// instance baselines among them, run to kilobytes), then the rest.
	for ; n >= 56; n -= 56 {
		w, ok := r.Window()
		if !ok {
			break
		}
		dst = append(dst, byte(w), byte(w>>8), byte(w>>16), byte(w>>24), byte(w>>32), byte(w>>40), byte(w>>48))
		r.pos += 56
	}
	for ; n >= 8; n -= 8 {
		dst = append(dst, byte(r.Bits(8)))
	}
	if n > 0 {
		dst = append(dst, byte(r.Bits(n)))
	}
	return dst
}

// Peek returns the next n bits (n ≤ 32) without consuming them; bits past
// the end read as zero.
func (r *Reader) Peek(n uint) uint32 {
	return uint32(r.peek64(r.pos>>3) >> (r.pos & 7) & (1<<n - 1))
}

// Skip advances n bits (overflowing past the end).
func (r *Reader) Skip(n uint) {
	if r.pos+n > r.end {
		r.markOverflow(r.pos)
		r.pos = r.end
		return
	}
	r.pos += n
}
