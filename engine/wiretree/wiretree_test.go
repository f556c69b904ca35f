package wiretree

import (
	"errors"
	"math"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// sample builds a message exercising every supported wire type and records
// the offset of each top-level field's tag.
type sample struct {
	b    []byte
	offs []int
}

// negU64 returns the two's-complement varint payload of a negative integer.
func negU64(v int64) uint64 { return uint64(v) }

func buildSample() sample {
	var s sample
	mark := func() { s.offs = append(s.offs, len(s.b)) }

	mark() // #1 varint 150
	s.b = protowire.AppendTag(s.b, 1, protowire.VarintType)
	s.b = protowire.AppendVarint(s.b, 150)

	mark() // #2 string
	s.b = protowire.AppendTag(s.b, 2, protowire.BytesType)
	s.b = protowire.AppendString(s.b, "testing")

	// #3 nested message {1: 42, 2: "abc", 3: {7: 1}}
	var inner2 []byte
	inner2 = protowire.AppendTag(inner2, 7, protowire.VarintType)
	inner2 = protowire.AppendVarint(inner2, 1)
	var inner []byte
	inner = protowire.AppendTag(inner, 1, protowire.VarintType)
	inner = protowire.AppendVarint(inner, 42)
	inner = protowire.AppendTag(inner, 2, protowire.BytesType)
	inner = protowire.AppendString(inner, "abc")
	inner = protowire.AppendTag(inner, 3, protowire.BytesType)
	inner = protowire.AppendBytes(inner, inner2)
	mark()
	s.b = protowire.AppendTag(s.b, 3, protowire.BytesType)
	s.b = protowire.AppendBytes(s.b, inner)

	// #4 packed varints [1, 2, 3, 300] — field number 0 tag, so not a message.
	var packed []byte
	for _, v := range []uint64{1, 2, 3, 300} {
		packed = protowire.AppendVarint(packed, v)
	}
	mark()
	s.b = protowire.AppendTag(s.b, 4, protowire.BytesType)
	s.b = protowire.AppendBytes(s.b, packed)

	mark() // #5 int32 -1, encoded as a 10-byte varint
	s.b = protowire.AppendTag(s.b, 5, protowire.VarintType)
	s.b = protowire.AppendVarint(s.b, negU64(-1))

	mark() // #6 float 1.5
	s.b = protowire.AppendTag(s.b, 6, protowire.Fixed32Type)
	s.b = protowire.AppendFixed32(s.b, math.Float32bits(1.5))

	mark() // #7 fixed64 steam id
	s.b = protowire.AppendTag(s.b, 7, protowire.Fixed64Type)
	s.b = protowire.AppendFixed64(s.b, 76561197960287930)

	mark() // #1000 large field number, sint32 -3
	s.b = protowire.AppendTag(s.b, 1000, protowire.VarintType)
	s.b = protowire.AppendVarint(s.b, protowire.EncodeZigZag(-3))
	return s
}

func TestParseSample(t *testing.T) {
	s := buildSample()
	nodes, err := Parse(s.b)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if len(nodes) != len(s.offs) {
		t.Fatalf("got %d nodes, want %d", len(nodes), len(s.offs))
	}
	wantField := []protowire.Number{1, 2, 3, 4, 5, 6, 7, 1000}
	wantType := []protowire.Type{protowire.VarintType, protowire.BytesType, protowire.BytesType, protowire.BytesType,
		protowire.VarintType, protowire.Fixed32Type, protowire.Fixed64Type, protowire.VarintType}
	for i, n := range nodes {
		if n.Field != wantField[i] || n.Type != wantType[i] {
			t.Errorf("node %d: field %d type %d, want %d %d", i, n.Field, n.Type, wantField[i], wantType[i])
		}
		if n.Offset != s.offs[i] {
			t.Errorf("node %d: offset %d, want %d", i, n.Offset, s.offs[i])
		}
		end := len(s.b)
		if i+1 < len(s.offs) {
			end = s.offs[i+1]
		}
		if n.Len != end-s.offs[i] {
			t.Errorf("node %d: len %d, want %d", i, n.Len, end-s.offs[i])
		}
	}

	if nodes[0].Varint != 150 || nodes[0].Len != 3 {
		t.Errorf("varint node: %+v", nodes[0])
	}
	if string(nodes[1].Bytes) != "testing" || nodes[1].Children != nil {
		t.Errorf("string node: %+v", nodes[1])
	}
	// Bytes aliases the input.
	if &nodes[1].Bytes[0] != &s.b[s.offs[1]+2] {
		t.Errorf("Bytes does not alias input")
	}
	if cap(nodes[1].Bytes) != len(nodes[1].Bytes) {
		t.Errorf("Bytes capacity not clipped: cap %d len %d", cap(nodes[1].Bytes), len(nodes[1].Bytes))
	}

	// Nested message with absolute child offsets.
	msg := nodes[2]
	if len(msg.Children) != 3 {
		t.Fatalf("nested: %d children, want 3: %+v", len(msg.Children), msg)
	}
	base := s.offs[2] + 2 // tag + 1-byte length
	c := msg.Children
	if c[0].Field != 1 || c[0].Varint != 42 || c[0].Offset != base || c[0].Len != 2 {
		t.Errorf("child 0: %+v", c[0])
	}
	if c[1].Field != 2 || string(c[1].Bytes) != "abc" || c[1].Offset != base+2 || c[1].Children != nil {
		t.Errorf("child 1: %+v", c[1])
	}
	if c[2].Field != 3 || c[2].Offset != base+7 || len(c[2].Children) != 1 {
		t.Fatalf("child 2: %+v", c[2])
	}
	gc := c[2].Children[0]
	if gc.Field != 7 || gc.Varint != 1 || gc.Offset != base+9 || gc.Len != 2 {
		t.Errorf("grandchild: %+v", gc)
	}
	if s.b[gc.Offset] != byte(7<<3) {
		t.Errorf("grandchild offset %d does not point at its tag", gc.Offset)
	}

	// Packed varints are not mistaken for a message.
	if nodes[3].Children != nil {
		t.Errorf("packed bytes parsed as message: %+v", nodes[3].Children)
	}
	if got, want := nodes[3].ValueString(), "01 02 03 ac 02"; got != want {
		t.Errorf("packed ValueString = %q, want %q", got, want)
	}

	// Negative int32 as 10-byte varint.
	if nodes[4].Len != 11 || nodes[4].Varint != math.MaxUint64 {
		t.Errorf("negative int32 node: %+v", nodes[4])
	}
	if got, want := nodes[4].ValueString(), "18446744073709551615 (-1 as int32)"; got != want {
		t.Errorf("ValueString = %q, want %q", got, want)
	}
	if Float32(nodes[5].Varint) != 1.5 {
		t.Errorf("fixed32: %v", Float32(nodes[5].Varint))
	}
	if nodes[6].Varint != 76561197960287930 {
		t.Errorf("fixed64: %d", nodes[6].Varint)
	}
	if Sint32(nodes[7].Varint) != -3 || nodes[7].Len != 3 {
		t.Errorf("sint32 node: %+v", nodes[7])
	}
}

func TestParseTruncated(t *testing.T) {
	s := buildSample()
	// Cut in the middle of field #3's payload: fields #1 and #2 survive.
	cut := s.b[:s.offs[2]+5]
	nodes, err := Parse(cut)
	if err == nil {
		t.Fatal("expected error")
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %T is not *ParseError", err)
	}
	if pe.Offset != s.offs[2] || pe.Field != 3 {
		t.Errorf("error offset %d field %d, want %d 3", pe.Offset, pe.Field, s.offs[2])
	}
	if !strings.Contains(err.Error(), "offset 12 (0xc)") {
		t.Errorf("error text %q does not name offset", err)
	}
	if len(nodes) != 2 || nodes[0].Varint != 150 || string(nodes[1].Bytes) != "testing" {
		t.Errorf("partial nodes: %+v", nodes)
	}

	// Every prefix either parses cleanly (at a field boundary) or reports
	// the start of the field containing the cut.
	for n := 0; n <= len(s.b); n++ {
		nodes, err := Parse(s.b[:n])
		boundary := -1
		for i, o := range s.offs {
			if o <= n {
				boundary = i
			}
		}
		atBoundary := n == len(s.b) || (boundary >= 0 && s.offs[boundary] == n) || n == 0
		if atBoundary {
			if err != nil {
				t.Errorf("prefix %d: unexpected error %v", n, err)
			}
			continue
		}
		if !errors.As(err, &pe) || pe.Offset != s.offs[boundary] {
			t.Errorf("prefix %d: err %v, want offset %d", n, err, s.offs[boundary])
		}
		if len(nodes) != boundary {
			t.Errorf("prefix %d: %d nodes, want %d", n, len(nodes), boundary)
		}
	}
}

func TestParseMalformed(t *testing.T) {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 1)
	ok := len(b)

	cases := map[string][]byte{
		"field zero":    append(append([]byte{}, b...), 0x00, 0x01),
		"group":         protowire.AppendTag(append([]byte{}, b...), 2, protowire.StartGroupType),
		"wire type 6":   append(append([]byte{}, b...), 2<<3|6),
		"varint overfl": append(append([]byte{}, b...), 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f),
		"bad length":    append(append([]byte{}, b...), 0x12, 0x05, 'a'),
	}
	for name, in := range cases {
		nodes, err := Parse(in)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Offset != ok {
			t.Errorf("%s: err %v, want ParseError at %d", name, err, ok)
		}
		if len(nodes) != 1 {
			t.Errorf("%s: %d nodes, want 1", name, len(nodes))
		}
		ferr := Fields(in, func(protowire.Number, protowire.Type, uint64, []byte) error { return nil })
		if !errors.As(ferr, &pe) || pe.Offset != ok {
			t.Errorf("%s: Fields err %v, want ParseError at %d", name, ferr, ok)
		}
	}
	if _, err := Parse(nil); err != nil {
		t.Errorf("Parse(nil): %v", err)
	}
}

