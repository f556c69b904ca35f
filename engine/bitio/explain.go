package bitio

// Bits taken apart for a reader to follow (the debugger's inspector):
// the reads themselves, with their bits spelt as Spell spells them.

// SpellAt spells the n bits (n ≤ 64) of data at bit at in read order, as
// Spell does.
func SpellAt(data []byte, at, n uint) string {
	var r Reader
	r.Reset(data)
	r.Seek(at)
	return Spell(r.Bits64(n), n)
}

// SpellRange spells the bits of data in [from, from+n), any n, in read
// order.
func SpellRange(data []byte, from, n uint) string {
	var r Reader
	r.Reset(data)
	r.Seek(from)
	s := ""
	for n > 0 {
		c := min(n, 64)
		s += Spell(r.Bits64(c), c)
		n -= c
	}
	return s
}

// UBitVarRead is a ubitvar taken apart as the reader takes it: 6 bits, of
// which the first 4 are the value's low bits and the next 2 a selector
// saying how many more bits follow (0, 4, 8 or 28); those are the value's
// bits from bit 4 up.
type UBitVarRead struct {
	Low, Sel, Hi             uint64
	Extra                    uint   // the bits the selector adds: 0, 4, 8 or 28
	LowBits, SelBits, HiBits string // each spelt in read order
	Value                    uint64 // Low | Hi<<4
	Bits                     uint   // 6 + Extra
	Past                     bool   // the extra bits run past the end of the data
}

// ReadUBitVarAt takes apart the ubitvar at bit start of data.
func ReadUBitVarAt(data []byte, start uint) UBitVarRead {
	var r Reader
	r.Reset(data)
	r.Seek(start)
	u := UBitVarRead{Low: r.Bits64(4), Sel: r.Bits64(2)}
	u.Extra = [4]uint{0, 4, 8, 28}[u.Sel]
	u.LowBits, u.SelBits = Spell(u.Low, 4), Spell(u.Sel, 2)
	if u.Extra > 0 {
		u.Hi = r.Bits64(u.Extra)
		u.HiBits = Spell(u.Hi, u.Extra)
	}
	u.Past = r.Overflowed()
	u.Value, u.Bits = u.Low|u.Hi<<4, 6+u.Extra
	return u
}
