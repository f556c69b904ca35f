package decoder

import (
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dembug/dembug/engine/bitio"
)

// encodeDecode writes v with d after a few random bits, adds random bits
// after it, and reads it back: the decoder must consume exactly the bits
// Encode wrote, whatever surrounds them.
func encodeDecode(t *rapid.T, d *Decoder, v Value) Value {
	t.Helper()
	var w bitio.Writer
	pre := uint(rapid.IntRange(0, 7).Draw(t, "prefix bits"))
	w.Bits(rapid.Uint64().Draw(t, "prefix"), pre)
	if err := d.Encode(&w, v); err != nil {
		t.Fatalf("%s: encode %v: %v", d.Describe(), v, err)
	}
	end := w.Len()
	w.Bits(rapid.Uint64().Draw(t, "suffix"), uint(rapid.IntRange(0, 64).Draw(t, "suffix bits")))
	r := bitio.NewReader(w.Bytes())
	r.Skip(pre)
	got := d.Decode(r)
	if r.Overflowed() {
		t.Fatalf("%s: decoding %v over-read: %v", d.Describe(), v, r.Err())
	}
	if r.Pos() != end {
		t.Fatalf("%s: %v: wrote %d bits, decoder consumed %d", d.Describe(), v, end-pre, r.Pos()-pre)
	}
	return got
}

// fixedPoint checks that a decoded value survives a second round trip
// unchanged: every value the format produces is encoded exactly.
func fixedPoint(t *rapid.T, d *Decoder, v Value) {
	t.Helper()
	if got := encodeDecode(t, d, v); !got.Equal(v) {
		t.Fatalf("%s: decoded value %v (%+v) came back as %v (%+v)", d.Describe(), v, v.F, got, got.F)
	}
}

// decodeBits decodes a value from random bits, the way it can appear in a
// replay.
func decodeBits(t *rapid.T, d *Decoder) Value {
	var w bitio.Writer
	for i := 0; i < 4; i++ {
		w.Bits(rapid.Uint64().Draw(t, "random bits"), 64)
	}
	return d.Decode(bitio.NewReader(w.Bytes()))
}

func TestEncodeIntegerFamilies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u32 := uint64(rapid.Uint32().Draw(t, "u32"))
		i32 := int64(rapid.Int32().Draw(t, "i32"))
		u64 := rapid.Uint64().Draw(t, "u64")
		i64 := rapid.Int64().Draw(t, "i64")
		cases := []struct {
			d Decoder
			v Value
		}{
			{Decoder{Family: FamUnsigned}, Uint(u32)},
			{Decoder{Family: FamDefault}, Uint(u32)},
			{Decoder{Family: FamHandle}, Handle(u32)},
			{Decoder{Family: FamSigned}, Int(i32)},
			{Decoder{Family: FamUnsigned64}, Uint(u64)},
			{Decoder{Family: FamSigned64}, Int(i64)},
			{Decoder{Family: FamFixed64}, Uint(u64)},
			{Decoder{Family: FamBool}, Bool(u64&1 == 1)},
			{Decoder{Family: FamUnsignedMinusOne}, Int(int64(u32) - 1)},
			{Decoder{Family: FamPolyPointer}, Int(int64(u32))},
			{Decoder{Family: FamPolyPointer}, Int(-1)},
		}
		for _, c := range cases {
			if got := encodeDecode(t, &c.d, c.v); !got.Equal(c.v) {
				t.Fatalf("%s: %v came back as %v", c.d.Describe(), c.v, got)
			}
		}
	})
}

func TestEncodeStringFamilies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.SampledFrom([]int{0, 1, 5, 40, 300, MaxStringBytes - 1}).Draw(t, "len")
		b := rapid.SliceOfN(rapid.ByteMin(1), n, n).Draw(t, "bytes")
		d := &Decoder{Family: FamString}
		if got := encodeDecode(t, d, String(string(b))); got.Str() != string(b) {
			t.Fatalf("string %q came back as %q", b, got.Str())
		}
		// A binary block may hold any byte, zero included.
		blk := rapid.SliceOfN(rapid.Byte(), 0, 600).Draw(t, "block")
		d = &Decoder{Family: FamBinaryBlock}
		if got := encodeDecode(t, d, String(string(blk))); got.Str() != string(blk) {
			t.Fatalf("block %x came back as %x", blk, got.Str())
		}
	})
}

