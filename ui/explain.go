package ui

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/views"
)

// maxShownBits bounds a raw-bits line; longer reads show their start.
const maxShownBits = 96

// lsbFirst spells n bits of v in reading order, first bit read first.
func lsbFirst(v uint64, n uint) string {
	var b strings.Builder
	for i := uint(0); i < n; i++ {
		b.WriteByte('0' + byte(v>>i&1))
	}
	return b.String()
}

// msbFirst spells n bits of v most significant first (as numbers are
// written).
func msbFirst(v uint64, n uint) string {
	var b strings.Builder
	for i := n; i > 0; i-- {
		b.WriteByte('0' + byte(v>>(i-1)&1))
	}
	return b.String()
}

func g(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// ShortDecoder is a compact decoder name for the field table.
func ShortDecoder(d *decoder.Decoder) string {
	if d == nil {
		return "?"
	}
	switch d.Family {
	case decoder.FamUnsigned:
		return "varint"
	case decoder.FamDefault:
		return "varint?"
	case decoder.FamUnsigned64:
		return "varint64"
	case decoder.FamSigned:
		return "zigzag"
	case decoder.FamSigned64:
		return "zigzag64"
	case decoder.FamBool:
		return "bool"
	case decoder.FamFixed64:
		return "fixed64"
	case decoder.FamNoScale:
		return "float32"
	case decoder.FamQuantized:
		if d.Q != nil {
			return fmt.Sprintf("quant%d", d.Q.Bits)
		}
		return "quant"
	case decoder.FamCoord:
		return "coord"
	case decoder.FamSimTime:
		return "simtime"
	case decoder.FamRuneTime:
		return "runetime"
	case decoder.FamNormal:
		return "normal"
	case decoder.FamQAnglePitchYaw:
		return fmt.Sprintf("qangle2×%d", d.Bits)
	case decoder.FamQAngleBits:
		return fmt.Sprintf("qangle3×%d", d.Bits)
	case decoder.FamQAngleCoord:
		return "qangle·coord"
	case decoder.FamQAnglePrecise:
		return "qangle·20"
	case decoder.FamVector:
		return fmt.Sprintf("vec%d×%s", d.Components, ShortDecoder(d.Elem))
	case decoder.FamString:
		return "string"
	case decoder.FamHandle:
		return "handle"
	case decoder.FamUnsignedMinusOne:
		return "varint−1"
	case decoder.FamPolyPointer:
		return "polyptr"
	}
	return d.Family.String()
}

// explainer re-reads one field's bits and says, step by step, how they
// became the value.
type explainer struct {
	r     bitio.Reader
	lines []views.InspectorLine
}

func (x *explainer) add(label, text string, st views.LineStyle) {
	x.lines = append(x.lines, views.InspectorLine{Label: label, Text: text, Style: st})
}

// bits reads n bits and adds a line showing them in reading order.
func (x *explainer) bits(label string, n uint, what func(v uint64) string) uint64 {
	at := x.r.Pos()
	var v uint64
	if n <= 64 {
		v = x.r.Bits64(n)
	} else {
		x.r.Skip(n)
	}
	shown := lsbFirst(v, min(n, 64))
	text := shown
	if what != nil {
		text += "  " + what(v)
	}
	x.add(label, fmt.Sprintf("@%s  %s", bitio.Offset(at), text), views.LineBits)
	return v
}

// flag reads one bit.
func (x *explainer) flag(label string, meaning func(bool) string) bool {
	b := x.bits(label, 1, func(v uint64) string { return meaning(v == 1) }) == 1
	return b
}

// varint reads a base-128 varint of at most maxBytes bytes, showing the
// bytes and their 7-bit groups.
func (x *explainer) varint(label string, maxBytes int) uint64 {
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
		bitsS = append(bitsS, lsbFirst(uint64(b), 8))
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
	x.add(label, fmt.Sprintf("@%s  %s", bitio.Offset(at), strings.Join(bitsS, " ")), views.LineBits)
	x.add("bytes", strings.Join(bytes, " ")+"; top bit = another byte follows", views.LinePlain)
	x.add("7-bit", strings.Join(groups, ", "), views.LinePlain)
	if len(terms) > 1 {
		x.add("=", strings.Join(terms, " + ")+" = "+fmt.Sprint(v), views.LineMath)
	} else {
		x.add("=", fmt.Sprint(v), views.LineMath)
	}
	return v
}

// quantSetup explains a quantized float's parameters after set-up next to
// what the schema asked for.
func quantSetup(q *decoder.Quantized) string {
	s := fmt.Sprintf("quantized float: %d bits, %s … %s", q.Bits, g(float64(q.Low)), g(float64(q.High)))
	if q.Flags != 0 {
		s += ", flags " + decoder.FlagNames(q.Flags)
	}
	var notes []string
	if q.SchemaLow != q.Low || q.SchemaHigh != q.High {
		notes = append(notes, fmt.Sprintf("schema: %s … %s", g(float64(q.SchemaLow)), g(float64(q.SchemaHigh))))
	}
	if uint32(q.SchemaBits) != q.Bits {
		notes = append(notes, fmt.Sprintf("schema %d bits, widened by ENCODE_INTEGERS", q.SchemaBits))
	}
	sf := uint32(q.SchemaFlags)
	if sf != 0 || q.Flags != 0 {
		if sf == q.Flags {
			notes = append(notes, "flags "+decoder.FlagNames(sf)+" kept")
		} else {
			notes = append(notes, "flags "+decoder.FlagNames(sf)+" → "+flagChanges(q))
		}
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	return s
}

// flagChanges says why set-up dropped or added each flag (the rules of
// decoder.NewQuantized).
func flagChanges(q *decoder.Quantized) string {
	sf, af := uint32(q.SchemaFlags), q.Flags
	ints := sf&decoder.QuantEncodeIntegers != 0
	var parts []string
	for _, f := range []struct {
		bit  uint32
		name string
	}{{decoder.QuantRoundDown, "ROUNDDOWN"}, {decoder.QuantRoundUp, "ROUNDUP"}, {decoder.QuantEncodeZero, "ENCODE_ZERO"}, {decoder.QuantEncodeIntegers, "ENCODE_INTEGERS"}} {
		had, has := sf&f.bit != 0, af&f.bit != 0
		switch {
		case had && !has:
			why := ""
			switch {
			case ints:
				why = "ENCODE_INTEGERS overrides it"
			case f.bit == decoder.QuantRoundDown:
				why = "low already exact"
			case f.bit == decoder.QuantRoundUp:
				why = "high already exact"
			case f.bit == decoder.QuantEncodeZero && q.SchemaLow == 0:
				why = "low is 0, so ROUNDDOWN covers it"
			case f.bit == decoder.QuantEncodeZero && q.SchemaHigh == 0:
				why = "high is 0, so ROUNDUP covers it"
			case f.bit == decoder.QuantEncodeZero && (q.SchemaLow > 0 || q.SchemaHigh < 0):
				why = "0 is outside the range"
			default:
				why = "0 already exact"
			}
			parts = append(parts, f.name+" dropped at set-up: "+why)
		case !had && has:
			parts = append(parts, f.name+" added at set-up (from ENCODE_ZERO at a range end)")
		}
	}
	if len(parts) == 0 {
		return "unchanged"
	}
	if len(parts) == 1 && bits.OnesCount32(sf) == 1 && af == 0 {
		// One flag, dropped: "flags ROUNDDOWN → dropped at set-up: …".
		if _, rest, ok := strings.Cut(parts[0], " dropped"); ok {
			return "dropped" + rest
		}
	}
	return strings.Join(parts, "; ")
}

// floatValue explains one scalar float (a field or a vector component).
func (x *explainer) floatValue(d *decoder.Decoder, comp string) float64 {
	lbl := func(s string) string {
		if comp == "" {
			return s
		}
		return comp + " " + s
	}
	switch d.Family {
	case decoder.FamQuantized:
		q := d.Q
		if q.Flags&decoder.QuantRoundDown != 0 && x.flag(lbl("low?"), func(b bool) string {
			if b {
				return "ROUNDDOWN bit set → value is low = " + g(float64(q.Low))
			}
			return "ROUNDDOWN bit clear → read the value"
		}) {
			return float64(q.Low)
		}
		if q.Flags&decoder.QuantRoundUp != 0 && x.flag(lbl("high?"), func(b bool) string {
			if b {
				return "ROUNDUP bit set → value is high = " + g(float64(q.High))
			}
			return "ROUNDUP bit clear → read the value"
		}) {
			return float64(q.High)
		}
		if q.Flags&decoder.QuantEncodeZero != 0 && x.flag(lbl("zero?"), func(b bool) string {
			if b {
				return "ENCODE_ZERO bit set → value is 0"
			}
			return "ENCODE_ZERO bit clear → read the value"
		}) {
			return 0
		}
		raw := uint32(x.bits(lbl("raw"), uint(q.Bits), func(v uint64) string { return fmt.Sprintf("= %d", v) }))
		v := q.FromRaw(raw)
		steps := q.Steps()
		if q.Low == 0 {
			x.add(lbl("="), fmt.Sprintf("%d / %d × %s = %s", raw, steps, g(float64(q.High)), g(v)), views.LineMath)
		} else {
			x.add(lbl("="), fmt.Sprintf("%s + %d / %d × (%s − %s) = %s", g(float64(q.Low)), raw, steps,
				g(float64(q.High)), g(float64(q.Low)), g(v)), views.LineMath)
		}
		return v
	case decoder.FamCoord:
		return x.coord(lbl(""))
	case decoder.FamSimTime:
		ticks := x.varint(lbl("ticks"), 5)
		v := float64(uint32(ticks)) * float64(d.TickInterval)
		x.add(lbl("="), fmt.Sprintf("%d ticks × %s s = %s s", uint32(ticks), strconv.FormatFloat(float64(d.TickInterval), 'g', -1, 32), g(v)), views.LineMath)
		return v
	case decoder.FamRuneTime:
		raw := x.bits(lbl("raw"), 4, func(v uint64) string { return fmt.Sprintf("= %d", v) })
		v := float64(math.Float32frombits(uint32(raw)))
		x.add(lbl("="), fmt.Sprintf("the 4 bits taken as float32 bits 0x%08x = %s", raw, g(v)), views.LineMath)
		return v
	}
	// Raw IEEE 754 float32.
	raw := uint32(x.bits(lbl("raw"), 32, nil))
	f := math.Float32frombits(raw)
	sign, exp, man := raw>>31, raw>>23&0xff, raw&0x7fffff
	x.add(lbl("ieee"), fmt.Sprintf("sign %d · exponent %s · mantissa %s", sign, msbFirst(uint64(exp), 8), msbFirst(uint64(man), 23)), views.LinePlain)
	s := "+"
	if sign == 1 {
		s = "−"
	}
	switch {
	case exp == 0xff && man == 0:
		x.add(lbl("="), s+"infinity", views.LineMath)
	case exp == 0xff:
		x.add(lbl("="), "NaN", views.LineMath)
	case exp == 0:
		x.add(lbl("="), fmt.Sprintf("%s%d / 2^23 × 2^-126 = %s (subnormal: no implicit 1)", s, man, g(float64(f))), views.LineMath)
	default:
		m := 1 + float64(man)/(1<<23)
		x.add(lbl("="), fmt.Sprintf("%s%s × 2^(%d − 127) = %s%s × 2^%d = %s", s, g(m), exp, s, g(m), int(exp)-127, g(float64(f))), views.LineMath)
	}
	return float64(f)
}

// coord explains Valve's bit coord.
func (x *explainer) coord(prefix string) float64 {
	lbl := func(s string) string { return strings.TrimSpace(prefix + " " + s) }
	hasInt := x.flag(lbl("int?"), func(b bool) string {
		if b {
			return "integer part present"
		}
		return "no integer part"
	})
	hasFrac := x.flag(lbl("frac?"), func(b bool) string {
		if b {
			return "fraction present"
		}
		return "no fraction"
	})
	if !hasInt && !hasFrac {
		x.add(lbl("="), "neither part → 0", views.LineMath)
		return 0
	}
	neg := x.flag(lbl("sign"), func(b bool) string {
		if b {
			return "negative"
		}
		return "positive"
	})
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
		v, s = -v, "−"
	}
	x.add(lbl("="), fmt.Sprintf("%s(%d + %d/32) = %s", s, i, f, g(v)), views.LineMath)
	return v
}

var compNames = [...]string{"x", "y", "z", "w"}

// value explains a whole field value.
func (x *explainer) value(d *decoder.Decoder) {
	switch d.Family {
	case decoder.FamUnsigned, decoder.FamDefault:
		x.varint("raw", 5)
	case decoder.FamUnsigned64:
		x.varint("raw", 10)
	case decoder.FamSigned, decoder.FamSigned64:
		n := 5
		if d.Family == decoder.FamSigned64 {
			n = 10
		}
		u := x.varint("raw", n)
		v := int64(u>>1) ^ -int64(u&1)
		if u&1 == 0 {
			x.add("zigzag", fmt.Sprintf("%d is even → %d / 2 = %d", u, u, v), views.LineMath)
		} else {
			x.add("zigzag", fmt.Sprintf("%d is odd → −(%d + 1) / 2 = %d", u, u, v), views.LineMath)
		}
	case decoder.FamHandle:
		u := x.varint("raw", 5)
		if u == decoder.HandleInvalid {
			x.add("handle", fmt.Sprintf("0x%x is the null handle", u), views.LineMath)
		} else {
			x.add("handle", fmt.Sprintf("0x%x: entity index = low 14 bits = %d, serial = the rest = %d", u, u&(1<<14-1), u>>14), views.LineMath)
		}
	case decoder.FamUnsignedMinusOne:
		u := x.varint("raw", 5)
		x.add("−1", fmt.Sprintf("%d − 1 = %d", u, int64(uint32(u))-1), views.LineMath)
	case decoder.FamBool:
		x.flag("bit", func(b bool) string { return "→ " + strconv.FormatBool(b) })
	case decoder.FamFixed64:
		v := x.bits("raw", 64, nil)
		x.add("=", fmt.Sprintf("64 bits little-endian = 0x%016x = %d", v, v), views.LineMath)
	case decoder.FamNoScale, decoder.FamQuantized, decoder.FamCoord, decoder.FamSimTime, decoder.FamRuneTime:
		x.floatValue(d, "")
	case decoder.FamVector:
		for i := 0; i < int(d.Components) && i < len(compNames); i++ {
			x.floatValue(d.Elem, compNames[i])
		}
	case decoder.FamNormal:
		var xy [2]float64
		has := [2]bool{}
		for i := range 2 {
			has[i] = x.flag(compNames[i]+"?", func(b bool) string {
				if b {
					return "component present"
				}
				return "component absent → 0"
			})
		}
		for i := range 2 {
			if !has[i] {
				continue
			}
			neg := x.flag(compNames[i]+" sign", func(b bool) string {
				if b {
					return "negative"
				}
				return "positive"
			})
			raw := x.bits(compNames[i]+" raw", 11, func(v uint64) string { return fmt.Sprintf("= %d", v) })
			v := float64(float32(raw) * (1 / float32(1<<11-1)))
			if neg {
				v = -v
			}
			xy[i] = v
			x.add(compNames[i]+" =", fmt.Sprintf("%d / 2047 = %s", raw, g(v)), views.LineMath)
		}
		negZ := x.flag("z sign", func(b bool) string {
			if b {
				return "negative"
			}
			return "positive"
		})
		z := 0.0
		if s := xy[0]*xy[0] + xy[1]*xy[1]; s < 1 {
			z = math.Sqrt(1 - s)
		}
		if negZ {
			z = -z
		}
		x.add("z =", fmt.Sprintf("√(1 − x² − y²) = %s", g(z)), views.LineMath)
	case decoder.FamQAnglePitchYaw, decoder.FamQAngleBits:
		n := 3
		if d.Family == decoder.FamQAnglePitchYaw {
			n = 2
		}
		names := [...]string{"pitch", "yaw", "roll"}
		for i := range n {
			raw := x.bits(names[i], uint(d.Bits), func(v uint64) string { return fmt.Sprintf("= %d", v) })
			v := float64(float32(raw) * 360 / float32(uint64(1)<<d.Bits))
			x.add(names[i]+" =", fmt.Sprintf("%d × 360 / 2^%d = %s", raw, d.Bits, g(v)), views.LineMath)
		}
	case decoder.FamQAngleCoord, decoder.FamQAnglePrecise:
		names := [...]string{"pitch", "yaw", "roll"}
		var has [3]bool
		for i := range 3 {
			has[i] = x.flag(names[i]+"?", func(b bool) string {
				if b {
					return "present"
				}
				return "absent → 0"
			})
		}
		for i := range 3 {
			if !has[i] {
				continue
			}
			if d.Family == decoder.FamQAngleCoord {
				x.coord(names[i])
				continue
			}
			raw := x.bits(names[i], 20, func(v uint64) string { return fmt.Sprintf("= %d", v) })
			v := float64(float32(raw)*360/float32(1<<20) - 180)
			x.add(names[i]+" =", fmt.Sprintf("%d × 360 / 2^20 − 180 = %s", raw, g(v)), views.LineMath)
		}
	case decoder.FamString:
		at := x.r.Pos()
		var bs []byte
		for len(bs) < decoder.MaxStringBytes {
			b := byte(x.r.Bits(8))
			if b == 0 || x.r.Overflowed() {
				break
			}
			bs = append(bs, b)
		}
		hex := make([]string, 0, 16)
		for _, b := range bs[:min(len(bs), 16)] {
			hex = append(hex, fmt.Sprintf("%02x", b))
		}
		more := ""
		if len(bs) > 16 {
			more = " …"
		}
		x.add("bytes", fmt.Sprintf("@%s  %s%s", bitio.Offset(at), strings.Join(hex, " "), more), views.LineBits)
		x.add("=", fmt.Sprintf("%d bytes up to a zero byte: %q", len(bs), bs), views.LineMath)
	case decoder.FamPolyPointer:
		if !x.flag("present?", func(b bool) string {
			if b {
				return "pointer set"
			}
			return "no object → −1"
		}) {
			return
		}
		at := x.r.Pos()
		v := x.r.UBitVar()
		n := x.r.Pos() - at
		x.r.Seek(at)
		x.bits("index", n, func(uint64) string { return fmt.Sprintf("ubitvar = %d: serializer alternative %d", v, v) })
	default:
		// A decoder this view has no walk-through for: show the raw bits.
	}
}

// fieldModel says how a path reaches the field's value.
func fieldModel(f *schema.Field, path fieldpath.Path) string {
	if f == nil {
		return ""
	}
	depth := 0
	if path.Last > 0 {
		depth = path.Last
	}
	switch f.Model {
	case schema.FixedArray:
		return fmt.Sprintf("element %d of a fixed array [%d]", path.Idx[depth], f.Type.Count)
	case schema.VariableArray:
		if int(path.Idx[path.Last]) != 0 || path.Last > 0 {
			return "variable array element (or length)"
		}
		return "variable array"
	case schema.FixedTable:
		return "pointer to a nested serializer (presence)"
	case schema.VariableTable:
		return "vector of nested serializers (length)"
	}
	return f.Model.String()
}

// ExplainInput is the selected field in its message.
type ExplainInput struct {
	Rec    *provenance.Message
	Data   []byte // the message's entity data
	Update int    // index into Rec.Updates
	Field  int    // index within the update's fields
	// Report, when set, is the message's diagnosis: the field's anomalies
	// and the message's problem are explained after what the field is.
	Report *diagnose.Report
	// Override, when set, says the field's decoder was put there by a
	// what-if (the recorded why is the schema's choice, not the one used).
	Override string
}

// Explain builds the inspector sections for one field: what it is, which
// decoder read it and why, its raw bits and the arithmetic to the value,
// and the field-path op that produced its path.
func Explain(in ExplainInput) []views.InspectorSection {
	u := &in.Rec.Updates[in.Update]
	fs := in.Rec.UpdateFields(in.Update)
	f := &fs[in.Field]
	var secs []views.InspectorSection

	// What.
	val := f.Value.String()
	if f.Prev.Kind != decoder.KindNone {
		val += "  (was " + f.Prev.String() + ")"
	} else {
		val += "  (was unset)"
	}
	what := []views.InspectorLine{
		{Label: "field", Text: f.Name + "  " + f.Path.String()},
		{Label: "entity", Text: fmt.Sprintf("#%d %s %s · field #%d of %d", u.Index, u.Class, u.Op, in.Field, len(fs))},
		{Label: "value", Text: val, Style: views.LineMath},
	}
	secs = append(secs, views.InspectorSection{Title: "Field", Lines: what})
	secs = append(secs, anomalySection(in.Report.FieldAnomalies(u.FirstField, in.Field))...)
	// The message's problem: right here when this field is its first
	// suspect, else after the field's own sections.
	suspect := in.Report != nil && in.Report.First != nil && in.Report.First.Field == u.FirstField+in.Field
	if suspect {
		secs = append(secs, problemSection(in.Report)...)
	}

	// Decoder.
	var dl []views.InspectorLine
	if d := f.Decoder; d != nil {
		desc := d.Describe()
		switch {
		case d.Family == decoder.FamQuantized && d.Q != nil:
			desc = quantSetup(d.Q)
		case d.Family == decoder.FamVector && d.Elem != nil && d.Elem.Family == decoder.FamQuantized && d.Elem.Q != nil:
			desc = fmt.Sprintf("vector of %d × %s", d.Components, quantSetup(d.Elem.Q))
		}
		dl = append(dl, views.InspectorLine{Label: "decoder", Text: desc})
	}
	if in.Override != "" {
		dl = append(dl, views.InspectorLine{Label: "what-if", Text: in.Override, Style: views.LineWarn})
		if f.Why != "" {
			dl = append(dl, views.InspectorLine{Label: "schema", Text: "would choose: " + f.Why, Style: views.LineDim})
		}
	} else if f.Why != "" {
		dl = append(dl, views.InspectorLine{Label: "why", Text: f.Why})
	}
	if s := f.Schema; s != nil {
		typ := s.VarType
		if s.Encoder != "" {
			typ += ", encoder " + s.Encoder
		}
		if s.BitCountSet {
			typ += fmt.Sprintf(", bit count %d", s.BitCount)
		}
		if s.LowSet || s.HighSet {
			typ += fmt.Sprintf(", range %s … %s", g(float64(s.Low)), g(float64(s.High)))
		}
		if s.EncodeFlags != 0 {
			typ += ", flags " + decoder.FlagNames(uint32(s.EncodeFlags))
		}
		if s.Model != schema.Simple {
			typ += "; " + fieldModel(s, f.Path)
		}
		dl = append(dl, views.InspectorLine{Label: "schema", Text: typ})
		if s.Patched != "" {
			dl = append(dl, views.InspectorLine{Label: "patched", Text: s.Patched, Style: views.LineWarn})
		}
		if s.Problem != "" {
			dl = append(dl, views.InspectorLine{Label: "problem", Text: s.Problem, Style: views.LineWarn})
		}
	}
	secs = append(secs, views.InspectorSection{Title: "Decoder", Lines: dl})

	// Bits to value.
	x := &explainer{}
	x.r.Reset(in.Data)
	x.r.Seek(f.Start)
	x.add("at", fmt.Sprintf("%s +%s (%d bits), LSB first", bitio.Offset(f.Start), bitio.Size(f.Bits), f.Bits), views.LinePlain)
	if f.Decoder != nil {
		x.value(f.Decoder)
	}
	used := x.r.Pos() - f.Start
	if used != f.Bits || f.Decoder == nil || x.r.Overflowed() {
		// Unknown walk-through or a disagreement: show the bits as read.
		x.r.Seek(f.Start)
		n := min(f.Bits, maxShownBits)
		if f.Decoder == nil || used == 0 {
			x.bits("raw", min(n, 64), nil)
		} else {
			x.add("note", fmt.Sprintf("re-reading used %d bits, the decode used %d", used, f.Bits), views.LineWarn)
		}
	}
	secs = append(secs, views.InspectorSection{Title: "Bits → value", Lines: x.lines})

	// Field-path op.
	var pl []views.InspectorLine
	prev := "start [-1]"
	if in.Field > 0 {
		prev = fs[in.Field-1].Path.String()
	}
	op := f.Op
	code := fieldpath.CodeOf(op.Op)
	pl = append(pl, views.InspectorLine{Label: "op", Text: op.Op.String()})
	pl = append(pl, views.InspectorLine{Label: "code", Text: fmt.Sprintf("%s (%d bits, Huffman)", code.String(), code.Len)})
	var pr bitio.Reader
	pr.Reset(in.Data)
	pr.Seek(op.Start)
	cb := pr.Bits64(uint(code.Len))
	opBits := fmt.Sprintf("@%s  %s", bitio.Offset(op.Start), lsbFirst(cb, uint(code.Len)))
	if op.Bits > uint(code.Len) {
		n := op.Bits - uint(code.Len)
		ob := pr.Bits64(min(n, 64))
		opBits += " | " + lsbFirst(ob, min(n, 64))
		pl = append(pl, views.InspectorLine{Label: "bits", Text: opBits, Style: views.LinePath})
		pl = append(pl, views.InspectorLine{Label: "operand", Text: fmt.Sprintf("%d bits after the code", n)})
	} else {
		pl = append(pl, views.InspectorLine{Label: "bits", Text: opBits, Style: views.LinePath})
		pl = append(pl, views.InspectorLine{Label: "operand", Text: "none"})
	}
	pl = append(pl, views.InspectorLine{Label: "path", Text: prev + " → " + f.Path.String()})
	if in.Field == len(fs)-1 && u.PathBits > 0 {
		fc := fieldpath.CodeOf(fieldpath.Finish)
		end := u.PathStart + u.PathBits
		pl = append(pl, views.InspectorLine{Label: "then", Text: fmt.Sprintf("%s (code %s) at %s ends the paths", fieldpath.Finish, fc.String(), bitio.Offset(end-uint(fc.Len))), Style: views.LineDim})
	}
	secs = append(secs, views.InspectorSection{Title: "Field path", Lines: pl})
	if !suspect {
		secs = append(secs, problemSection(in.Report)...)
	}
	return secs
}

// ExplainUpdate builds the inspector sections for an update without a
// selected field: its header, path stream and outcome, and the message's
// problem when rep (which may be nil) has one.
func ExplainUpdate(rec *provenance.Message, ui int, rep *diagnose.Report) []views.InspectorSection {
	u := &rec.Updates[ui]
	l := []views.InspectorLine{
		{Label: "entity", Text: fmt.Sprintf("#%d %s, serial %d", u.Index, u.Class, u.Serial)},
		{Label: "op", Text: u.Op.String()},
		{Label: "header", Text: fmt.Sprintf("%s, %s (index delta, command bits, create header)", bitio.Offset(u.Start), bitio.Size(u.HeaderBits))},
	}
	if u.Skipped {
		l = append(l, views.InspectorLine{Label: "fields", Text: "none: the PVS bits say this update carries no fields"})
	} else if u.PathBits > 0 {
		l = append(l, views.InspectorLine{Label: "paths", Text: fmt.Sprintf("%s, %s", bitio.Offset(u.PathStart), bitio.Size(u.PathBits))})
		l = append(l, views.InspectorLine{Label: "fields", Text: fmt.Sprint(u.NumFields)})
	} else {
		l = append(l, views.InspectorLine{Label: "fields", Text: "none"})
	}
	if u.End > u.Start {
		l = append(l, views.InspectorLine{Label: "ends", Text: fmt.Sprintf("%s (%s in all)", bitio.Offset(u.End), bitio.Size(u.End-u.Start))})
	}
	if u.Err != "" {
		l = append(l, views.InspectorLine{Label: "error", Text: u.Err, Style: views.LineError})
	}
	return append([]views.InspectorSection{{Title: "Update", Lines: l}}, problemSection(rep)...)
}
