package diagnose

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
)

// Rule names an anomaly.
type Rule string

const (
	NonFinite      Rule = "non-finite float"
	Denormal       Rule = "denormal float"
	AbsurdFloat    Rule = "absurdly large float"
	VarintTooLong  Rule = "varint longer than its value needs"
	VarintOverflow Rule = "varint holding more than 32 bits"
	OutOfTypeRange Rule = "integer outside its type"
	NotUTF8        Rule = "string is not UTF-8"
	ControlChars   Rule = "string holds control characters"
	DanglingHandle Rule = "handle to an entity that does not exist"
	HugeArray      Rule = "variable array longer than any sane bound"
	Fallback       Rule = "decoded by the fallback decoder (type unknown)"
	PathOutside    Rule = "field path outside the serializer"
	PathOrder      Rule = "field path does not follow the one before"
	UnreadBits     Rule = "bits left unread at the end of the entity data"
	OverRead       Rule = "read past the end of the entity data"
	BadDeletion    Rule = "deletion of an entity that does not exist"
)

// Explanations say, per rule, why it matters.
var Explanations = map[Rule]string{
	NonFinite:      "NaN or infinity: raw bits read as an IEEE float that no game state holds; usually integer or packed bits read with the raw-float decoder.",
	Denormal:       "a tiny non-zero float (below 1.2e-38): typical of a small integer's bits read as a float. Only a raw 32-bit float can be one; in an element of a variable array of floats it is weak, as Valve keeps other values' bits in some (CS2's m_PredFloatVariables).",
	AbsurdFloat:    "magnitude above 1e9: Source 2 worlds span ±16384 units and times are seconds.",
	VarintTooLong:  "Valve writes varints in their shortest form; a longer one means the bytes belong to something else.",
	VarintOverflow: "a 5-byte varint read as 32 bits: bits above the 32nd were cut (the type likely needs 64 bits, as itemid_t does), or its last byte is padding; the read consumed the varint whole, so alignment is not at stake.",
	OutOfTypeRange: "the value does not fit the field's declared integer type.",
	NotUTF8:        "networked strings are UTF-8; invalid bytes suggest the string started at the wrong bit.",
	ControlChars:   "control characters in a networked string suggest it started at the wrong bit.",
	DanglingHandle: "the handle names no live entity (weak on its own: the entity may arrive later).",
	HugeArray:      "a variable array length in the thousands usually is other data read as a length.",
	Fallback:       "the field's type has no known decoder, so it was read as an unsigned varint; if that guess is wrong every later bit shifts.",
	PathOutside:    "a field path indexes past the serializer: the path bits were read from the wrong place.",
	PathOrder:      "Valve writes an update's field paths in increasing order (every shared replay does); a path at or before the previous one was read from bits that belong to something else.",
	UnreadBits:     "the updates ended a byte or more before the data did: some field read too few bits.",
	OverRead:       "the updates needed more bits than the data holds: some field read too many.",
	BadDeletion:    "the deletion list that ends a delta message names entities that are not there: it was read from bits that belong to something else.",
}

// Scores: how strongly each rule points at a misread (0..1).
var Scores = map[Rule]float64{
	NonFinite: 1, Denormal: 0.6, AbsurdFloat: 0.5, VarintTooLong: 0.8, VarintOverflow: 0.3, OutOfTypeRange: 0.7,
	NotUTF8: 0.7, ControlChars: 0.5, DanglingHandle: 0.2, HugeArray: 0.8, Fallback: 0.4,
	PathOutside: 1, PathOrder: 1, UnreadBits: 1, OverRead: 1, BadDeletion: 0.9,
}

// Anomaly is one rule tripped by one field.
type Anomaly struct {
	Rule   Rule
	Score  float64
	Detail string
}

func (a Anomaly) String() string {
	if a.Detail == "" {
		return string(a.Rule)
	}
	return string(a.Rule) + ": " + a.Detail
}

func hit(r Rule, format string, args ...any) Anomaly {
	return Anomaly{Rule: r, Score: Scores[r], Detail: fmt.Sprintf(format, args...)}
}

// MaxSaneArray is the longest variable array we believe.
const MaxSaneArray = 1024

// Lookup says whether an entity with this index and serial exists.
type Lookup func(index, serial int) bool

// varintBytes is the shortest encoding's length.
func varintBytes(u uint64) uint {
	return max(1, uint(bits.Len64(u)+6)/7)
}

var intRanges = map[string][2]int64{
	"int8": {math.MinInt8, math.MaxInt8}, "int16": {math.MinInt16, math.MaxInt16},
	"uint8": {0, math.MaxUint8}, "uint16": {0, math.MaxUint16},
}