func TestEncodeRawFloat(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := &Decoder{Family: FamNoScale}
		f := float64(math.Float32frombits(rapid.Uint32().Draw(t, "bits")))
		got := encodeDecode(t, d, Float(f))
		if !math.IsNaN(f) && got.F[0] != f {
			t.Fatalf("%g came back as %g", f, got.F[0])
		}
		fixedPoint(t, d, got)
	})
}

// quantizedGen draws a quantized float set up by NewQuantized from random
// schema values: bit count, range (either end possibly unset) and flags.
func quantizedGen(t *rapid.T) (*Quantized, bool) {
	bits := rapid.Int32Range(1, 31).Draw(t, "bits")
	flags := rapid.Int32Range(0, 15).Draw(t, "flags")
	lowSet := rapid.Bool().Draw(t, "low set")
	highSet := rapid.Bool().Draw(t, "high set")
	low := rapid.SampledFrom([]float32{0, -1, -2048}).Draw(t, "low preset")
	if rapid.Bool().Draw(t, "random low") {
		low = rapid.Float32Range(-5000, 5000).Draw(t, "low")
	}
	high := low + rapid.Float32Range(0.01, 20000).Draw(t, "span")
	if rapid.IntRange(0, 4).Draw(t, "high zero") == 0 && low < 0 {
		high = 0
	}
	q, err := NewQuantized(bits, flags, low, lowSet, high, highSet)
	if err != nil {
		return nil, false // ROUNDDOWN with ROUNDUP, or too many bits for ENCODE_INTEGERS
	}
	return &q, true
}

// checkQuantized round-trips values of interest through a quantized float.
func checkQuantized(t *rapid.T, q *Quantized) {
	d := &Decoder{Family: FamQuantized, Q: q}
	lo, hi := float64(q.Low), float64(q.High)
	mn, mx := min(lo, hi), max(lo, hi)
	var f float64
	switch rapid.IntRange(0, 4).Draw(t, "value kind") {
	case 0:
		f = lo
	case 1:
		f = hi
	case 2:
		if mn > 0 || mx < 0 {
			f = lo
		}
	case 3:
		f = mn + (mx-mn)*rapid.Float64Range(0, 1).Draw(t, "position")
	case 4:
		raw := rapid.Uint32Range(0, q.Steps()).Draw(t, "raw")
		fixedPoint(t, d, Float(q.FromRaw(raw)))
		return
	}
	got := encodeDecode(t, d, Float(f)).F[0]
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	special := (q.Flags&QuantRoundDown != 0 && same(f, lo)) || (q.Flags&QuantRoundUp != 0 && same(f, hi)) ||
		(q.Flags&QuantEncodeZero != 0 && f == 0)
	if special && got != f {
		t.Fatalf("%s: special value %g came back as %g", d.Describe(), f, got)
	}
	if step := q.Step(); math.Abs(got-f) > step*(1+1e-9)+1e-12*math.Abs(f) {
		t.Fatalf("%s: %g came back as %g, more than one step (%g) away", d.Describe(), f, got, step)
	}
	// Nearest: no stored value is closer than the one chosen.
	if raw, err := q.Raw(f); err != nil || math.Abs(q.FromRaw(raw)-f) < math.Abs(got-f) && !special {
		t.Fatalf("%s: %g came back as %g, raw %d gives %g (%v)", d.Describe(), f, got, raw, q.FromRaw(raw), err)
	}
	fixedPoint(t, d, Float(got))
}

func TestEncodeQuantizedFromSchema(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q, ok := quantizedGen(t)
		if !ok {
			t.Skip("schema values NewQuantized rejects")
		}
		checkQuantized(t, q)
	})
}

