package decoder

import (
	"fmt"
	"math"
	"strings"

	"github.com/dembug/dembug/engine/bitio"
)

// EncodeError says that a value cannot be written in a decoder's format:
// the wrong kind of value, or one outside what the format can hold.
type EncodeError struct {
	Family Family
	Value  Value
	Msg    string
}

func (e *EncodeError) Error() string {
	return fmt.Sprintf("encode %s as %s: %s", e.Value.String(), e.Family, e.Msg)
}

// Encode writes v in the form Decode reads, so that Decode gives back v
// exactly where the format is exact (integers, booleans, strings, handles,
// raw floats) and the nearest value the format can hold where it is lossy
// (quantized floats, coords, simulation and rune time, normals, angles):
// within one quantization step, and exactly for any value Decode itself
// produced. Encode writes nothing when it returns an error.
//
// The value's Kind must be the one Decode returns for the family: KindUint
// for the unsigned varints and fixed64, KindInt for the signed varints, the
// unsigned−1 form and the polymorphic pointer (−1 for absent), KindBool,
// KindFloat for the scalar float families, KindVector (with the right
// number of components) for vectors, normals and angles, KindString for
// strings and binary blocks, and KindHandle.
func (d *Decoder) Encode(w *bitio.Writer, v Value) error {
	// Planned into a scratch writer first, so that a value that fails half
	// way leaves w untouched.
	var out bitio.Writer
	if err := d.plan(&out, v); err != nil {
		return err
	}
	w.Append(&out)
	return nil
}

func (d *Decoder) fail(v Value, format string, args ...any) error {
	return &EncodeError{Family: d.Family, Value: v, Msg: fmt.Sprintf(format, args...)}
}

var encodeKindNames = [...]string{"none", "bool", "uint", "int", "float", "vector", "string", "handle"}

