package decoder

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind says which member of a Value holds the data.
type Kind uint8

const (
	KindNone   Kind = iota
	KindBool        // U is 0 or 1
	KindUint        // U
	KindInt         // int64(U)
	KindFloat       // F[0]
	KindVector      // F[:N]
	KindString      // S
	KindHandle      // U: entity handle (index in the low bits, serial above)
)

// Value is one decoded field value. It holds no pointer (strings are
// interned, U holding their id), so entity state is invisible to the garbage
// collector's scan and copying it is a plain memory copy.
type Value struct {
	Kind Kind
	N    uint8 // vector components
	U    uint64
	F    [4]float64
}

// Bool, Uint, Int, Float make values of one kind.
func Bool(b bool) Value {
	if b {
		return Value{Kind: KindBool, U: 1}
	}
	return Value{Kind: KindBool}
}
func Uint(u uint64) Value   { return Value{Kind: KindUint, U: u} }
func Int(i int64) Value     { return Value{Kind: KindInt, U: uint64(i)} }
func Float(f float64) Value { return Value{Kind: KindFloat, F: [4]float64{f}} }
func String(s string) Value { return defaultPool.String(s) }

// StringBytes makes a string value from bytes without allocating when the
// string was seen before (in the default pool; see Pool).
func StringBytes(b []byte) Value { return defaultPool.StringBytes(b) }

// Str is the string of a KindString value.
func (v Value) Str() string {
	if v.Kind != KindString {
		return ""
	}
	return lookup(v.U)
}
func Handle(u uint64) Value { return Value{Kind: KindHandle, U: u} }
func Vector(c ...float64) Value {
	v := Value{Kind: KindVector, N: uint8(len(c))}
	copy(v.F[:], c)
	return v
}

// Int64 is the value as a signed integer.
func (v Value) Int64() int64 { return int64(v.U) }

// Float64 is the first float component.
func (v Value) Float64() float64 { return v.F[0] }

// Components are the vector components.
func (v Value) Components() []float64 { return v.F[:v.N] }

// Handle bit layout: 14 bits of entity index, the serial above them.
const (
	HandleIndexBits = 14
	HandleInvalid   = 1<<24 - 1 // the "no entity" handle Valve sends
)

// HandleIndex is the entity index a handle refers to.
func (v Value) HandleIndex() int { return int(v.U & (1<<HandleIndexBits - 1)) }

// HandleSerial is the serial part of a handle.
func (v Value) HandleSerial() int { return int(v.U >> HandleIndexBits) }

// Equal compares two values exactly (floats by bits, so NaN equals itself).
func (v Value) Equal(w Value) bool {
	if v.Kind != w.Kind || v.N != w.N || v.U != w.U {
		return false
	}
	for i := range v.F {
		if math.Float64bits(v.F[i]) != math.Float64bits(w.F[i]) {
			return false
		}
	}
	return true
}

func formatFloat(b []byte, f float64) []byte {
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// String is the human form shown in the debugger.
func (v Value) String() string { return string(v.AppendText(nil)) }

// AppendText appends the human form.
func (v Value) AppendText(b []byte) []byte {
	switch v.Kind {
	case KindBool:
		return strconv.AppendBool(b, v.U != 0)
	case KindUint:
		return strconv.AppendUint(b, v.U, 10)
	case KindInt:
		return strconv.AppendInt(b, int64(v.U), 10)
	case KindFloat:
		return formatFloat(b, v.F[0])
	case KindVector:
		b = append(b, '[')
		for i := 0; i < int(v.N); i++ {
			if i > 0 {
				b = append(b, ' ')
			}
			b = formatFloat(b, v.F[i])
		}
		return append(b, ']')
	case KindString:
		return strconv.AppendQuote(b, v.Str())
	case KindHandle:
		if v.U == HandleInvalid {
			return append(b, "null handle"...)
		}
		b = append(b, "#"...)
		b = strconv.AppendInt(b, int64(v.HandleIndex()), 10)
		b = append(b, " serial "...)
		return strconv.AppendInt(b, int64(v.HandleSerial()), 10)
	}
	return append(b, '-')
}

func appendJSONFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		// JSON has no NaN or infinity; a string keeps the line parseable.
		b = append(b, '"')
		b = formatFloat(b, f)
		return append(b, '"')
	}
	return formatFloat(b, f)
}

// TextAs is the human form as the decoder d that read v would have it: a
// binary block's bytes in hex ("6 bytes: 02 00 de b0 67 01", the first 64
// of a longer one), as text they would be arbitrary runes, some of no
// width; anything else as String.
func (v Value) TextAs(d *Decoder) string {
	if v.Kind != KindString || d == nil || d.Family != FamBinaryBlock {
		return v.String()
	}
	const maxShown = 64
	bs := []byte(v.Str())
	b := strconv.AppendInt(nil, int64(len(bs)), 10)
	if len(bs) == 1 {
		b = append(b, " byte"...)
	} else {
		b = append(b, " bytes"...)
	}
	for i, c := range bs {
		if i == maxShown {
			b = append(b, " …"...)
			break
		}
		if i == 0 {
			b = append(b, ':')
		}
		b = append(b, ' ')
		b = hex.AppendEncode(b, []byte{c})
	}
	return string(b)
}

// AppendJSONAs writes v as JSON as the decoder d that read it would have
// it: a binary block's bytes as a hex string (as text they would become
// U+FFFD), anything else as AppendJSON.
func (v Value) AppendJSONAs(b []byte, d *Decoder) []byte {
	if v.Kind == KindString && d != nil && d.Family == FamBinaryBlock {
		b = append(b, '"')
		b = hex.AppendEncode(b, []byte(v.Str()))
		return append(b, '"')
	}
	return v.AppendJSON(b)
}

// AppendJSON appends the value as JSON: integers exact, floats as numbers,
// vectors as arrays.
func (v Value) AppendJSON(b []byte) []byte {
	switch v.Kind {
	case KindBool:
		return strconv.AppendBool(b, v.U != 0)
	case KindUint, KindHandle:
		return strconv.AppendUint(b, v.U, 10)
	case KindInt:
		return strconv.AppendInt(b, int64(v.U), 10)
	case KindFloat:
		return appendJSONFloat(b, v.F[0])
	case KindVector:
		b = append(b, '[')
		for i := 0; i < int(v.N); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONFloat(b, v.F[i])
		}
		return append(b, ']')
	case KindString:
		s := v.Str()
		if !utf8.ValidString(s) {
			return appendJSONString(b, strings.ToValidUTF8(s, "\uFFFD"))
		}
		return appendJSONString(b, s)
	}
	return append(b, "null"...)
}

func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// Varint is the varint a varint family's decoder read to give v, as it
// was on the wire (a signed value zigzagged back, one added to a value
// sent plus one); false for a family that reads no single varint.
func (d *Decoder) Varint(v Value) (uint64, bool) {
	switch d.Family {
	case FamUnsigned, FamDefault, FamHandle, FamUnsigned64:
		return v.U, true
	case FamSigned, FamSigned64:
		s := int64(v.U)
		return uint64(s<<1) ^ uint64(s>>63), true
	case FamUnsignedMinusOne:
		return uint64(int64(v.U) + 1), true
	}
	return 0, false
}