// TestEncodeQuantizedAnyFlags keeps every flag combination (set-up drops
// ROUNDDOWN always and often the others), so that each special-value bit
// is written and read, in every order the decoder checks them.
func TestEncodeQuantizedAnyFlags(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		low := rapid.Float32Range(-1000, 1000).Draw(t, "low")
		q := &Quantized{
			Bits:  uint32(rapid.IntRange(1, 31).Draw(t, "bits")),
			Flags: uint32(rapid.IntRange(0, 7).Draw(t, "flags")),
			Low:   low,
			High:  low + rapid.Float32Range(0.5, 5000).Draw(t, "span"),
		}
		checkQuantized(t, q)
	})
}

func TestEncodeQuantizedSeedExamples(t *testing.T) {
	// m_vecX: 13 bits, 0..256, ROUNDDOWN: 69.1875 is raw 2214, 13 bits.
	q, _ := NewQuantized(13, QuantRoundDown, 0, false, 256, true)
	var w bitio.Writer
	if err := (&Decoder{Family: FamQuantized, Q: &q}).Encode(&w, Float(69.1875)); err != nil {
		t.Fatal(err)
	}
	if r := bitio.NewReader(w.Bytes()); w.Len() != 13 || r.Bits(13) != 2214 {
		t.Fatalf("69.1875 wrote %d bits %x, want raw 2214 in 13 bits", w.Len(), w.Bytes())
	}
	// 256 is beyond the set-up range 0 … 255.96875.
	if err := (&Decoder{Family: FamQuantized, Q: &q}).Encode(&w, Float(256)); err == nil {
		t.Fatal("256 accepted for a range ending at 255.96875")
	}
	// m_flMana: 20 bits over 0..65536: 500 is raw 8000.
	m, _ := NewQuantized(20, 0, 0, false, 65536, true)
	w = bitio.Writer{}
	if err := (&Decoder{Family: FamQuantized, Q: &m}).Encode(&w, Float(500)); err != nil {
		t.Fatal(err)
	}
	if r := bitio.NewReader(w.Bytes()); w.Len() != 20 || r.Bits(20) != 8000 {
		t.Fatalf("mana 500 wrote %d bits %x, want raw 8000 in 20 bits", w.Len(), w.Bytes())
	}
	// ENCODE_ZERO kept over -1000..1000 (10 bits): 0 costs one bit.
	z, _ := NewQuantized(10, QuantEncodeZero, -1000, true, 1000, true)
	if z.Flags != QuantEncodeZero {
		t.Fatalf("flags %s, want ENCODE_ZERO kept", FlagNames(z.Flags))
	}
	w = bitio.Writer{}
	if err := (&Decoder{Family: FamQuantized, Q: &z}).Encode(&w, Float(0)); err != nil || w.Len() != 1 || w.Bytes()[0] != 1 {
		t.Fatalf("zero wrote %d bits %x (%v), want the single bit 1", w.Len(), w.Bytes(), err)
	}
}

// scalarTolerance is how far a lossy scalar family may move a value.
func scalarTolerance(d *Decoder, f float64) float64 {
	switch d.Family {
	case FamQuantized:
		return d.Q.Step()*(1+1e-9) + 1e-12*math.Abs(f)
	case FamCoord:
		return 1.0/64 + 1e-9
	case FamSimTime:
		// Half a tick, or float32's spacing at that size.
		return float64(d.TickInterval)/2*(1+1e-6) + math.Abs(f)*0x1p-23
	case FamNoScale:
		return math.Abs(f) * 0x1p-24
	}
	return 0
}

