package decoder

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dembug/dembug/engine/bitio"
)

// A walk-through of one read: Explain reads a value exactly as DecodeTo
// does (FuzzExplain holds them to the same bits and the same value) and
// says, step by step, how the bits became the value. It lives beside the
// decoders so that a change to one is a change to the other; the debugger
// and `dembug trace --explain` only render the steps.

// StepKind says what a step shows.
type StepKind uint8

const (
	StepBits StepKind = iota // bits as read: Span and Raw
	StepNote                 // what the bits are (bytes, groups, parts)
	StepMath                 // arithmetic toward the value
)

func (k StepKind) String() string {
	switch k {
	case StepBits:
		return "bits"
	case StepNote:
		return "note"
	}
	return "math"
}

// Step is one stage of a read.
type Step struct {
	Kind  StepKind
	Label string
	Span  bitio.Span // the bits a StepBits covers
	Raw   string     // those bits as shown: in reading order (bitio.Spell), or hex bytes for strings
	Text  string     // what they mean, or the arithmetic
}

// maxShownBytes bounds the bytes a string's step shows.
const maxShownBytes = 16

// explainer reads like the decoders and records steps.
type explainer struct {
	r     *bitio.Reader
	steps []Step
}

func (x *explainer) add(k StepKind, label, text string) {
	x.steps = append(x.steps, Step{Kind: k, Label: label, Text: text})
}

// bits reads n bits (n ≤ 64) and records them with what they mean.
func (x *explainer) bits(label string, n uint, what func(v uint64) string) uint64 {
	return x.read(label, n, n > 32, what)
}

// read reads n bits with bitio.Reader.Bits64 when wide, else as Bits does,
// which keeps the low 32 (an angle's bit count comes from the schema and
// may be anything), and records them with what they mean.
func (x *explainer) read(label string, n uint, wide bool, what func(v uint64) string) uint64 {
	at := x.r.Pos()
	var v uint64
	if wide {
		v = x.r.Bits64(n)
	} else {
		v = uint64(x.r.Bits(n))
	}
	s := Step{Kind: StepBits, Label: label, Span: bitio.Span{Start: at, Bits: x.r.Pos() - at}, Raw: bitio.Spell(v, min(n, 64))}
	if what != nil {
		s.Text = what(v)
	}
	x.steps = append(x.steps, s)
	return v
}

// flag reads one bit.
func (x *explainer) flag(label string, meaning func(bool) string) bool {
	return x.bits(label, 1, func(v uint64) string { return meaning(v == 1) }) == 1
}

func yesNo(yes, no string) func(bool) string {
	return func(b bool) string {
		if b {
			return yes
		}
		return no
	}
}

// msbFirst spells n bits of v most significant first, as numbers are
// written.
func msbFirst(v uint64, n uint) string {
	var b strings.Builder
	for i := n; i > 0; i-- {
		b.WriteByte('0' + byte(v>>(i-1)&1))
	}
	return b.String()
}