// Field checks one decoded field.
func Field(f *provenance.Field, exists Lookup) []Anomaly {
	var out []Anomaly
	v := f.Value
	fam := f.Decoder.Family
	switch {
	case fam == decoder.FamDefault:
		out = append(out, hit(Fallback, "%s read as unsigned varint", baseType(f.Schema)))
	}
	switch v.Kind {
	case decoder.KindFloat, decoder.KindVector:
		n := 1
		if v.Kind == decoder.KindVector {
			n = int(v.N)
		}
		for i := 0; i < n; i++ {
			x := v.F[i]
			switch {
			case math.IsNaN(x) || math.IsInf(x, 0):
				out = append(out, hit(NonFinite, "%g", x))
			case x != 0 && math.Abs(x) < 1.1754943508222875e-38 && fam != decoder.FamRuneTime:
				// (rune time is a raw float's bits read as one: always tiny)
				a := hit(Denormal, "%g", x)
				if isArrayElement(f) {
					// A generic float array is storage: CS2's
					// m_PredFloatVariables hold other values' bits.
					a.Score, a.Detail = WeakDenormal, a.Detail+" (an element of a float array)"
				}
				out = append(out, a)
			case math.Abs(x) > 1e9:
				out = append(out, hit(AbsurdFloat, "%g", x))
			}
		}
	case decoder.KindUint, decoder.KindInt, decoder.KindHandle:
		if isVarint(fam) {
			raw := v.U
			if fam == decoder.FamSigned || fam == decoder.FamSigned64 {
				s := int64(v.U)
				raw = uint64(s<<1) ^ uint64(s>>63)
			}
			switch used, need := f.Bits/8, varintBytes(raw); {
			case fam == decoder.FamUnsignedMinusOne || used <= need:
			case used == 5 && is32BitVarint(fam):
				// A 32-bit read keeps the low 32 bits of what may be a
				// wider value: a cut, not a misread.
				out = append(out, hit(VarintOverflow, "5 bytes read as 32 bits: kept %d", raw))
			default:
				out = append(out, hit(VarintTooLong, "%d bytes for a value that needs %d", used, need))
			}
		}
		if r, ok := intRanges[baseType(f.Schema)]; ok && !isArrayLength(f) {
			x := int64(v.U)
			if v.Kind == decoder.KindUint && v.U > math.MaxInt64 || x < r[0] || x > r[1] {
				out = append(out, hit(OutOfTypeRange, "%s is outside %s", v, baseType(f.Schema)))
			}
		}
		if isArrayLength(f) && v.U > MaxSaneArray {
			out = append(out, hit(HugeArray, "length %d", v.U))
		}
		if v.Kind == decoder.KindHandle && v.U != decoder.HandleInvalid && exists != nil && !exists(v.HandleIndex(), v.HandleSerial()) {
			out = append(out, hit(DanglingHandle, "%s", v))
		}
	case decoder.KindString:
		if fam == decoder.FamBinaryBlock {
			break // bytes, not text
		}
		s := v.Str()
		if !utf8.ValidString(s) {
			out = append(out, hit(NotUTF8, "%q", s))
		} else {
			for _, c := range s {
				if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
					out = append(out, hit(ControlChars, "%q", s))
					break
				}
			}
		}
	}
	return out
}

// WideVarint reads again the whole varint of a field a 32-bit varint
// decoder read (up to 5 bytes, up to 35 bits): the value before the cut.
// It needs the message's data; ok is false without it or for another
// decoder.
func WideVarint(m *provenance.Message, f *provenance.Field) (raw uint64, ok bool) {
	if m == nil || f.Decoder == nil || !is32BitVarint(f.Decoder.Family) || f.Bits == 0 || f.Bits > 40 || f.Start+f.Bits > uint(len(m.Data))*8 {
		return 0, false
	}
	r := bitio.NewReader(m.Data)
	r.Seek(f.Start)
	for i := uint(0); i < f.Bits/8; i++ {
		raw |= uint64(r.Bits(8)&0x7f) << (7 * i)
	}
	return raw, !r.Overflowed()
}

// overflowDetail says what a cut varint held and what was kept.
func overflowDetail(m *provenance.Message, f *provenance.Field) (string, bool) {
	raw, ok := WideVarint(m, f)
	if !ok {
		return "", false
	}
	kept := fmt.Sprint(uint32(raw))
	switch f.Decoder.Family {
	case decoder.FamSigned:
		kept = fmt.Sprint(int32(uint32(raw)>>1) ^ -int32(raw&1))
		s := int64(raw>>1) ^ -int64(raw&1)
		return fmt.Sprintf("read %d (zigzag %d, %d bits), kept the low 32 bits: %s", s, raw, bits.Len64(raw), kept), true
	}
	return fmt.Sprintf("read %d (%d bits), kept the low 32 bits: %s", raw, bits.Len64(raw), kept), true
}

// is32BitVarint reports whether f reads a varint into 32 bits.
func is32BitVarint(f decoder.Family) bool {
	switch f {
	case decoder.FamUnsigned, decoder.FamDefault, decoder.FamSigned, decoder.FamHandle:
		return true
	}
	return false
}

func isVarint(f decoder.Family) bool {
	switch f {
	case decoder.FamUnsigned, decoder.FamDefault, decoder.FamUnsigned64, decoder.FamSigned, decoder.FamSigned64, decoder.FamHandle, decoder.FamUnsignedMinusOne:
		return true
	}
	return false
}

// isArrayLength reports whether the record is a variable array's length:
// the path ends at the array field itself, so its name ends with the
// field's (an element's ends with its index, "m_vecX.0001"). The decoder
// cannot tell: a uint32 element is read by the same one as a length.
func isArrayLength(f *provenance.Field) bool {
	if f.Schema == nil {
		return false
	}
	m := f.Schema.Model
	return (m == schema.VariableArray || m == schema.VariableTable) && f.Decoder == f.Schema.Decoder && strings.HasSuffix(f.Name, f.Schema.Name)
}

// isArrayElement reports whether the record is an element of a variable
// array (its name goes on past the array field's: "m_vecX.0001").
func isArrayElement(f *provenance.Field) bool {
	if f.Schema == nil || f.Schema.Model != schema.VariableArray {
		return false
	}
	i := strings.LastIndex(f.Name, f.Schema.Name)
	return i >= 0 && len(f.Name) > i+len(f.Schema.Name)
}

// WeakDenormal is the denormal rule's score on an element of a float
// array.
const WeakDenormal = 0.3

func baseType(f *schema.Field) string {
	if f == nil {
		return "?"
	}
	if f.Model == schema.VariableArray && f.Type.Generic != nil {
		return f.Type.Generic.Base
	}
	return f.Type.Base
}