// scalarGen draws a scalar float decoder and a value it can hold.
func scalarGen(t *rapid.T) (*Decoder, float64) {
	switch rapid.IntRange(0, 3).Draw(t, "scalar") {
	case 0:
		return &Decoder{Family: FamNoScale}, float64(rapid.Float32Range(-1e6, 1e6).Draw(t, "f"))
	case 1:
		for {
			if q, ok := quantizedGen(t); ok {
				lo, hi := float64(q.Low), float64(q.High)
				return &Decoder{Family: FamQuantized, Q: q}, lo + (hi-lo)*rapid.Float64Range(0, 1).Draw(t, "pos")
			}
		}
	case 2:
		return &Decoder{Family: FamCoord}, rapid.Float64Range(-coordMax, coordMax).Draw(t, "f")
	}
	ti := rapid.SampledFrom([]float32{1.0 / 30, 1.0 / 64, 0.05}).Draw(t, "tick interval")
	return &Decoder{Family: FamSimTime, TickInterval: ti}, rapid.Float64Range(0, 1e6).Draw(t, "f")
}

func TestEncodeCoord(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := &Decoder{Family: FamCoord}
		f := rapid.Float64Range(-coordMax, coordMax).Draw(t, "f")
		got := encodeDecode(t, d, Float(f)).F[0]
		if math.Abs(got-f) > 1.0/64+1e-9 {
			t.Fatalf("coord %g came back as %g", f, got)
		}
		fixedPoint(t, d, Float(got))
		fixedPoint(t, d, decodeBits(t, d))
	})
	// Zero costs the two presence bits.
	var w bitio.Writer
	if err := (&Decoder{Family: FamCoord}).Encode(&w, Float(0)); err != nil || w.Len() != 2 {
		t.Fatalf("coord 0: %d bits, %v", w.Len(), err)
	}
	if err := (&Decoder{Family: FamCoord}).Encode(&w, Float(20000)); err == nil {
		t.Fatal("coord 20000 accepted")
	}
}

func TestEncodeSimTime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ti := rapid.SampledFrom([]float32{1.0 / 30, 1.0 / 64, 1.0 / 60}).Draw(t, "tick interval")
		if rapid.Bool().Draw(t, "random interval") {
			ti = rapid.Float32Range(0.001, 1).Draw(t, "interval")
		}
		d := &Decoder{Family: FamSimTime, TickInterval: ti}
		k := uint64(rapid.Uint32().Draw(t, "ticks"))
		if rapid.Bool().Draw(t, "small") {
			k %= 1 << 20
		}
		base := simTimeValue(k, ti)
		f := base + float64(ti)*rapid.Float64Range(-0.49, 0.49).Draw(t, "jitter")
		if f < 0 {
			f = 0
		}
		got := encodeDecode(t, d, Float(f)).F[0]
		if math.Abs(got-f) > math.Abs(base-f)+1e-12 {
			t.Fatalf("%g (near %d ticks = %g) came back as %g, farther than %g", f, k, base, got, base)
		}
		fixedPoint(t, d, Float(base))
	})
}

func TestEncodeRuneTime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := &Decoder{Family: FamRuneTime}
		k := rapid.Uint32Range(0, 15).Draw(t, "k")
		f := float64(math.Float32frombits(k))
		fixedPoint(t, d, Float(f))
		if got := encodeDecode(t, d, Float(f+smallestDenormal*rapid.Float64Range(-0.4, 0.4).Draw(t, "jitter"))); got.F[0] != f {
			t.Fatalf("rune time near %g came back as %g", f, got.F[0])
		}
	})
	if err := (&Decoder{Family: FamRuneTime}).Encode(&bitio.Writer{}, Float(1)); err == nil {
		t.Fatal("rune time 1 accepted")
	}
}

