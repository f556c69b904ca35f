package bitio

import "fmt"

// Offset formats a bit position as byte.bit in hex, e.g. 0x1a.3, the
// notation dembug uses everywhere a bit position is shown.
func Offset(bit uint) string {
	return fmt.Sprintf("0x%x.%d", bit>>3, bit&7)
}

// Size formats a bit count as "2 bytes 5 bits", "1 byte", "7 bits".
func Size(bits uint) string {
	by, bi := bits>>3, bits&7
	unit := func(n uint, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	switch {
	case by == 0:
		return unit(bi, "bit", "bits")
	case bi == 0:
		return unit(by, "byte", "bytes")
	}
	return unit(by, "byte", "bytes") + " " + unit(bi, "bit", "bits")
}

// Spell writes n bits of v (n ≤ 64) in reading order, the first bit read
// first: how dembug shows raw bits.
func Spell(v uint64, n uint) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0' + byte(v>>uint(i)&1)
	}
	return string(b)
}

// Span is a run of bits: where it starts and how many bits it holds.
type Span struct {
	Start, Bits uint
}

// End is the bit after the span.
func (s Span) End() uint { return s.Start + s.Bits }

// String is "0x1a.3 +5 bits": the start, then the length.
func (s Span) String() string { return Offset(s.Start) + " +" + Size(s.Bits) }
