package decoder

import (
	"math"

	"github.com/dembug/dembug/engine/bitio"
)

// Family is a decoding method.
type Family uint8

const (
	FamUnsigned         Family = iota // base-128 varint, 32 bits
	FamDefault                        // unsigned varint chosen because the type is unknown (fallback)
	FamUnsigned64                     // base-128 varint, 64 bits
	FamSigned                         // zigzag varint, 32 bits
	FamSigned64                       // zigzag varint, 64 bits
	FamBool                           // 1 bit
	FamFixed64                        // 64 bits little-endian
	FamNoScale                        // 32-bit IEEE float
	FamQuantized                      // n bits scaled into a range
	FamCoord                          // sign, integer and 1/32 fraction
	FamSimTime                        // varint ticks × tick interval
	FamRuneTime                       // 4 bits reinterpreted as float bits
	FamNormal                         // packed unit vector
	FamQAnglePitchYaw                 // two n-bit angles, roll 0
	FamQAngleBits                     // three n-bit angles
	FamQAngleCoord                    // three presence bits, then coords
	FamQAnglePrecise                  // three presence bits, then 20-bit angles
	FamVector                         // 2–4 components with the field's float decoder
	FamString                         // bytes up to a zero byte
	FamHandle                         // unsigned varint holding an entity handle
	FamUnsignedMinusOne               // unsigned varint minus one (e.g. ammo clips)
	FamPolyPointer                    // presence bit, then the index of the chosen serializer
	FamBinaryBlock                    // varint byte count, then that many bytes
	famCount
)

// Families lists every family, in table order.
func Families() []Family {
	out := make([]Family, famCount)
	for i := range out {
		out[i] = Family(i)
	}
	return out
}

// MaxStringBytes bounds a string field; Valve's longest networked strings
// are a few hundred bytes.
const MaxStringBytes = 4096

// Decoder reads one field value. Its zero value is the unsigned varint.
type Decoder struct {
	Family       Family
	Bits         uint8      // angle bits
	Components   uint8      // vector components
	Elem         *Decoder   // vector component decoder
	Q            *Quantized // quantized float parameters
	TickInterval float32    // simulation time scale
	Watch        uint16     // a field whose values feed package evidence (unknown types' default decoders); 0: none
	TickOfFile   bool       // TickInterval is the file's own (svc_ServerInfo), not the game's usual one
}

// Decode reads one value.
func (d *Decoder) Decode(r *bitio.Reader) (v Value) {
	d.DecodeTo(r, &v)
	return v
}

// DecodeTo reads one value into *dst: the hot path writes straight into
// entity state without copying a Value through the stack. Strings go to
// the reader's pool (bitio.Reader.Strings), or the default one.
func (d *Decoder) DecodeTo(r *bitio.Reader, dst *Value) {
	switch d.Family {
	case FamUnsigned, FamDefault:
		if w, ok := r.Window(); ok {
			v, n := bitio.VarUint32Of(w)
			r.Skip(n)
			*dst = Value{Kind: KindUint, U: uint64(v)}
			return
		}
		*dst = Value{Kind: KindUint, U: uint64(r.VarUint32())}
		return
	case FamSigned:
		if w, ok := r.Window(); ok {
			v, n := bitio.VarUint32Of(w)
			r.Skip(n)
			*dst = Value{Kind: KindInt, U: uint64(int64(bitio.ZigZag32(v)))}
			return
		}
		*dst = Value{Kind: KindInt, U: uint64(int64(r.VarInt32()))}
		return
	case FamNoScale:
		// The two most frequent families read from one window when it
		// holds enough bits (always, except in a buffer's last 8 bytes).
		if w, ok := r.Window(); ok {
			r.Skip(32)
			*dst = Value{Kind: KindFloat, F: [4]float64{float64(math.Float32frombits(uint32(w)))}}
			return
		}
		*dst = Value{Kind: KindFloat, F: [4]float64{d.Float(r)}}
		return
	case FamQuantized:
		if w, ok := r.Window(); ok {
			v, n := d.Q.fromWindow(w)
			r.Skip(n)
			*dst = Value{Kind: KindFloat, F: [4]float64{v}}
			return
		}
		*dst = Value{Kind: KindFloat, F: [4]float64{d.Float(r)}}
		return
	case FamCoord, FamSimTime, FamRuneTime:
		*dst = Value{Kind: KindFloat, F: [4]float64{d.Float(r)}}
		return
	case FamBool:
		*dst = Bool(r.Bool())
		return
	case FamUnsigned64:
		*dst = Value{Kind: KindUint, U: r.VarUint64()}
		return
	case FamSigned64:
		*dst = Value{Kind: KindInt, U: uint64(r.VarInt64())}
		return
	case FamFixed64:
		*dst = Value{Kind: KindUint, U: r.Uint64LE()}
		return
	case FamHandle:
		*dst = Value{Kind: KindHandle, U: uint64(r.VarUint32())}
		return
	case FamUnsignedMinusOne:
		*dst = Value{Kind: KindInt, U: uint64(int64(r.VarUint32()) - 1)}
		return
	case FamPolyPointer:
		if !r.Bool() {
			*dst = Value{Kind: KindInt, U: ^uint64(0)} // -1: absent
			return
		}
		*dst = Value{Kind: KindInt, U: uint64(r.UBitVar())}
		return
	case FamBinaryBlock:
		n := uint(r.VarUint32())
		if n*8 > r.Remaining() {
			r.Skip(n * 8) // marks the overflow without allocating
			*dst = Value{Kind: KindString}
			return
		}
		var buf [MaxStringBytes]byte
		p, _ := r.Strings.(*Pool)
		*dst = p.StringBytes(r.AppendBits(buf[:0], n*8))
		return
	case FamString:
		var buf [MaxStringBytes]byte
		p, _ := r.Strings.(*Pool)
		*dst = p.StringBytes(r.AppendString(buf[:0], MaxStringBytes))
		return
	case FamVector:
		v := Value{Kind: KindVector, N: d.Components}
		for i := 0; i < int(d.Components); i++ {
			v.F[i] = d.Elem.Float(r)
		}
		*dst = v
		return
	case FamNormal:
		*dst = normal(r)
		return
	case FamQAnglePitchYaw:
		n := uint(d.Bits)
		*dst = Value{Kind: KindVector, N: 3, F: [4]float64{angle(r, n), angle(r, n), 0}}
		return
	case FamQAngleBits:
		n := uint(d.Bits)
		*dst = Value{Kind: KindVector, N: 3, F: [4]float64{angle(r, n), angle(r, n), angle(r, n)}}
		return
	case FamQAngleCoord:
		*dst = presentAngles(r, coord)
		return
	case FamQAnglePrecise:
		*dst = presentAngles(r, preciseAngle)
		return
	}
	*dst = Value{}
}

