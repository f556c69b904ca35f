package decoder

import (
	"math"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

// fuzzDecoder builds a decoder of any family from fuzz parameters: the
// family and, for vectors, the element family are taken modulo the family
// count; quantized parameters go through NewQuantized exactly as the schema
// would pass them (a set-up error falls back to the raw float, as
// schema.quantized does).
func fuzzDecoder(fam, elemFam, bits, comps uint8, qbits, qflags int32, low, high float32, lowSet, highSet bool) *Decoder {
	n := uint8(len(Families()))
	d := &Decoder{Family: Family(fam % n), Bits: bits, TickInterval: 1.0 / 30}
	mkQ := func(d *Decoder) {
		q, err := NewQuantized(qbits, qflags, low, lowSet, high, highSet)
		if err != nil {
			d.Family = FamNoScale
			return
		}
		d.Q = &q
	}
	switch d.Family {
	case FamQuantized:
		mkQ(d)
	case FamVector:
		d.Components = comps % 5 // 0..4: a Value holds at most four
		scalar := [...]Family{FamNoScale, FamQuantized, FamCoord, FamSimTime, FamRuneTime}
		d.Elem = &Decoder{Family: scalar[int(elemFam)%len(scalar)], TickInterval: 1.0 / 64}
		if d.Elem.Family == FamQuantized {
			mkQ(d.Elem)
		}
	}
	return d
}

// FuzzDecode decodes one value with any family from arbitrary bits, after
// skipping an arbitrary number of leading bits. It checks that nothing
// panics, that the reader never passes its end, and that over-reads are
// reported: a decode that did not overflow must read exactly the same bits
// and give exactly the same value when the data is followed by more bytes,
// and a decode over the padded data that reaches past the original end must
// have overflowed on the original.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{0x96, 0x01}, uint8(FamUnsigned), uint8(0), uint8(0), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, uint8(FamSigned64), uint8(0), uint8(0), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(3))
	f.Add([]byte{0xab, 0xcd, 0xef, 0x01}, uint8(FamQuantized), uint8(0), uint8(0), uint8(0), int32(13), int32(QuantRoundDown), float32(-100), float32(100), true, true, uint8(1))
	f.Add([]byte{0xab, 0xcd, 0xef, 0x01, 0x02, 0x03}, uint8(FamQuantized), uint8(0), uint8(0), uint8(0), int32(10), int32(QuantEncodeIntegers), float32(0), float32(1000), true, true, uint8(0))
	f.Add([]byte{0x07, 0x55, 0xaa, 0x33, 0xcc, 0x0f, 0xf0, 0x99}, uint8(FamVector), uint8(1), uint8(0), uint8(3), int32(8), int32(QuantEncodeZero), float32(-1), float32(1), true, true, uint8(2))
	f.Add([]byte("hello\x00"), uint8(FamString), uint8(0), uint8(0), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Add([]byte{0x03, 1, 2, 3}, uint8(FamBinaryBlock), uint8(0), uint8(0), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, uint8(FamBinaryBlock), uint8(0), uint8(0), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Add([]byte{0x12, 0x34, 0x56, 0x78, 0x9a}, uint8(FamQAnglePitchYaw), uint8(0), uint8(16), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Add([]byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0}, uint8(FamQAngleBits), uint8(0), uint8(200), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Add([]byte{0xff, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0}, uint8(FamQAnglePrecise), uint8(0), uint8(0), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Add([]byte{0xff, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0}, uint8(FamQAngleCoord), uint8(0), uint8(0), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Add([]byte{0xff, 0x34, 0x56, 0x78}, uint8(FamNormal), uint8(0), uint8(0), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Add([]byte{0x3f, 0x34}, uint8(FamPolyPointer), uint8(0), uint8(0), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, fam, elemFam, bits, comps uint8, qbits, qflags int32, low, high float32, lowSet, highSet bool, skip uint8) {
		d := fuzzDecoder(fam, elemFam, bits, comps, qbits, qflags, low, high, lowSet, highSet)
		if d.Q != nil {
			checkQuantizedSetup(t, d.Q)
		}
		if d.Elem != nil && d.Elem.Q != nil {
			checkQuantizedSetup(t, d.Elem.Q)
		}
		_ = d.Describe()

		r := bitio.NewReader(data)
		r.Skip(uint(skip % 8))
		start := r.Pos()
		v := d.Decode(r)
		if r.Pos() > r.Len() {
			t.Fatalf("%s: position %d past the end %d", d.Describe(), r.Pos(), r.Len())
		}
		_ = v.String()
		_ = v.AppendJSON(nil)

		// The same bits followed by padding.
		padded := append(append([]byte(nil), data...), make([]byte, 2*MaxStringBytes)...)
		for i := len(data); i < len(padded); i++ {
			padded[i] = byte(i*131) | 1 // non-zero: strings must not end early
		}
		pr := bitio.NewReader(padded)
		pr.Skip(uint(skip % 8))
		var pv Value
		d.DecodeTo(pr, &pv)
		if !r.Overflowed() {
			if r.Err() != nil {
				t.Fatal("error without overflow")
			}
			if pr.Pos() != r.Pos() || !pv.Equal(v) {
				t.Fatalf("%s: %v after %d bits, but %v after %d bits with padding", d.Describe(), v, r.Pos()-start, pv, pr.Pos()-start)
			}
		} else {
			if r.Err() == nil {
				t.Fatal("overflow without error")
			}
			if !pr.Overflowed() && pr.Pos() <= r.Len() {
				t.Fatalf("%s: overflowed on %d bits, yet read only %d bits of the padded data", d.Describe(), r.Len(), pr.Pos())
			}
		}
		if !pr.Overflowed() && pr.Pos() > r.Len() && !r.Overflowed() {
			t.Fatalf("%s: needed %d bits of %d but no overflow", d.Describe(), pr.Pos(), r.Len())
		}
	})
}

// checkQuantizedSetup checks the set-up's promises: a value in range for every
// stored number, and no more value bits than a uint32 holds.
func checkQuantizedSetup(t *testing.T, q *Quantized) {
	t.Helper()
	if q.Bits == 0 || q.Bits > 31 {
		t.Fatalf("quantized float with %d bits", q.Bits)
	}
	for _, raw := range []uint32{0, q.Steps() / 2, q.Steps()} {
		v := q.FromRaw(raw)
		if math.IsNaN(v) && !math.IsNaN(float64(q.Low)) && !math.IsNaN(float64(q.High)) && !math.IsInf(float64(q.High-q.Low), 0) {
			t.Fatalf("raw %d of %d bits over %g..%g gives NaN", raw, q.Bits, q.Low, q.High)
		}
	}
}
