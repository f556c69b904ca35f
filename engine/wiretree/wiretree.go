package wiretree

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// MaxDepth is how many levels of nested messages Parse expands below the top
// level. Deeper length-delimited fields are left as plain bytes.
const MaxDepth = 16

// maxNestedField is the exclusive upper bound on field numbers accepted when
// guessing that a bytes field holds a nested message. Real schemas rarely use
// large numbers, while random bytes often decode to huge ones.
const maxNestedField = 1 << 16

// Node is one decoded field.
type Node struct {
	Field  protowire.Number
	Type   protowire.Type
	Offset int    // byte offset of the tag within the top-level buffer given to Parse
	Len    int    // bytes of tag+value
	Varint uint64 // value for varint, fixed32 and fixed64 fields
	Bytes  []byte // value for bytes fields (aliases the input, capacity clipped)
	// Children is set when Bytes parses fully as a nested message and looks
	// like one (see Parse).
	Children []Node
}

// ParseError reports malformed wire data.
type ParseError struct {
	Offset int              // byte offset of the tag of the field that failed
	Field  protowire.Number // field number, 0 if the tag itself was malformed
	Err    error            // underlying cause
}

func (e *ParseError) Error() string {
	if e.Field != 0 {
		return fmt.Sprintf("wiretree: offset %d (0x%x): field %d: %v", e.Offset, e.Offset, e.Field, e.Err)
	}
	return fmt.Sprintf("wiretree: offset %d (0x%x): %v", e.Offset, e.Offset, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

var (
	// ErrGroup is the cause reported for (unsupported) group wire types.
	ErrGroup = errors.New("group wire type not supported")
	// ErrWireType is the cause reported for reserved wire types 6 and 7.
	ErrWireType = errors.New("invalid wire type")
	// ErrFieldNumber is the cause reported for out-of-range field numbers.
	ErrFieldNumber = errors.New("invalid field number")
)

// field decodes one field at the start of b. It returns the bytes consumed
// or, when n < 0, a non-nil cause (num is set when the tag was decoded).
// It does not allocate on success.
func field(b []byte, maxNum protowire.Number) (num protowire.Number, typ protowire.Type, v uint64, data []byte, n int, err error) {
	num, typ, tn := protowire.ConsumeTag(b)
	if tn < 0 {
		return 0, 0, 0, nil, -1, protowire.ParseError(tn)
	}
	if !num.IsValid() || num >= maxNum {
		return 0, 0, 0, nil, -1, ErrFieldNumber
	}
	rest := b[tn:]
	var vn int
	switch typ {
	case protowire.VarintType:
		v, vn = protowire.ConsumeVarint(rest)
	case protowire.Fixed32Type:
		var x uint32
		x, vn = protowire.ConsumeFixed32(rest)
		v = uint64(x)
	case protowire.Fixed64Type:
		v, vn = protowire.ConsumeFixed64(rest)
	case protowire.BytesType:
		data, vn = protowire.ConsumeBytes(rest)
		if vn >= 0 {
			data = data[:len(data):len(data)]
		}
	case protowire.StartGroupType, protowire.EndGroupType:
		return num, typ, 0, nil, -1, ErrGroup
	default:
		return num, typ, 0, nil, -1, ErrWireType
	}
	if vn < 0 {
		return num, typ, 0, nil, -1, protowire.ParseError(vn)
	}
	return num, typ, v, data, tn + vn, nil
}

// Fields iterates over the top-level fields of b, calling fn for each. For
// varint, fixed32 and fixed64 fields v holds the value (fixed32 zero-extended)
// and data is nil; for bytes fields data aliases b. It stops at the first
// malformed field and returns a *ParseError naming the offset of its tag.
// If fn returns an error, iteration stops and that error is returned as is.
// Fields does not allocate unless it reports an error.
func Fields(b []byte, fn func(num protowire.Number, typ protowire.Type, v uint64, data []byte) error) error {
	c := NewCursor(b)
	for c.Next() {
		if err := fn(c.Num, c.Type, c.V, c.Data); err != nil {
			// A value the caller refuses is located like a malformed one:
			// at its field's tag.
			var pe *ParseError
			if errors.As(err, &pe) {
				return err
			}
			return &ParseError{Offset: c.Offset(), Field: c.Num, Err: err}
		}
	}
	return c.Err()
}

// Lookup returns the last occurrence of field num in b (protobuf's "last one
// wins" rule for scalars). found is false if the field is absent; err is set
// if b is malformed.
func Lookup(b []byte, num protowire.Number) (typ protowire.Type, v uint64, data []byte, found bool, err error) {
	for off := 0; off < len(b); {
		n0, t, x, d, n, ferr := field(b[off:], protowire.MaxValidNumber+1)
		if ferr != nil {
			return 0, 0, nil, false, &ParseError{Offset: off, Field: n0, Err: ferr}
		}
		if n0 == num {
			typ, v, data, found = t, x, d, true
		}
		off += n
	}
	return typ, v, data, found, nil
}

// PackedVarints calls fn for each varint in a packed repeated field's data.
// It returns a *ParseError (offset relative to data) on truncation.
func PackedVarints(data []byte, fn func(v uint64)) error {
	for off := 0; off < len(data); {
		v, n := protowire.ConsumeVarint(data[off:])
		if n < 0 {
			return &ParseError{Offset: off, Err: protowire.ParseError(n)}
		}
		fn(v)
		off += n
	}
	return nil
}

// PackedFixed32 calls fn for each 4-byte value in a packed repeated field.
func PackedFixed32(data []byte, fn func(v uint32)) error {
	off := 0
	for ; off+4 <= len(data); off += 4 {
		v, _ := protowire.ConsumeFixed32(data[off:])
		fn(v)
	}
	if off != len(data) {
		return &ParseError{Offset: off, Err: protowire.ParseError(-1)}
	}
	return nil
}

// PackedFixed64 calls fn for each 8-byte value in a packed repeated field.
func PackedFixed64(data []byte, fn func(v uint64)) error {
	off := 0
	for ; off+8 <= len(data); off += 8 {
		v, _ := protowire.ConsumeFixed64(data[off:])
		fn(v)
	}
	if off != len(data) {
		return &ParseError{Offset: off, Err: protowire.ParseError(-1)}
	}
	return nil
}

// Typed conversions of the v passed to Fields.

func Int32(v uint64) int32     { return int32(v) }
func Int64(v uint64) int64     { return int64(v) }
func Bool(v uint64) bool       { return v != 0 }
func Sint32(v uint64) int32    { return int32(protowire.DecodeZigZag(v & math.MaxUint32)) }
func Sint64(v uint64) int64    { return protowire.DecodeZigZag(v) }
func Float32(v uint64) float32 { return math.Float32frombits(uint32(v)) }

// Parse decodes b into a tree of nodes. A length-delimited field gets
// Children when its payload is non-empty, is not a plausibly printable UTF-8
// string, and parses to its exact end with every tag valid and every field
// number below 1<<16. Nesting is expanded at most MaxDepth levels deep.
//
// On malformed input Parse returns the top-level nodes decoded before the
// failure together with a *ParseError naming the offset of the bad field's tag.
func Parse(b []byte) ([]Node, error) {
	return parseLevel(b, 0, 0, protowire.MaxValidNumber+1)
}

func parseLevel(b []byte, base, depth int, maxNum protowire.Number) ([]Node, error) {
	var nodes []Node
	for off := 0; off < len(b); {
		num, typ, v, data, n, err := field(b[off:], maxNum)
		if err != nil {
			return nodes, &ParseError{Offset: base + off, Field: num, Err: err}
		}
		nd := Node{Field: num, Type: typ, Offset: base + off, Len: n, Varint: v}
		if typ == protowire.BytesType {
			nd.Bytes = data
			if depth < MaxDepth && len(data) > 0 && !printable(data) {
				valOff := base + off + n - len(data)
				if kids, err := parseLevel(data, valOff, depth+1, maxNestedField); err == nil {
					nd.Children = kids
				}
			}
		}
		nodes = append(nodes, nd)
		off += n
	}
	return nodes, nil
}

// printable reports whether b is valid UTF-8 made only of printable runes
// and common whitespace.
func printable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if r == '\n' || r == '\r' || r == '\t' {
			continue
		}
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

const (
	maxHexBytes    = 32
	maxStringBytes = 96
)

// ValueString renders the node's value for humans:
//
//	varint   "150", "4294967295 (-1 as int32)", "18446744073709551614 (-2 as int64)", "7 (zigzag -4)"
//	fixed32  "1.5 (0x3fc00000)" or, when the float is implausible, "42 (0x0000002a, float 5.9e-44)"
//	fixed64  likewise with float64
//	bytes    a quoted string if printable UTF-8, else hex, truncated with "…(N bytes)"
//
// Nested messages are rendered as "{N fields}" plus the raw bytes.
func (n Node) ValueString() string {
	switch n.Type {
	case protowire.VarintType:
		return varintString(n.Varint)
	case protowire.Fixed32Type:
		return fixedString(n.Varint, float64(math.Float32frombits(uint32(n.Varint))), 8, int64(int32(uint32(n.Varint))))
	case protowire.Fixed64Type:
		return fixedString(n.Varint, math.Float64frombits(n.Varint), 16, int64(n.Varint))
	case protowire.BytesType:
		if n.Children != nil {
			return fmt.Sprintf("{%d fields} %s", len(n.Children), hexString(n.Bytes))
		}
		return bytesString(n.Bytes)
	}
	return fmt.Sprintf("<wire type %d>", n.Type)
}

func varintString(v uint64) string {
	s := strconv.FormatUint(v, 10)
	switch i := int64(v); {
	case i < 0 && i >= math.MinInt32:
		return s + " (" + strconv.FormatInt(i, 10) + " as int32)"
	case i < 0:
		return s + " (" + strconv.FormatInt(i, 10) + " as int64)"
	case v >= 1<<31 && v < 1<<32:
		return s + " (" + strconv.FormatInt(int64(int32(uint32(v))), 10) + " as int32)"
	case v&1 == 1 && v > 1:
		return s + " (zigzag " + strconv.FormatInt(protowire.DecodeZigZag(v), 10) + ")"
	}
	return s
}

// plausibleFloat reports whether f looks like a real-world float value rather
// than an integer's bit pattern.
func plausibleFloat(f float64) bool {
	if f == 0 {
		return true
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return false
	}
	a := math.Abs(f)
	return a >= 1e-12 && a <= 1e15
}

func fixedString(bits uint64, f float64, hexDigits int, signed int64) string {
	hx := fmt.Sprintf("0x%0*x", hexDigits, bits)
	fs := strconv.FormatFloat(f, 'g', -1, 64)
	if hexDigits == 8 {
		fs = strconv.FormatFloat(f, 'g', -1, 32)
	}
	if plausibleFloat(f) {
		return fs + " (" + hx + ")"
	}
	is := strconv.FormatUint(bits, 10)
	if signed < 0 {
		is += " / " + strconv.FormatInt(signed, 10)
	}
	return is + " (" + hx + ", float " + fs + ")"
}

func bytesString(b []byte) string {
	if printable(b) {
		if len(b) <= maxStringBytes {
			return strconv.Quote(string(b))
		}
		cut := maxStringBytes
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		return strconv.Quote(string(b[:cut])) + fmt.Sprintf("…(%d bytes)", len(b))
	}
	return hexString(b)
}

func hexString(b []byte) string {
	if len(b) == 0 {
		return `""`
	}
	const digits = "0123456789abcdef"
	n := min(len(b), maxHexBytes)
	var sb strings.Builder
	sb.Grow(n*3 + 16)
	for i := range n {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteByte(digits[b[i]>>4])
		sb.WriteByte(digits[b[i]&15])
	}
	if len(b) > maxHexBytes {
		fmt.Fprintf(&sb, "…(%d bytes)", len(b))
	}
	return sb.String()
}

// TypeName returns a short name for a wire type ("varint", "bytes", …).
func TypeName(t protowire.Type) string {
	switch t {
	case protowire.VarintType:
		return "varint"
	case protowire.Fixed32Type:
		return "fixed32"
	case protowire.Fixed64Type:
		return "fixed64"
	case protowire.BytesType:
		return "bytes"
	case protowire.StartGroupType:
		return "group"
	case protowire.EndGroupType:
		return "endgroup"
	}
	return "type" + strconv.Itoa(int(t))
}

// Format renders nodes as a multi-line tree, one field per line, children
// indented by one more copy of indent:
//
//	#1 varint @0x0 (2 bytes): 150
//	#3 bytes @0x2 (12 bytes): {2 fields}
//	  #1 bytes @0x4 (5 bytes): "abc"
func Format(nodes []Node, indent string) string {
	var sb strings.Builder
	formatTo(&sb, nodes, indent, 0)
	return sb.String()
}

func formatTo(sb *strings.Builder, nodes []Node, indent string, depth int) {
	for _, n := range nodes {
		for range depth {
			sb.WriteString(indent)
		}
		fmt.Fprintf(sb, "#%d %s @0x%x (%d bytes): ", n.Field, TypeName(n.Type), n.Offset, n.Len)
		if n.Children != nil {
			fmt.Fprintf(sb, "{%d fields}\n", len(n.Children))
			formatTo(sb, n.Children, indent, depth+1)
			continue
		}
		sb.WriteString(n.ValueString())
		sb.WriteByte('\n')
	}
}