// Float reads one float with a scalar float family (used per vector
// component too).
func (d *Decoder) Float(r *bitio.Reader) float64 {
	switch d.Family {
	case FamQuantized:
		q := d.Q
		if q.Flags&QuantRoundDown != 0 && r.Bool() {
			return float64(q.Low)
		}
		if q.Flags&QuantRoundUp != 0 && r.Bool() {
			return float64(q.High)
		}
		if q.Flags&QuantEncodeZero != 0 && r.Bool() {
			return 0
		}
		return q.FromRaw(r.Bits(uint(q.Bits)))
	case FamCoord:
		return coord(r)
	case FamSimTime:
		return float64(float32(r.VarUint32()) * d.TickInterval) // float32, as Valve's client
	case FamRuneTime:
		return float64(math.Float32frombits(r.Bits(4)))
	}
	return float64(r.Float32())
}

// coord reads Valve's bit coord: integer and fraction presence bits, a sign,
// a 14-bit integer part stored minus one and a 5-bit fraction in 1/32 steps.
func coord(r *bitio.Reader) float64 {
	hasInt, hasFrac := r.Bool(), r.Bool()
	if !hasInt && !hasFrac {
		return 0
	}
	neg := r.Bool()
	var i, f uint32
	if hasInt {
		i = r.Bits(14) + 1
	}
	if hasFrac {
		f = r.Bits(5)
	}
	v := float64(float32(i) + float32(f)*(1.0/32))
	if neg {
		v = -v
	}
	return v
}

// presentAngles reads three presence bits, then each present component.
func presentAngles(r *bitio.Reader, read func(*bitio.Reader) float64) Value {
	has := [3]bool{r.Bool(), r.Bool(), r.Bool()}
	v := Value{Kind: KindVector, N: 3}
	for i, h := range has {
		if h {
			v.F[i] = read(r)
		}
	}
	return v
}

func angle(r *bitio.Reader, n uint) float64 {
	return float64(float32(r.Bits(n)) * 360 / float32(uint64(1)<<n))
}

func preciseAngle(r *bitio.Reader) float64 {
	return float64(float32(r.Bits(20))*360/float32(1<<20) - 180)
}

func normalComponent(r *bitio.Reader) float32 {
	neg := r.Bool()
	v := float32(r.Bits(11)) * (1 / float32(1<<11-1))
	if neg {
		v = -v
	}
	return v
}

func normal(r *bitio.Reader) Value {
	var x, y float32
	hasX, hasY := r.Bool(), r.Bool()
	if hasX {
		x = normalComponent(r)
	}
	if hasY {
		y = normalComponent(r)
	}
	negZ := r.Bool()
	var z float32
	if s := x*x + y*y; s < 1 {
		z = float32(math.Sqrt(float64(1 - s)))
	}
	if negZ {
		z = -z
	}
	return Value{Kind: KindVector, N: 3, F: [4]float64{float64(x), float64(y), float64(z)}}
}

// IsFloat reports whether the family yields a scalar float.
func (f Family) IsFloat() bool {
	switch f {
	case FamNoScale, FamQuantized, FamCoord, FamSimTime, FamRuneTime:
		return true
	}
	return false
}

// VarintBits is the width of the one varint a family reads, 32 or 64, or
// 0 for a family that reads anything else: families of one width read the
// same bits, whatever they make of them.
func (f Family) VarintBits() int {
	switch f {
	case FamUnsigned, FamDefault, FamSigned, FamHandle, FamUnsignedMinusOne:
		return 32
	case FamUnsigned64, FamSigned64:
		return 64
	}
	return 0
}

// DecodeWindow decodes a raw 32-bit float, the most frequent family, from
// a bit window (bitio.Reader.Window) into *dst and returns the bits it
// used, or 0 for any other family, which DecodeTo must read. It and
// DecodeQuantizedWindow inline (one function for both would not), which
// saves a hot loop a call per such value.
func (d *Decoder) DecodeWindow(w uint64, dst *Value) uint {
	if d.Family != FamNoScale {
		return 0
	}
	*dst = Value{Kind: KindFloat, F: [4]float64{float64(math.Float32frombits(uint32(w)))}}
	return 32
}

// DecodeQuantizedWindow is DecodeWindow for quantized floats without
// flags (positions within a cell, most of them): 0 for anything else.
func (d *Decoder) DecodeQuantizedWindow(w uint64, dst *Value) uint {
	if d.Family != FamQuantized || d.Q.Flags != 0 {
		return 0
	}
	q := d.Q
	*dst = Value{Kind: KindFloat, F: [4]float64{q.FromRaw(uint32(w) & (1<<q.Bits - 1))}}
	return uint(q.Bits)
}