func TestNestedHeuristic(t *testing.T) {
	wrap := func(payload []byte) Node {
		b := protowire.AppendTag(nil, 9, protowire.BytesType)
		b = protowire.AppendBytes(b, payload)
		nodes, err := Parse(b)
		if err != nil || len(nodes) != 1 {
			t.Fatalf("Parse(%x): %v %v", b, nodes, err)
		}
		return nodes[0]
	}
	// "hehe" decodes as two varint fields #13 but is printable: keep it a string.
	if n := wrap([]byte("hehe")); n.Children != nil || n.ValueString() != `"hehe"` {
		t.Errorf("printable payload: children %v value %s", n.Children, n.ValueString())
	}
	// Huge field number inside a payload: not a message.
	big := protowire.AppendTag(nil, 1<<20, protowire.VarintType)
	big = protowire.AppendVarint(big, 0)
	if n := wrap(big); n.Children != nil {
		t.Errorf("field 1<<20 accepted as nested: %+v", n.Children)
	}
	// Trailing garbage: not a message.
	msg := protowire.AppendTag(nil, 1, protowire.VarintType)
	msg = protowire.AppendVarint(msg, 5)
	if n := wrap(append(msg, 0x80)); n.Children != nil {
		t.Errorf("trailing garbage accepted: %+v", n.Children)
	}
	if n := wrap(msg); len(n.Children) != 1 || n.Children[0].Varint != 5 {
		t.Errorf("valid nested: %+v", n)
	}
	// Empty payload: plain empty bytes.
	if n := wrap(nil); n.Children != nil || n.ValueString() != `""` {
		t.Errorf("empty payload: %+v %q", n, n.ValueString())
	}
}

