package decoder

import (
	"math"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

// bitsOf packs values lowest bit first, as the reader consumes them:
// bitsOf(2214, 13) is the 13-bit little-endian field.
func bitsOf(parts ...uint64) []byte {
	var w bitio.Writer
	for i := 0; i < len(parts); i += 2 {
		w.Bits(parts[i], uint(parts[i+1]))
	}
	return w.Bytes()
}

func TestQuantizedSeedPositionOffset(t *testing.T) {
	// m_vecX: 13 bits over 0..256 with ROUNDDOWN. After set-up the top moves
	// down one step to 255.96875, low is exact, so the flag is dropped and a
	// value costs 13 bits, not 14.
	q, err := NewQuantized(13, QuantRoundDown, 0, false, 256, true)
	if err != nil {
		t.Fatal(err)
	}
	if q.Bits != 13 || q.Flags != 0 || q.High != 255.96875 || q.Low != 0 {
		t.Fatalf("set-up gave bits %d flags %d range %g..%g; want 13, 0, 0..255.96875", q.Bits, q.Flags, q.Low, q.High)
	}
	d := &Decoder{Family: FamQuantized, Q: &q}
	r := bitio.NewReader(bitsOf(2214, 13))
	v := d.Decode(r)
	if v.Kind != KindFloat || v.F[0] != 69.1875 {
		t.Fatalf("raw 2214 decoded to %v, want 69.1875", v)
	}
	if r.Pos() != 13 {
		t.Fatalf("consumed %d bits, want 13", r.Pos())
	}
}

func TestQuantizedSeedMana(t *testing.T) {
	// m_flMana: 20 bits over 0..65536, no flags: raw 8000 is 500.00047683761295
	// computed in float64.
	q, err := NewQuantized(20, 0, 0, false, 65536, true)
	if err != nil {
		t.Fatal(err)
	}
	d := &Decoder{Family: FamQuantized, Q: &q}
	r := bitio.NewReader(bitsOf(8000, 20))
	if v := d.Decode(r); v.F[0] != 500.00047683761295 {
		t.Fatalf("raw 8000 decoded to %.17g, want 500.00047683761295", v.F[0])
	}
	if r.Pos() != 20 {
		t.Fatalf("consumed %d bits, want 20", r.Pos())
	}
}

func TestQuantizedFlagSetupIsFloat32(t *testing.T) {
	// ENCODE_ZERO over -2.5..1 with 3 bits: the flag is dropped when the
	// plain formula already hits 0. In float32 (Valve's arithmetic) step 5
	// lands exactly on 0, so values cost 3 bits; the same test in float64
	// misses 0 by a rounding error and would keep the flag: one bit too many
	// per value, and every later field in the packet shifts.
	q, err := NewQuantized(3, QuantEncodeZero, -2.5, true, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if q.Flags != 0 || q.Bits != 3 {
		t.Fatalf("set-up kept flags %s with %d bits; want none and 3", FlagNames(q.Flags), q.Bits)
	}
	d := &Decoder{Family: FamQuantized, Q: &q}
	r := bitio.NewReader(bitsOf(5, 3))
	if v := d.Decode(r); v.F[0] != 0 || r.Pos() != 3 {
		t.Fatalf("raw 5 gave %v after %d bits, want 0 after 3", v, r.Pos())
	}
	// Over -60..30 with 2 bits it is the other way round: float32 keeps the
	// flag, and the special-value bit comes first.
	q2, _ := NewQuantized(2, QuantEncodeZero, -60, true, 30, true)
	if q2.Flags != QuantEncodeZero {
		t.Fatalf("-60..30: flags %s, want ENCODE_ZERO kept", FlagNames(q2.Flags))
	}
	d2 := &Decoder{Family: FamQuantized, Q: &q2}
	r2 := bitio.NewReader(bitsOf(0, 1, 3, 2))
	if v := d2.Decode(r2); v.F[0] != 30 || r2.Pos() != 3 {
		t.Fatalf("-60..30 raw 3: %v after %d bits, want 30 after 3", v, r2.Pos())
	}
}

func TestQuantizedRoundUpAndEncodeIntegers(t *testing.T) {
	// ROUNDUP moves the bottom of the range up one step (100/256); the
	// plain formula then hits high exactly, so the flag is dropped.
	q, err := NewQuantized(8, QuantRoundUp, 0, true, 100, true)
	if err != nil {
		t.Fatal(err)
	}
	if q.Low != 0.390625 || q.Flags != 0 {
		t.Fatalf("ROUNDUP set-up gave low %g flags %d, want 0.390625 and 0", q.Low, q.Flags)
	}
	// A kept ROUNDUP flag costs one bit meaning "exactly high".
	kept := Quantized{Bits: 8, Flags: QuantRoundUp, Low: 0, High: 100}
	d := &Decoder{Family: FamQuantized, Q: &kept}
	r := bitio.NewReader(bitsOf(1, 1))
	if v := d.Decode(r); v.F[0] != 100 || r.Pos() != 1 {
		t.Fatalf("roundup bit gave %v after %d bits, want 100 after 1", v, r.Pos())
	}
	// ENCODE_INTEGERS widens 0..10 over 2 bits to 5 bits covering 0..16.
	qi, err := NewQuantized(2, QuantEncodeIntegers, 0, true, 10, true)
	if err != nil {
		t.Fatal(err)
	}
	if qi.Bits != 5 || qi.Low != 0 || qi.High != 15.5 {
		t.Fatalf("ENCODE_INTEGERS set-up: bits %d range %g..%g, want 5 bits 0..15.5", qi.Bits, qi.Low, qi.High)
	}
}

func TestQuantizedRejectsBothRoundFlags(t *testing.T) {
	if _, err := NewQuantized(8, QuantRoundDown|QuantRoundUp, 1, true, 2, true); err == nil {
		t.Fatal("ROUNDDOWN|ROUNDUP accepted")
	}
	if _, err := NewQuantized(0, 0, 0, true, 1, true); err == nil {
		t.Fatal("0 bits accepted")
	}
}

func TestScalarDecoders(t *testing.T) {
	cases := []struct {
		name string
		d    Decoder
		data []byte
		want Value
		bits uint
	}{
		{"unsigned 300", Decoder{Family: FamUnsigned}, bitsOf(0xac, 8, 0x02, 8), Uint(300), 16},
		{"signed -3 (zigzag 5)", Decoder{Family: FamSigned}, bitsOf(5, 8), Int(-3), 8},
		{"signed64 min", Decoder{Family: FamSigned64}, bitsOf(0xffffffffffffffff, 64, 0xff, 8, 0x01, 8), Int(math.MinInt64), 80},
		{"unsigned64 max", Decoder{Family: FamUnsigned64}, bitsOf(0xffffffffffffffff, 64, 0xff, 8, 0x01, 8), Uint(math.MaxUint64), 80},
		{"bool", Decoder{Family: FamBool}, bitsOf(1, 1), Bool(true), 1},
		{"fixed64", Decoder{Family: FamFixed64}, bitsOf(2, 64), Uint(2), 64},
		{"raw float", Decoder{Family: FamNoScale}, bitsOf(uint64(math.Float32bits(1.5)), 32), Float(1.5), 32},
		{"coord zero", Decoder{Family: FamCoord}, bitsOf(0, 2), Float(0), 2},
		// int and fraction present, negative, int 5 stored as 4, fraction 8/32
		{"coord -5.25", Decoder{Family: FamCoord}, bitsOf(1, 1, 1, 1, 1, 1, 4, 14, 8, 5), Float(-5.25), 22},
		{"simtime", Decoder{Family: FamSimTime, TickInterval: 1.0 / 30}, bitsOf(60, 8), Float(2), 8},
		{"runetime", Decoder{Family: FamRuneTime}, bitsOf(3, 4), Float(float64(math.Float32frombits(3))), 4},
		{"handle", Decoder{Family: FamHandle}, bitsOf(0x81, 8, 0x01, 8), Handle(129), 16},
		{"string", Decoder{Family: FamString}, bitsOf('h', 8, 'i', 8, 0, 8), String("hi"), 24},
		{"pitch/yaw 8 bits", Decoder{Family: FamQAnglePitchYaw, Bits: 8}, bitsOf(64, 8, 128, 8), Vector(90, 180, 0), 16},
		{"qangle coord form", Decoder{Family: FamQAngleCoord}, bitsOf(0, 1, 1, 1, 0, 1, 0, 2), Vector(0, 0, 0), 3 + 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := bitio.NewReader(c.data)
			got := c.d.Decode(r)
			if !got.Equal(c.want) {
				t.Fatalf("got %v (%+v), want %v", got, got, c.want)
			}
			if r.Pos() != c.bits {
				t.Fatalf("consumed %d bits, want %d", r.Pos(), c.bits)
			}
			if r.Overflowed() {
				t.Fatal("overflowed")
			}
		})
	}
}

func TestNormalVector(t *testing.T) {
	// x present, y absent: x = +2047/2047 = 1, then z = sqrt(1-1) = 0.
	d := Decoder{Family: FamNormal}
	r := bitio.NewReader(bitsOf(1, 1, 0, 1, 0, 1, 2047, 11, 0, 1))
	v := d.Decode(r)
	if v.N != 3 || v.F[0] != 1 || v.F[1] != 0 || v.F[2] != 0 || r.Pos() != 15 {
		t.Fatalf("normal = %v after %d bits", v, r.Pos())
	}
}

func TestVectorOfQuantized(t *testing.T) {
	q, _ := NewQuantized(13, QuantRoundDown, 0, false, 256, true)
	d := Decoder{Family: FamVector, Components: 3, Elem: &Decoder{Family: FamQuantized, Q: &q}}
	r := bitio.NewReader(bitsOf(2214, 13, 0, 13, 8191, 13))
	v := d.Decode(r)
	if !v.Equal(Vector(69.1875, 0, 255.96875)) || r.Pos() != 39 {
		t.Fatalf("vector = %v after %d bits", v, r.Pos())
	}
}

func TestOverReadIsSticky(t *testing.T) {
	r := bitio.NewReader([]byte{0x80}) // a varint that never ends
	d := Decoder{Family: FamUnsigned}
	d.Decode(r)
	if !r.Overflowed() || r.Err() == nil {
		t.Fatal("over-read not reported")
	}
}

func TestValueJSON(t *testing.T) {
	cases := map[string]Value{
		"18446744073709551615": Uint(math.MaxUint64),
		"-9223372036854775808": Int(math.MinInt64),
		"[1,2.5,-3]":           Vector(1, 2.5, -3),
		`"a\"b"`:               String(`a"b`),
		`"NaN"`:                Float(math.NaN()),
		"true":                 Bool(true),
	}
	for want, v := range cases {
		if got := string(v.AppendJSON(nil)); got != want {
			t.Errorf("%v as JSON = %s, want %s", v, got, want)
		}
	}
}

func TestDecodeAllocatesNothing(t *testing.T) {
	q, _ := NewQuantized(13, QuantRoundDown, 0, false, 256, true)
	decs := []*Decoder{{Family: FamUnsigned}, {Family: FamSigned}, {Family: FamNoScale}, {Family: FamQuantized, Q: &q}, {Family: FamBool}}
	data := bitsOf(0x7f, 8, 0x7f, 8, 0, 32, 2214, 13, 1, 1)
	var r bitio.Reader
	n := testing.AllocsPerRun(100, func() {
		r.Reset(data)
		for _, d := range decs {
			d.Decode(&r)
		}
	})
	if n != 0 {
		t.Fatalf("%v allocations per decode run, want 0", n)
	}
}

// TestDecodeWindowAgreesWithDecodeTo: where DecodeWindow or
// DecodeQuantizedWindow decodes a value, it is DecodeTo's value and bit
// count; every other family they leave to DecodeTo.
func TestDecodeWindowAgreesWithDecodeTo(t *testing.T) {
	q, err := NewQuantized(13, QuantRoundDown, 0, false, 256, true)
	if err != nil {
		t.Fatal(err)
	}
	decs := []*Decoder{{Family: FamQuantized, Q: &q}}
	for _, f := range Families() {
		if f != FamQuantized && f != FamVector {
			decs = append(decs, &Decoder{Family: f, Bits: 8, TickInterval: 1.0 / 30})
		}
	}
	decoded := 0
	for i := range uint64(4096) {
		w := i*0x9E3779B97F4A7C15 ^ i<<52
		data := bitsOf(w, 64, w>>7, 64)
		for _, d := range decs {
			r := bitio.NewReader(data)
			win, _ := r.Window()
			var got, want Value
			n := d.DecodeWindow(win, &got)
			if n == 0 {
				n = d.DecodeQuantizedWindow(win, &got)
			}
			d.DecodeTo(r, &want)
			if n == 0 {
				if d.Family == FamNoScale || d.Family == FamQuantized {
					t.Fatalf("DecodeWindow and DecodeQuantizedWindow left a %s to DecodeTo", d.Family)
				}
				continue
			}
			decoded++
			if n != r.Pos() || !got.Equal(want) {
				t.Fatalf("%s from %#x: DecodeWindow %v in %d bits, DecodeTo %v in %d", d.Family, w, got, n, want, r.Pos())
			}
		}
	}
	if decoded != 2*4096 {
		t.Fatalf("%d values decoded from windows, want %d", decoded, 2*4096)
	}
}