func g(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// varint reads a base-128 varint of at most maxBytes bytes, as
// bitio.Reader.VarUint32 (5) and VarUint64 (10) do, showing the bytes and
// their 7-bit groups. cut32 says the value is kept in 32 bits.
func (x *explainer) varint(label string, maxBytes int, cut32 bool) uint64 {
	at := x.r.Pos()
	var (
		v      uint64
		bytes  []string
		bitsS  []string
		groups []string
		terms  []string
	)
	for i := 0; i < maxBytes; i++ {
		b := x.r.Bits(8)
		bytes = append(bytes, fmt.Sprintf("0x%02x", b))
		bitsS = append(bitsS, bitio.Spell(uint64(b), 8))
		grp := uint64(b & 0x7f)
		v |= grp << (7 * i)
		cont := "last"
		if b&0x80 != 0 {
			cont = "more"
		}
		groups = append(groups, fmt.Sprintf("%s %s (%d)", cont, msbFirst(grp, 7), grp))
		if i == 0 {
			terms = append(terms, fmt.Sprint(grp))
		} else {
			terms = append(terms, fmt.Sprintf("%d×2^%d", grp, 7*i))
		}
		if b&0x80 == 0 || x.r.Overflowed() {
			break
		}
	}
	x.steps = append(x.steps, Step{Kind: StepBits, Label: label, Span: bitio.Span{Start: at, Bits: x.r.Pos() - at}, Raw: strings.Join(bitsS, " ")})
	cont := "; top bit set on each byte but the last: another byte follows"
	if len(bytes) == 1 {
		cont = "; top bit clear: the only byte"
	}
	x.add(StepNote, "bytes", strings.Join(bytes, " ")+cont)
	x.add(StepNote, "7-bit", strings.Join(groups, ", "))
	sum := fmt.Sprint(v)
	if len(terms) > 1 {
		sum = strings.Join(terms, " + ") + " = " + sum
	}
	if cut32 && v != uint64(uint32(v)) {
		sum += fmt.Sprintf(", kept in 32 bits = %d", uint32(v))
		v = uint64(uint32(v))
	}
	x.add(StepMath, "=", sum)
	return v
}

// Explain reads one value from r as DecodeTo does and returns it with the
// steps that turned its bits into it.
func (d *Decoder) Explain(r *bitio.Reader) (Value, []Step) {
	x := &explainer{r: r}
	v := x.value(d)
	return v, x.steps
}

var compNames = [...]string{"x", "y", "z", "w"}

func (x *explainer) value(d *Decoder) Value {
	switch d.Family {
	case FamUnsigned, FamDefault:
		return Value{Kind: KindUint, U: x.varint("raw", 5, true)}
	case FamUnsigned64:
		return Value{Kind: KindUint, U: x.varint("raw", 10, false)}
	case FamSigned:
		u := uint32(x.varint("raw", 5, true))
		v := bitio.ZigZag32(u)
		x.zigzag(uint64(u), int64(v))
		return Value{Kind: KindInt, U: uint64(int64(v))}
	case FamSigned64:
		u := x.varint("raw", 10, false)
		v := int64(u>>1) ^ -int64(u&1)
		x.zigzag(u, v)
		return Value{Kind: KindInt, U: uint64(v)}
	case FamHandle:
		u := x.varint("raw", 5, true)
		if u == HandleInvalid {
			x.add(StepMath, "handle", fmt.Sprintf("0x%x is the null handle", u))
		} else {
			x.add(StepMath, "handle", fmt.Sprintf("0x%x: entity index = low 14 bits = %d, serial = the rest = %d", u, u&(1<<HandleIndexBits-1), u>>HandleIndexBits))
		}
		return Value{Kind: KindHandle, U: u}
	case FamUnsignedMinusOne:
		u := x.varint("raw", 5, true)
		v := int64(u) - 1
		x.add(StepMath, "-1", fmt.Sprintf("%d - 1 = %d", u, v))
		return Value{Kind: KindInt, U: uint64(v)}
	case FamBool:
		b := x.flag("bit", func(b bool) string { return "→ " + strconv.FormatBool(b) })
		return Bool(b)
	case FamFixed64:
		v := x.bits("raw", 64, nil)
		x.add(StepMath, "=", fmt.Sprintf("64 bits little-endian = 0x%016x = %d", v, v))
		return Value{Kind: KindUint, U: v}
	case FamNoScale, FamQuantized, FamCoord, FamSimTime, FamRuneTime:
		return Float(x.float(d, ""))
	case FamVector:
		v := Value{Kind: KindVector, N: d.Components}
		for i := 0; i < int(d.Components); i++ {
			comp := fmt.Sprint(i)
			if i < len(compNames) {
				comp = compNames[i]
			}
			v.F[i] = x.float(d.Elem, comp)
		}
		return v
	case FamNormal:
		return x.normal()
	case FamQAnglePitchYaw, FamQAngleBits:
		n := 3
		if d.Family == FamQAnglePitchYaw {
			n = 2
		}
		names := [...]string{"pitch", "yaw", "roll"}
		v := Value{Kind: KindVector, N: 3}
		for i := range n {
			raw := uint32(x.read(names[i], uint(d.Bits), false, func(v uint64) string { return fmt.Sprintf("= %d", v) }))
			v.F[i] = float64(float32(raw) * 360 / float32(uint64(1)<<d.Bits))
			x.add(StepMath, names[i]+" =", fmt.Sprintf("%d × 360 / 2^%d = %s", raw, d.Bits, g(v.F[i])))
		}
		return v
	case FamQAngleCoord, FamQAnglePrecise:
		names := [...]string{"pitch", "yaw", "roll"}
		var has [3]bool
		for i := range 3 {
			has[i] = x.flag(names[i]+"?", yesNo("present", "absent → 0"))
		}
		v := Value{Kind: KindVector, N: 3}
		for i := range 3 {
			if !has[i] {
				continue
			}
			if d.Family == FamQAngleCoord {
				v.F[i] = x.coord(names[i])
				continue
			}
			raw := x.bits(names[i], 20, func(v uint64) string { return fmt.Sprintf("= %d", v) })
			v.F[i] = float64(float32(raw)*360/float32(1<<20) - 180)
			x.add(StepMath, names[i]+" =", fmt.Sprintf("%d × 360 / 2^20 - 180 = %s", raw, g(v.F[i])))
		}
		return v
	case FamString:
		at := x.r.Pos()
		var buf [MaxStringBytes]byte
		bs := x.r.AppendString(buf[:0], MaxStringBytes)
		x.byteStep(at, bs)
		x.add(StepMath, "=", fmt.Sprintf("%d bytes up to a zero byte: %q", len(bs), bs))
		return StringBytes(bs)
	case FamBinaryBlock:
		n := uint(x.varint("length", 5, true))
		if n*8 > x.r.Remaining() {
			at := x.r.Pos()
			x.r.Skip(n * 8)
			x.steps = append(x.steps, Step{Kind: StepBits, Label: "bytes", Span: bitio.Span{Start: at, Bits: x.r.Pos() - at}})
			x.add(StepMath, "=", fmt.Sprintf("%d bytes do not fit in the %s left: an over-read, the value is empty", n, bitio.Size(x.r.Len()-at)))
			return Value{Kind: KindString}
		}
		at := x.r.Pos()
		var buf [MaxStringBytes]byte
		bs := x.r.AppendBits(buf[:0], n*8)
		x.byteStep(at, bs)
		x.add(StepMath, "=", fmt.Sprintf("%d bytes, as many as the length says (bytes, not text)", len(bs)))
		return StringBytes(bs)
	case FamPolyPointer:
		if !x.flag("present?", yesNo("pointer set", "no object → -1")) {
			return Value{Kind: KindInt, U: ^uint64(0)}
		}
		at := x.r.Pos()
		v := x.r.UBitVar()
		n := x.r.Pos() - at
		x.r.Seek(at)
		x.bits("index", n, func(uint64) string { return fmt.Sprintf("ubitvar = %d: serializer alternative %d", v, v) })
		return Value{Kind: KindInt, U: uint64(v)}
	}
	// A family DecodeTo does not know reads nothing.
	return Value{}
}

// byteStep records bytes read from at, the first maxShownBytes in hex.
func (x *explainer) byteStep(at uint, bs []byte) {
	hex := make([]string, 0, maxShownBytes)
	for _, b := range bs[:min(len(bs), maxShownBytes)] {
		hex = append(hex, fmt.Sprintf("%02x", b))
	}
	raw := strings.Join(hex, " ")
	if len(bs) > maxShownBytes {
		raw += " …"
	}
	x.steps = append(x.steps, Step{Kind: StepBits, Label: "bytes", Span: bitio.Span{Start: at, Bits: x.r.Pos() - at}, Raw: raw})
}

func (x *explainer) zigzag(u uint64, v int64) {
	if u&1 == 0 {
		x.add(StepMath, "zigzag", fmt.Sprintf("%d is even → %d / 2 = %d", u, u, v))
	} else {
		x.add(StepMath, "zigzag", fmt.Sprintf("%d is odd → -(%d + 1) / 2 = %d", u, u, v))
	}
}

// float reads one scalar float (a field, or component comp of a vector)
// as Decoder.Float does.
func (x *explainer) float(d *Decoder, comp string) float64 {
	lbl := func(s string) string {
		if comp == "" {
			return s
		}
		return comp + " " + s
	}
	switch d.Family {
	case FamQuantized:
		q := d.Q
		if q.Flags&QuantRoundDown != 0 && x.flag(lbl("low?"), yesNo(
			"ROUNDDOWN bit set → value is low = "+g(float64(q.Low)), "ROUNDDOWN bit clear → read the value")) {
			return float64(q.Low)
		}
		if q.Flags&QuantRoundUp != 0 && x.flag(lbl("high?"), yesNo(
			"ROUNDUP bit set → value is high = "+g(float64(q.High)), "ROUNDUP bit clear → read the value")) {
			return float64(q.High)
		}
		if q.Flags&QuantEncodeZero != 0 && x.flag(lbl("zero?"), yesNo(
			"ENCODE_ZERO bit set → value is 0", "ENCODE_ZERO bit clear → read the value")) {
			return 0
		}
		raw := uint32(x.bits(lbl("raw"), uint(q.Bits), func(v uint64) string { return fmt.Sprintf("= %d", v) }))
		v := q.FromRaw(raw)
		if q.Low == 0 {
			x.add(StepMath, lbl("="), fmt.Sprintf("%d / %d × %s = %s", raw, q.Steps(), g(float64(q.High)), g(v)))
		} else {
			x.add(StepMath, lbl("="), fmt.Sprintf("%s + %d / %d × (%s - %s) = %s", g(float64(q.Low)), raw, q.Steps(),
				g(float64(q.High)), g(float64(q.Low)), g(v)))
		}
		return v
	case FamCoord:
		return x.coord(comp)
	case FamSimTime:
		ticks := uint32(x.varint(lbl("ticks"), 5, true))
		v := float64(float32(ticks) * d.TickInterval)
		src := "the game's usual tick interval: the file gave none before its schema"
		if d.TickOfFile {
			src = "the tick interval svc_ServerInfo gives"
		}
		x.add(StepMath, lbl("="), fmt.Sprintf("%d ticks × %s s = %s s (%s)", ticks, strconv.FormatFloat(float64(d.TickInterval), 'g', -1, 32), g(v), src))
		return v
	case FamRuneTime:
		raw := x.bits(lbl("raw"), 4, func(v uint64) string { return fmt.Sprintf("= %d", v) })
		v := float64(math.Float32frombits(uint32(raw)))
		x.add(StepMath, lbl("="), fmt.Sprintf("the 4 bits taken as float32 bits 0x%08x = %s", raw, g(v)))
		return v
	}
	// Raw IEEE 754 float32.
	raw := uint32(x.bits(lbl("raw"), 32, nil))
	f := math.Float32frombits(raw)
	sign, exp, man := raw>>31, raw>>23&0xff, raw&0x7fffff
	x.add(StepNote, lbl("ieee"), fmt.Sprintf("sign %d · exponent %s · mantissa %s", sign, msbFirst(uint64(exp), 8), msbFirst(uint64(man), 23)))
	s := "+"
	if sign == 1 {
		s = "-"
	}
	switch {
	case exp == 0xff && man == 0:
		x.add(StepMath, lbl("="), s+"infinity")
	case exp == 0xff:
		x.add(StepMath, lbl("="), "NaN")
	case exp == 0:
		x.add(StepMath, lbl("="), fmt.Sprintf("%s%d / 2^23 × 2^-126 = %s (subnormal: no implicit 1)", s, man, g(float64(f))))
	default:
		m := 1 + float64(man)/(1<<23)
		x.add(StepMath, lbl("="), fmt.Sprintf("%s%s × 2^(%d - 127) = %s%s × 2^%d = %s", s, g(m), exp, s, g(m), int(exp)-127, g(float64(f))))
	}
	return float64(f)
}

// coord reads Valve's bit coord as coord does; prefix names the component.
func (x *explainer) coord(prefix string) float64 {
	lbl := func(s string) string { return strings.TrimSpace(prefix + " " + s) }
	hasInt := x.flag(lbl("int?"), yesNo("integer part present", "no integer part"))
	hasFrac := x.flag(lbl("frac?"), yesNo("fraction present", "no fraction"))
	if !hasInt && !hasFrac {
		x.add(StepMath, lbl("="), "neither part → 0")
		return 0
	}
	neg := x.flag(lbl("sign"), yesNo("negative", "positive"))
	var i, f uint32
	if hasInt {
		i = uint32(x.bits(lbl("int"), 14, func(v uint64) string { return fmt.Sprintf("= %d, stored minus one → %d", v, v+1) })) + 1
	}
	if hasFrac {
		f = uint32(x.bits(lbl("frac"), 5, func(v uint64) string { return fmt.Sprintf("= %d → %d/32", v, v) }))
	}
	v := float64(float32(i) + float32(f)*(1.0/32))
	s := ""
	if neg {
		v, s = -v, "-"
	}
	x.add(StepMath, lbl("="), fmt.Sprintf("%s(%d + %d/32) = %s", s, i, f, g(v)))
	return v
}

// normal reads a packed unit vector as normal does.
func (x *explainer) normal() Value {
	var xy [2]float32
	var has [2]bool
	for i := range 2 {
		has[i] = x.flag(compNames[i]+"?", yesNo("component present", "component absent → 0"))
	}
	for i := range 2 {
		if !has[i] {
			continue
		}
		neg := x.flag(compNames[i]+" sign", yesNo("negative", "positive"))
		raw := x.bits(compNames[i]+" raw", 11, func(v uint64) string { return fmt.Sprintf("= %d", v) })
		v := float32(raw) * (1 / float32(1<<11-1))
		sign := ""
		if neg {
			v, sign = -v, "-"
		}
		xy[i] = v
		x.add(StepMath, compNames[i]+" =", fmt.Sprintf("%s%d / 2047 = %s", sign, raw, g(float64(v))))
	}
	negZ := x.flag("z sign", yesNo("negative", "positive"))
	var z float32
	if s := xy[0]*xy[0] + xy[1]*xy[1]; s < 1 {
		z = float32(math.Sqrt(float64(1 - s)))
	}
	if negZ {
		z = -z
	}
	x.add(StepMath, "z =", fmt.Sprintf("√(1 - x² - y²) = %s", g(float64(z))))
	return Value{Kind: KindVector, N: 3, F: [4]float64{float64(xy[0]), float64(xy[1]), float64(z)}}
}