func TestDepthLimit(t *testing.T) {
	b := protowire.AppendTag(nil, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 7)
	for range MaxDepth + 5 {
		outer := protowire.AppendTag(nil, 2, protowire.BytesType)
		b = protowire.AppendBytes(outer, b)
	}
	nodes, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	levels := 0
	for cur := nodes; len(cur) > 0; cur = cur[0].Children {
		levels++
		if len(cur) != 1 {
			t.Fatalf("level %d has %d nodes", levels, len(cur))
		}
	}
	if levels != MaxDepth+1 {
		t.Errorf("expanded %d levels, want %d", levels, MaxDepth+1)
	}
}

func TestValueString(t *testing.T) {
	tests := []struct {
		n    Node
		want string
	}{
		{Node{Type: protowire.VarintType, Varint: 150}, "150"},
		{Node{Type: protowire.VarintType, Varint: 0}, "0"},
		{Node{Type: protowire.VarintType, Varint: 1}, "1"},
		{Node{Type: protowire.VarintType, Varint: 7}, "7 (zigzag -4)"},
		{Node{Type: protowire.VarintType, Varint: 4294967295}, "4294967295 (-1 as int32)"},
		{Node{Type: protowire.VarintType, Varint: negU64(-5)}, "18446744073709551611 (-5 as int32)"},
		{Node{Type: protowire.VarintType, Varint: negU64(math.MinInt64)}, "9223372036854775808 (-9223372036854775808 as int64)"},
		{Node{Type: protowire.Fixed32Type, Varint: uint64(math.Float32bits(1.5))}, "1.5 (0x3fc00000)"},
		{Node{Type: protowire.Fixed32Type, Varint: 0}, "0 (0x00000000)"},
		{Node{Type: protowire.Fixed32Type, Varint: 42}, "42 (0x0000002a, float 5.9e-44)"},
		{Node{Type: protowire.Fixed32Type, Varint: 0xffffffff}, "4294967295 / -1 (0xffffffff, float NaN)"},
		{Node{Type: protowire.Fixed64Type, Varint: math.Float64bits(-2.25)}, "-2.25 (0xc002000000000000)"},
		{Node{Type: protowire.Fixed64Type, Varint: 76561197960287930}, "76561197960287930 (0x01100001000056ba, float 1.45822579458963e-303)"},
		{Node{Type: protowire.BytesType, Bytes: []byte("hi \"there\"\n")}, `"hi \"there\"\n"`},
		{Node{Type: protowire.BytesType, Bytes: []byte("héllo")}, `"héllo"`},
		{Node{Type: protowire.BytesType, Bytes: []byte{0xde, 0xad, 0x00}}, "de ad 00"},
		{Node{Type: protowire.BytesType, Bytes: make([]byte, 40)}, strings.TrimSuffix(strings.Repeat("00 ", 32), " ") + "…(40 bytes)"},
		{Node{Type: protowire.BytesType, Bytes: []byte(strings.Repeat("a", 100))}, `"` + strings.Repeat("a", 96) + `"…(100 bytes)`},
		{Node{Type: protowire.BytesType, Bytes: []byte{0x08, 0x01}, Children: []Node{{Field: 1}}}, "{1 fields} 08 01"},
	}
	for _, tc := range tests {
		if got := tc.n.ValueString(); got != tc.want {
			t.Errorf("ValueString(%+v) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestFormat(t *testing.T) {
	var inner []byte
	inner = protowire.AppendTag(inner, 1, protowire.VarintType)
	inner = protowire.AppendVarint(inner, 42)
	inner = protowire.AppendTag(inner, 2, protowire.BytesType)
	inner = protowire.AppendString(inner, "abc")
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 150)
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendBytes(b, inner)
	b = protowire.AppendTag(b, 4, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, math.Float32bits(0.5))
	nodes, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		"#1 varint @0x0 (3 bytes): 150\n" +
		"#3 bytes @0x3 (9 bytes): {2 fields}\n" +
		"  #1 varint @0x5 (2 bytes): 42\n" +
		"  #2 bytes @0x7 (5 bytes): \"abc\"\n" +
		"#4 fixed32 @0xc (5 bytes): 0.5 (0x3f000000)\n"
	if got := Format(nodes, "  "); got != want {
		t.Errorf("Format:\n%s\nwant:\n%s", got, want)
	}
}

func TestFields(t *testing.T) {
	s := buildSample()
	type rec struct {
		num  protowire.Number
		typ  protowire.Type
		v    uint64
		data string
	}
	var got []rec
	err := Fields(s.b, func(num protowire.Number, typ protowire.Type, v uint64, data []byte) error {
		got = append(got, rec{num, typ, v, string(data)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	nodes, _ := Parse(s.b)
	if len(got) != len(nodes) {
		t.Fatalf("Fields saw %d fields, Parse %d", len(got), len(nodes))
	}
	for i, n := range nodes {
		if got[i].num != n.Field || got[i].typ != n.Type || got[i].v != n.Varint || got[i].data != string(n.Bytes) {
			t.Errorf("field %d: Fields %+v vs Parse %+v", i, got[i], n)
		}
	}
	if Int32(got[4].v) != -1 || Int64(got[4].v) != -1 || Sint64(got[7].v) != -3 || Float32(got[5].v) != 1.5 {
		t.Errorf("typed helpers: %d %d %d %v", Int32(got[4].v), Int64(got[4].v), Sint64(got[7].v), Float32(got[5].v))
	}

	// A callback's error stops iteration and comes back located at its
	// field's tag, still itself under errors.Is.
	stop := errors.New("stop")
	calls, second := 0, s.offs[1]
	err = Fields(s.b, func(protowire.Number, protowire.Type, uint64, []byte) error {
		calls++
		if calls == 2 {
			return stop
		}
		return nil
	})
	var pe *ParseError
	if !errors.Is(err, stop) || calls != 2 || !errors.As(err, &pe) || pe.Offset != second || second <= 0 {
		t.Errorf("err %v calls %d, want stop located at byte %d", err, calls, second)
	}

	// Truncated: callback sees the complete fields, then an error at the cut field.
	calls = 0
	err = Fields(s.b[:s.offs[3]+1], func(protowire.Number, protowire.Type, uint64, []byte) error { calls++; return nil })
	pe = nil
	if !errors.As(err, &pe) || pe.Offset != s.offs[3] || calls != 3 {
		t.Errorf("truncated Fields: err %v calls %d", err, calls)
	}
}

func TestFieldsNoAlloc(t *testing.T) {
	s := buildSample()
	var sum uint64
	fn := func(num protowire.Number, typ protowire.Type, v uint64, data []byte) error {
		sum += v + uint64(len(data))
		return nil
	}
	allocs := testing.AllocsPerRun(100, func() {
		if err := Fields(s.b, fn); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Fields allocated %v times per run", allocs)
	}
}

func TestLookupAndPacked(t *testing.T) {
	s := buildSample()
	typ, _, data, found, err := Lookup(s.b, 2)
	if err != nil || !found || typ != protowire.BytesType || string(data) != "testing" {
		t.Errorf("Lookup(2) = %v %q %v %v", typ, data, found, err)
	}
	if _, _, _, found, err := Lookup(s.b, 99); found || err != nil {
		t.Errorf("Lookup(99) found=%v err=%v", found, err)
	}
	// Last occurrence wins.
	dup := protowire.AppendTag(append([]byte{}, s.b...), 1, protowire.VarintType)
	dup = protowire.AppendVarint(dup, 9)
	if _, v, _, _, _ := Lookup(dup, 1); v != 9 {
		t.Errorf("Lookup last-wins: %d", v)
	}

	_, _, packed, _, _ := Lookup(s.b, 4)
	var vs []uint64
	if err := PackedVarints(packed, func(v uint64) { vs = append(vs, v) }); err != nil {
		t.Fatal(err)
	}
	if len(vs) != 4 || vs[0] != 1 || vs[3] != 300 {
		t.Errorf("PackedVarints = %v", vs)
	}
	if err := PackedVarints([]byte{0x01, 0x80}, func(uint64) {}); err == nil {
		t.Errorf("truncated packed varint accepted")
	}

	var f32 []byte
	f32 = protowire.AppendFixed32(f32, math.Float32bits(1))
	f32 = protowire.AppendFixed32(f32, math.Float32bits(-2))
	var fs []float32
	if err := PackedFixed32(f32, func(v uint32) { fs = append(fs, math.Float32frombits(v)) }); err != nil || len(fs) != 2 || fs[1] != -2 {
		t.Errorf("PackedFixed32 = %v %v", fs, err)
	}
	var pe *ParseError
	if err := PackedFixed32(f32[:7], func(uint32) {}); !errors.As(err, &pe) || pe.Offset != 4 {
		t.Errorf("PackedFixed32 short: %v", err)
	}
	var f64 []byte
	f64 = protowire.AppendFixed64(f64, 5)
	var us []uint64
	if err := PackedFixed64(f64, func(v uint64) { us = append(us, v) }); err != nil || len(us) != 1 || us[0] != 5 {
		t.Errorf("PackedFixed64 = %v %v", us, err)
	}
	if err := PackedFixed64(f64[:3], func(uint64) {}); err == nil {
		t.Errorf("PackedFixed64 short accepted")
	}
}

// checkNodes verifies that every node lies within [lo, hi) of b, that
// children lie within their parent's payload, and that Bytes alias b.
func checkNodes(t *testing.T, b []byte, nodes []Node, lo, hi, depth int) {
	t.Helper()
	if depth > MaxDepth {
		t.Fatalf("depth %d exceeds MaxDepth", depth)
	}
	prevEnd := lo
	for _, n := range nodes {
		if n.Offset < prevEnd || n.Len <= 0 || n.Offset+n.Len > hi {
			t.Fatalf("node #%d @%d len %d outside [%d,%d) (prev end %d)", n.Field, n.Offset, n.Len, lo, hi, prevEnd)
		}
		prevEnd = n.Offset + n.Len
		if n.Type == protowire.BytesType {
			start := prevEnd - len(n.Bytes)
			if len(n.Bytes) > 0 && &n.Bytes[0] != &b[start] {
				t.Fatalf("node #%d @%d: Bytes does not alias input at %d", n.Field, n.Offset, start)
			}
			if n.Children != nil {
				checkNodes(t, b, n.Children, start, prevEnd, depth+1)
				if n.Children[len(n.Children)-1].Offset+n.Children[len(n.Children)-1].Len != prevEnd {
					t.Fatalf("children of #%d do not end at payload end", n.Field)
				}
			}
		} else if n.Children != nil {
			t.Fatalf("non-bytes node with children")
		}
	}
}

func FuzzParse(f *testing.F) {
	s := buildSample()
	f.Add(s.b)
	f.Add(s.b[:17])
	f.Add([]byte{})
	f.Add([]byte("hehe"))
	f.Add([]byte{0x0a, 0x02, 0x08, 0x01})
	f.Add([]byte{0x0b, 0x0c})
	f.Add([]byte{0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		nodes, err := Parse(b)
		checkNodes(t, b, nodes, 0, len(b), 0)
		end := 0
		if len(nodes) > 0 {
			last := nodes[len(nodes)-1]
			end = last.Offset + last.Len
		}
		var pe *ParseError
		if err != nil {
			if !errors.As(err, &pe) || pe.Offset != end {
				t.Fatalf("error %v does not name offset %d", err, end)
			}
		} else if end != len(b) {
			t.Fatalf("no error but nodes end at %d of %d", end, len(b))
		}
		// Fields agrees with Parse at the top level.
		count := 0
		ferr := Fields(b, func(num protowire.Number, typ protowire.Type, v uint64, data []byte) error {
			if count >= len(nodes) || nodes[count].Field != num || nodes[count].Type != typ {
				t.Fatalf("Fields/Parse mismatch at field %d", count)
			}
			count++
			return nil
		})
		if count != len(nodes) || (ferr == nil) != (err == nil) {
			t.Fatalf("Fields saw %d fields (err %v), Parse %d (err %v)", count, ferr, len(nodes), err)
		}
		_ = Format(nodes, "  ")
	})
}