func encodeKindName(k Kind) string {
	if int(k) < len(encodeKindNames) {
		return encodeKindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

func (d *Decoder) want(v Value, k Kind) error {
	if v.Kind != k {
		return d.fail(v, "needs a %s value, got %s", encodeKindName(k), encodeKindName(v.Kind))
	}
	return nil
}

func (d *Decoder) wantVector(v Value, n uint8) error {
	if err := d.want(v, KindVector); err != nil {
		return err
	}
	if v.N != n {
		return d.fail(v, "needs %d components, got %d", n, v.N)
	}
	return nil
}

func (d *Decoder) plan(out *bitio.Writer, v Value) error {
	switch d.Family {
	case FamUnsigned, FamDefault, FamHandle:
		k := KindUint
		if d.Family == FamHandle {
			k = KindHandle
		}
		if err := d.want(v, k); err != nil {
			return err
		}
		if v.U > math.MaxUint32 {
			return d.fail(v, "more than 32 bits")
		}
		out.VarUint64(v.U)
	case FamSigned:
		if err := d.want(v, KindInt); err != nil {
			return err
		}
		i := v.Int64()
		if i < math.MinInt32 || i > math.MaxInt32 {
			return d.fail(v, "outside the 32-bit range")
		}
		out.VarUint64(uint64(uint32(int32(i)<<1) ^ uint32(int32(i)>>31)))
	case FamUnsigned64, FamFixed64:
		if err := d.want(v, KindUint); err != nil {
			return err
		}
		if d.Family == FamFixed64 {
			out.Bits(v.U, 64)
		} else {
			out.VarUint64(v.U)
		}
	case FamSigned64:
		if err := d.want(v, KindInt); err != nil {
			return err
		}
		i := v.Int64()
		out.VarUint64(uint64(i<<1) ^ uint64(i>>63))
	case FamBool:
		if err := d.want(v, KindBool); err != nil {
			return err
		}
		if v.U > 1 {
			return d.fail(v, "a boolean holds 0 or 1")
		}
		out.Bits(v.U, 1)
	case FamUnsignedMinusOne:
		if err := d.want(v, KindInt); err != nil {
			return err
		}
		i := v.Int64()
		if i < -1 || i > math.MaxUint32-1 {
			return d.fail(v, "must be in -1 … %d", uint64(math.MaxUint32-1))
		}
		out.VarUint64(uint64(i + 1))
	case FamPolyPointer:
		if err := d.want(v, KindInt); err != nil {
			return err
		}
		i := v.Int64()
		if i < -1 || i > math.MaxUint32 {
			return d.fail(v, "must be -1 (absent) or a serializer index up to %d", uint64(math.MaxUint32))
		}
		out.Bool(i >= 0)
		if i >= 0 {
			out.UBitVar(uint32(i))
		}
	case FamString:
		if err := d.want(v, KindString); err != nil {
			return err
		}
		s := v.Str()
		if strings.IndexByte(s, 0) >= 0 {
			return d.fail(v, "a string cannot hold a zero byte")
		}
		if len(s) >= MaxStringBytes {
			return d.fail(v, "%d bytes; at most %d fit", len(s), MaxStringBytes-1)
		}
		out.String(s)
	case FamBinaryBlock:
		if err := d.want(v, KindString); err != nil {
			return err
		}
		s := v.Str()
		if uint64(len(s)) > math.MaxUint32 {
			return d.fail(v, "%d bytes; a block holds at most 2^32−1", len(s))
		}
		out.VarUint64(uint64(len(s)))
		out.RawBytes([]byte(s))
	case FamNoScale, FamQuantized, FamCoord, FamSimTime, FamRuneTime:
		if err := d.want(v, KindFloat); err != nil {
			return err
		}
		return d.planFloat(out, v, v.F[0])
	case FamVector:
		if err := d.wantVector(v, d.Components); err != nil {
			return err
		}
		if d.Elem == nil || !d.Elem.Family.IsFloat() {
			return d.fail(v, "vector without a scalar float component decoder")
		}
		for i := 0; i < int(d.Components); i++ {
			if err := d.Elem.planFloat(out, v, v.F[i]); err != nil {
				return err
			}
		}
	case FamNormal:
		if err := d.wantVector(v, 3); err != nil {
			return err
		}
		return d.planNormal(out, v)
	case FamQAnglePitchYaw, FamQAngleBits:
		if err := d.wantVector(v, 3); err != nil {
			return err
		}
		n := uint(d.Bits)
		if n > 32 {
			return d.fail(v, "%d bits per angle; at most 32", n)
		}
		count := 3
		if d.Family == FamQAnglePitchYaw {
			count = 2
			if r := math.Mod(v.F[2], 360); r != 0 {
				return d.fail(v, "roll %g cannot be sent: this form carries pitch and yaw only", v.F[2])
			}
		}
		for i := 0; i < count; i++ {
			a := v.F[i]
			if math.IsNaN(a) || math.IsInf(a, 0) {
				return d.fail(v, "angle %g is not finite", a)
			}
			out.Bits(nBitAngleRaw(a, n), n)
		}
	case FamQAngleCoord, FamQAnglePrecise:
		if err := d.wantVector(v, 3); err != nil {
			return err
		}
		var present [3]bool
		var parts [3]bitio.Writer
		for i := 0; i < 3; i++ {
			a := v.F[i]
			if d.Family == FamQAngleCoord {
				if err := coordPlan(&parts[i], a); err != nil {
					return d.fail(v, "component %d: %v", i, err)
				}
				present[i] = coordRounded(a) != 0 || (a == 0 && math.Signbit(a))
			} else {
				if math.IsNaN(a) || math.IsInf(a, 0) {
					return d.fail(v, "angle %g is not finite", a)
				}
				raw := preciseAngleRaw(a)
				parts[i].Bits(raw, 20)
				present[i] = preciseAngleValue(uint32(raw)) != 0
			}
		}
		for i := 0; i < 3; i++ {
			out.Bool(present[i])
		}
		for i := 0; i < 3; i++ {
			if present[i] {
				out.Append(&parts[i])
			}
		}
	default:
		return d.fail(v, "unknown family")
	}
	return nil
}

// EncodeFloat writes one float in a scalar float family, as Float reads it.
func (d *Decoder) EncodeFloat(w *bitio.Writer, f float64) error {
	var out bitio.Writer
	if err := d.planFloat(&out, Float(f), f); err != nil {
		return err
	}
	w.Append(&out)
	return nil
}

// planFloat adds one float in d's scalar family; v is the whole value, for
// error messages.
func (d *Decoder) planFloat(out *bitio.Writer, v Value, f float64) error {
	if math.IsNaN(f) && d.Family != FamNoScale {
		return d.fail(v, "NaN cannot be encoded")
	}
	switch d.Family {
	case FamNoScale:
		out.Bits(uint64(math.Float32bits(float32(f))), 32)
	case FamQuantized:
		if d.Q == nil {
			return d.fail(v, "quantized float without parameters")
		}
		if err := d.Q.plan(out, f); err != nil {
			return d.fail(v, "%v", err)
		}
	case FamCoord:
		if err := coordPlan(out, f); err != nil {
			return d.fail(v, "%v", err)
		}
	case FamSimTime:
		ti := d.TickInterval
		if !(ti > 0) || math.IsInf(float64(ti), 0) {
			return d.fail(v, "tick interval %g is not positive", ti)
		}
		top := uint64(math.MaxUint32)
		if f < -float64(ti)/2 || f > simTimeValue(top, ti)+float64(ti)/2 {
			return d.fail(v, "outside 0 … 2^32−1 ticks of %g s", ti)
		}
		out.VarUint64(searchMonotone(top, f, func(k uint64) float64 { return simTimeValue(k, ti) }))
	case FamRuneTime:
		// Four bits taken as the low bits of a float32: the values are the
		// denormals k × 2^-149, k = 0 … 15.
		k := math.Round(f / smallestDenormal)
		if k < 0 || k > 15 {
			return d.fail(v, "rune time holds only k × 2^-149 for k = 0 … 15")
		}
		out.Bits(uint64(k), 4)
	default:
		return d.fail(v, "not a scalar float family")
	}
	return nil
}

var smallestDenormal = float64(math.Float32frombits(1))

// simTimeValue is what Float decodes k ticks to (float32 arithmetic).
func simTimeValue(k uint64, ti float32) float64 { return float64(float32(k) * ti) }

// plan adds a quantized float: the special-value bits the set-up kept,
// then, unless a special value was chosen, the nearest step.
func (q *Quantized) plan(out *bitio.Writer, f float64) error {
	lo, hi := float64(q.Low), float64(q.High)
	// Low and High are matched bit for bit: with Low = −0, a +0 must not
	// come back as −0.
	if q.Flags&QuantRoundDown != 0 {
		if math.Float64bits(f) == math.Float64bits(lo) {
			out.Bits(1, 1)
			return nil
		}
		out.Bits(0, 1)
	}
	if q.Flags&QuantRoundUp != 0 {
		if math.Float64bits(f) == math.Float64bits(hi) {
			out.Bits(1, 1)
			return nil
		}
		out.Bits(0, 1)
	}
	if q.Flags&QuantEncodeZero != 0 {
		if f == 0 {
			out.Bits(1, 1)
			return nil
		}
		out.Bits(0, 1)
	}
	if q.Bits < 1 || q.Bits > 31 {
		return fmt.Errorf("quantized float with %d bits", q.Bits)
	}
	raw, err := q.Raw(f)
	if err != nil {
		return err
	}
	out.Bits(uint64(raw), uint(q.Bits))
	return nil
}

// Raw is the stored number whose value (FromRaw) is nearest to f, ignoring
// the special-value flags. f must lie within half a step of Low … High.
func (q *Quantized) Raw(f float64) (uint32, error) {
	lo, hi := float64(q.Low), float64(q.High)
	steps := q.Steps()
	if math.IsNaN(f) {
		return 0, fmt.Errorf("NaN")
	}
	if hi == lo {
		if f != lo {
			return 0, fmt.Errorf("%g is not %g, the only value of the range", f, lo)
		}
		return 0, nil
	}
	step := math.Abs(hi-lo) / float64(steps)
	if f < min(lo, hi)-step/2 || f > max(lo, hi)+step/2 {
		return 0, fmt.Errorf("%g is outside %g … %g", f, q.Low, q.High)
	}
	r := math.Round((f - lo) / (hi - lo) * float64(steps))
	r = max(0, min(r, float64(steps)))
	raw := uint32(r)
	// FromRaw rounds too: settle on the neighbour that decodes closest.
	best, bestD := raw, math.Abs(q.FromRaw(raw)-f)
	for _, c := range [...]int64{int64(raw) - 1, int64(raw) + 1} {
		if c < 0 || c > int64(steps) {
			continue
		}
		if d := math.Abs(q.FromRaw(uint32(c)) - f); d < bestD {
			best, bestD = uint32(c), d
		}
	}
	return best, nil
}

// Step is the distance between two neighbouring stored values.
func (q *Quantized) Step() float64 {
	return math.Abs(float64(q.High)-float64(q.Low)) / float64(q.Steps())
}

// coordMax is the largest magnitude a coord holds: a 14-bit integer part
// stored minus one, and 31/32.
const coordMax = 1<<14 + 31.0/32

func coordUnits(f float64) float64 { return math.Round(math.Abs(f) * 32) }

// coordRounded is the value a coord encoding of f decodes to.
func coordRounded(f float64) float64 {
	u := coordUnits(f)
	i, fr := math.Floor(u/32), math.Mod(u, 32)
	v := float64(float32(i) + float32(fr)*(1.0/32))
	if f < 0 && v != 0 {
		v = -v
	}
	return v
}

func coordPlan(out *bitio.Writer, f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("%g is not finite", f)
	}
	u := coordUnits(f)
	if u > coordMax*32 {
		return fmt.Errorf("%g is beyond the coord range ±%g", f, coordMax)
	}
	i, fr := uint64(u)/32, uint64(u)%32
	if f == 0 && math.Signbit(f) {
		// −0, which the decoder gives for a present, negative, zero
		// fraction: the only way to send it.
		out.Bool(false) // no integer part
		out.Bool(true)  // a fraction
		out.Bool(true)  // negative
		out.Bits(0, 5)  // of 0/32
		return nil
	}
	out.Bool(i != 0)
	out.Bool(fr != 0)
	if i == 0 && fr == 0 {
		return nil
	}
	out.Bool(f < 0)
	if i != 0 {
		out.Bits(i-1, 14)
	}
	if fr != 0 {
		out.Bits(fr, 5)
	}
	return nil
}

func (d *Decoder) planNormal(out *bitio.Writer, v Value) error {
	x, y, z := v.F[0], v.F[1], v.F[2]
	for _, c := range [...]float64{x, y, z} {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return d.fail(v, "component %g is not finite", c)
		}
	}
	const scale = 1<<11 - 1
	rx, ry := math.Round(math.Abs(x)*scale), math.Round(math.Abs(y)*scale)
	if rx > scale || ry > scale {
		return d.fail(v, "component beyond ±1")
	}
	// Only z's sign is sent: the decoder takes its size from x and y. A
	// unit vector comes back within a few hundredths; anything else is
	// refused rather than silently changed.
	qx, qy := float32(rx)*(1/float32(scale)), float32(ry)*(1/float32(scale))
	var qz float64
	if sq := qx*qx + qy*qy; sq < 1 {
		qz = float64(float32(math.Sqrt(float64(1 - sq))))
	}
	if math.Abs(math.Abs(z)-qz) > 0.05 {
		return d.fail(v, "not a unit vector: x and y imply |z| = %g", qz)
	}
	// A zero component is left out, except −0 (present, negative, 0),
	// which only that form gives back.
	hx, hy := rx != 0 || (x == 0 && math.Signbit(x)), ry != 0 || (y == 0 && math.Signbit(y))
	out.Bool(hx)
	out.Bool(hy)
	if hx {
		out.Bool(math.Signbit(x))
		out.Bits(uint64(rx), 11)
	}
	if hy {
		out.Bool(math.Signbit(y))
		out.Bits(uint64(ry), 11)
	}
	out.Bool(math.Signbit(z))
	return nil
}