func TestEncodeNormal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := &Decoder{Family: FamNormal}
		theta := rapid.Float64Range(0, math.Pi).Draw(t, "theta")
		phi := rapid.Float64Range(-math.Pi, math.Pi).Draw(t, "phi")
		x, y, z := math.Sin(theta)*math.Cos(phi), math.Sin(theta)*math.Sin(phi), math.Cos(theta)
		got := encodeDecode(t, d, Vector(x, y, z))
		const step = 1.0 / (1<<11 - 1)
		if math.Abs(got.F[0]-x) > step/2+1e-6 || math.Abs(got.F[1]-y) > step/2+1e-6 || math.Abs(got.F[2]-z) > 0.03 {
			t.Fatalf("normal (%g %g %g) came back as %v", x, y, z, got)
		}
		if math.Abs(z) > 0.03 && math.Signbit(got.F[2]) != math.Signbit(z) {
			t.Fatalf("normal (%g %g %g) came back as %v: z changed sign", x, y, z, got)
		}
		fixedPoint(t, d, got)
		fixedPoint(t, d, decodeBits(t, d)) // any decoded normal, even from junk bits
	})
}

// angleDist is the distance between two angles in degrees, modulo 360.
func angleDist(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 360)
	return min(d, 360-d)
}

func TestEncodeAngles(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := [3]float64{}
		for i := range a {
			a[i] = rapid.Float64Range(-720, 720).Draw(t, "angle")
		}
		switch rapid.IntRange(0, 3).Draw(t, "form") {
		case 0, 1:
			n := uint8(rapid.IntRange(1, 32).Draw(t, "bits"))
			d := &Decoder{Family: FamQAngleBits, Bits: n}
			if rapid.Bool().Draw(t, "pitch yaw") {
				d.Family, a[2] = FamQAnglePitchYaw, 0
			}
			// Half a step, plus float32's rounding near 360.
			tol := 360/math.Exp2(float64(n))/2*(1+1e-6) + 360*0x1p-22
			got := encodeDecode(t, d, Vector(a[0], a[1], a[2]))
			for i := range 3 {
				if angleDist(got.F[i], a[i]) > tol {
					t.Fatalf("%s: %v came back as %v", d.Describe(), a, got)
				}
			}
			fixedPoint(t, d, got)
			fixedPoint(t, d, decodeBits(t, d))
		case 2:
			d := &Decoder{Family: FamQAngleCoord}
			got := encodeDecode(t, d, Vector(a[0], a[1], a[2]))
			for i := range 3 {
				if math.Abs(got.F[i]-a[i]) > 1.0/64+1e-9 {
					t.Fatalf("coord angles %v came back as %v", a, got)
				}
			}
			fixedPoint(t, d, got)
			fixedPoint(t, d, decodeBits(t, d))
		case 3:
			d := &Decoder{Family: FamQAnglePrecise}
			got := encodeDecode(t, d, Vector(a[0], a[1], a[2]))
			for i := range 3 {
				if angleDist(got.F[i], a[i]) > 360.0/(1<<20)/2+360*0x1p-22 { // half a step, float32 rounding
					t.Fatalf("precise angles %v came back as %v", a, got)
				}
			}
			fixedPoint(t, d, got)
			fixedPoint(t, d, decodeBits(t, d))
		}
	})
}

func TestEncodeVector(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := uint8(rapid.IntRange(2, 4).Draw(t, "components"))
		elem, _ := scalarGen(t)
		d := &Decoder{Family: FamVector, Components: n, Elem: elem}
		v := Value{Kind: KindVector, N: n}
		for i := 0; i < int(n); i++ {
			_, f := scalarGen(t) // only for a spread of magnitudes
			switch elem.Family {
			case FamQuantized:
				lo, hi := float64(elem.Q.Low), float64(elem.Q.High)
				f = lo + (hi-lo)*rapid.Float64Range(0, 1).Draw(t, "pos")
			case FamCoord:
				f = rapid.Float64Range(-coordMax, coordMax).Draw(t, "f")
			case FamSimTime:
				f = rapid.Float64Range(0, 1e6).Draw(t, "f")
			case FamNoScale:
				f = float64(float32(f))
			}
			v.F[i] = f
		}
		got := encodeDecode(t, d, v)
		for i := 0; i < int(n); i++ {
			if math.Abs(got.F[i]-v.F[i]) > scalarTolerance(elem, v.F[i]) {
				t.Fatalf("%s: %v came back as %v", d.Describe(), v, got)
			}
		}
		fixedPoint(t, d, got)
	})
}

func TestEncodeRejectsWithoutWriting(t *testing.T) {
	q, _ := NewQuantized(8, 0, 0, true, 10, true)
	cases := []struct {
		name string
		d    Decoder
		v    Value
		msg  string
	}{
		{"kind", Decoder{Family: FamUnsigned}, Int(1), "needs a uint value"},
		{"32 bits", Decoder{Family: FamUnsigned}, Uint(1 << 32), "more than 32 bits"},
		{"int32 range", Decoder{Family: FamSigned}, Int(1 << 31), "outside the 32-bit range"},
		{"zero byte", Decoder{Family: FamString}, String("a\x00b"), "zero byte"},
		{"long string", Decoder{Family: FamString}, String(strings.Repeat("x", MaxStringBytes)), "at most"},
		{"range", Decoder{Family: FamQuantized, Q: &q}, Float(11), "outside"},
		{"NaN", Decoder{Family: FamQuantized, Q: &q}, Float(math.NaN()), "NaN"},
		{"components", Decoder{Family: FamVector, Components: 3, Elem: &Decoder{Family: FamNoScale}}, Vector(1, 2), "needs 3 components"},
		{"vector element", Decoder{Family: FamVector, Components: 2, Elem: &Decoder{Family: FamQuantized, Q: &q}}, Vector(1, 99), "outside"},
		{"roll", Decoder{Family: FamQAnglePitchYaw, Bits: 8}, Vector(1, 2, 3), "roll"},
		{"not unit", Decoder{Family: FamNormal}, Vector(1, 1, 1), "not a unit vector"},
		{"minus one", Decoder{Family: FamUnsignedMinusOne}, Int(-2), "must be in"},
		{"negative sim time", Decoder{Family: FamSimTime, TickInterval: 1.0 / 30}, Float(-1), "outside"},
	}
	for _, c := range cases {
		var w bitio.Writer
		w.Bits(5, 3)
		err := c.d.Encode(&w, c.v)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.msg)
		}
		if w.Len() != 3 {
			t.Errorf("%s: a failed encode wrote %d bits", c.name, w.Len()-3)
		}
	}
}

// TestEveryFamilyEncodes makes sure no family is left without an encoder.
func TestEveryFamilyEncodes(t *testing.T) {
	q, _ := NewQuantized(8, 0, 0, true, 10, true)
	samples := map[Family]Value{
		FamUnsigned: Uint(1), FamDefault: Uint(1), FamUnsigned64: Uint(1), FamSigned: Int(-1),
		FamSigned64: Int(-1), FamBool: Bool(true), FamFixed64: Uint(1), FamNoScale: Float(1),
		FamQuantized: Float(1), FamCoord: Float(1), FamSimTime: Float(1), FamRuneTime: Float(0),
		FamNormal: Vector(0, 0, 1), FamQAnglePitchYaw: Vector(90, 45, 0), FamQAngleBits: Vector(1, 2, 3),
		FamQAngleCoord: Vector(1, 2, 3), FamQAnglePrecise: Vector(1, 2, 3), FamVector: Vector(1, 2, 3),
		FamString: String("x"), FamHandle: Handle(1), FamUnsignedMinusOne: Int(-1), FamPolyPointer: Int(1),
		FamBinaryBlock: String("\x00\x01"),
	}
	for _, f := range Families() {
		v, ok := samples[f]
		if !ok {
			t.Errorf("family %s has no sample here: add one", f)
			continue
		}
		d := &Decoder{Family: f, Bits: 8, Components: 3, Elem: &Decoder{Family: FamNoScale}, Q: &q, TickInterval: 1.0 / 30}
		var w bitio.Writer
		if err := d.Encode(&w, v); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		r := bitio.NewReader(w.Bytes())
		got := d.Decode(r)
		if r.Pos() != w.Len() || got.Kind != v.Kind {
			t.Errorf("%s: %v came back as %v after %d of %d bits", f, v, got, r.Pos(), w.Len())
		}
	}
}