// nBitAngleValue is what angle() decodes raw to, in float32 steps.
func nBitAngleValue(raw uint64, n uint) float64 {
	return float64(float32(raw) * 360 / float32(uint64(1)<<n))
}

// nBitAngleRaw finds the n-bit number whose angle is nearest to a, taking
// a modulo 360 (the top of the range wraps to 0).
func nBitAngleRaw(a float64, n uint) uint64 {
	top := uint64(1)<<n - 1
	value := func(r uint64) float64 { return nBitAngleValue(r, n) }
	if !(a >= 0 && a <= value(top)) { // the top can round up to 360 itself
		a = math.Mod(a, 360)
		if a < 0 {
			a += 360
		}
	}
	r := searchMonotone(top, a, value)
	if r == top && a-value(top) > 360-a {
		return 0
	}
	return r
}

func preciseAngleValue(raw uint32) float64 {
	return float64(float32(raw)*360/float32(1<<20) - 180)
}

// preciseAngleRaw finds the 20-bit number whose precise angle (−180 … 180)
// is nearest to a, taking a modulo 360.
func preciseAngleRaw(a float64) uint64 {
	const top = 1<<20 - 1
	value := func(r uint64) float64 { return preciseAngleValue(uint32(r)) }
	if !(a >= -180 && a <= value(top)) {
		a = math.Mod(a+180, 360)
		if a < 0 {
			a += 360
		}
		a -= 180
	}
	r := searchMonotone(top, a, value)
	if r == top && a-value(top) > 180-a {
		return 0 // nearer to +180, which is −180
	}
	return r
}

// searchMonotone returns the r in 0 … top whose value(r) is nearest to
// target, for a non-decreasing value; on a tie, the smaller r. A target that
// value produced is found exactly.
func searchMonotone(top uint64, target float64, value func(uint64) float64) uint64 {
	lo, hi := uint64(0), top
	for lo < hi { // smallest r with value(r) >= target, or top
		mid := lo + (hi-lo)/2
		if value(mid) >= target {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo > 0 && target-value(lo-1) <= value(lo)-target {
		return lo - 1
	}
	return lo
}
