package views

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/dembug/dembug/engine/bitio"
)

// goldenTB stores golden files under the repository's
// testdata/golden/views/ instead of views/testdata/: golden.RequireEqual
// reads testdata/<tb.Name()>.golden relative to the package directory.
type goldenTB struct{ testing.TB }

func (g goldenTB) Name() string {
	return filepath.Join("..", "..", "testdata", "golden", "views", g.TB.Name())
}

func requireGolden(t *testing.T, out string) {
	t.Helper()
	golden.RequireEqual(goldenTB{t}, []byte(out))
}

// testData is deterministic, with a few printable bytes for the ASCII column.
func testData(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*37 + 11)
	}
	copy(b[4:], "Hi!")
	return b
}

type piece struct {
	kind  SpanKind
	field int
	bits  uint
}

// layout lays pieces end to end from bit 0.
func layout(ps ...piece) []Span {
	var spans []Span
	var at uint
	for _, p := range ps {
		spans = append(spans, Span{Span: bitio.Span{Start: at, Bits: p.bits}, Kind: p.kind, Field: p.field})
		at += p.bits
	}
	return spans
}

// interleaved: an 8-bit header, then path and value of each field in turn.
// Field 0's value is bits 13..25 (0x1.5 to 0x3.1).
func interleaved() []Span {
	return layout(
		piece{SpanHeader, -1, 8},
		piece{SpanPath, 0, 5}, piece{SpanValue, 0, 13}, // value 13..25
		piece{SpanPath, 1, 3}, piece{SpanValue, 1, 1}, // value bit 29
		piece{SpanPath, 2, 6}, piece{SpanValue, 2, 18}, // value 36..53
		piece{SpanPath, 3, 2}, piece{SpanValue, 3, 32},
		piece{SpanPath, 4, 7}, piece{SpanValue, 4, 9},
	)
}

// pathsFirst: as Source 2 lays out entity updates, all field paths first,
// then all values, so a field's path and value are far apart.
func pathsFirst(fields int, valueBits uint) []Span {
	ps := []piece{{SpanHeader, -1, 10}}
	for f := range fields {
		ps = append(ps, piece{SpanPath, f, 5 + uint(f%3)})
	}
	for f := range fields {
		ps = append(ps, piece{SpanValue, f, valueBits + uint(f%5)})
	}
	return layout(ps...)
}

func spanIndex(t *testing.T, spans []Span, kind SpanKind, field int) int {
	t.Helper()
	for i, s := range spans {
		if s.Kind == kind && s.Field == field {
			return i
		}
	}
	t.Fatalf("no %v span for field %d", kind, field)
	return -1
}

func TestHexBits(t *testing.T) {
	inter := interleaved()
	far := pathsFirst(40, 11)
	cases := []struct {
		name string
		in   HexBitsInput
	}{
		{"MidByte", HexBitsInput{
			Data: testData(24), Spans: inter, Selected: spanIndex(t, inter, SpanValue, 0),
			Width: 80, Height: 8,
		}},
		{"ThreeBytes", HexBitsInput{
			Data: testData(24), Spans: inter, Selected: spanIndex(t, inter, SpanValue, 2),
			Width: 80, Height: 8,
		}},
		{"OneBit", HexBitsInput{
			Data: testData(24), Spans: inter, Selected: spanIndex(t, inter, SpanValue, 1),
			Width: 60, Height: 8,
		}},
		{"PathThenValue", HexBitsInput{
			Data: testData(24), Spans: inter, Selected: spanIndex(t, inter, SpanValue, 3),
			Width: 80, Height: 8,
		}},
		{"PathFarFromValue", HexBitsInput{
			Data: testData(100), Spans: far, Selected: spanIndex(t, far, SpanValue, 2),
			BaseBit: 0x120, Width: 80, Height: 10,
		}},
		{"ScrollToEnd", HexBitsInput{
			Data: testData(100), Spans: far, Selected: spanIndex(t, far, SpanValue, 39),
			Width: 80, Height: 9,
		}},
		{"NarrowWidth", HexBitsInput{
			Data: testData(24), Spans: inter, Selected: spanIndex(t, inter, SpanValue, 3),
			Width: 44, Height: 10,
		}},
		{"NoSelection", HexBitsInput{
			Data: testData(100), Spans: far, Selected: -1, Width: 80, Height: 4,
		}},
	}
	for _, tc := range cases {
		for _, th := range []struct {
			name  string
			theme Theme
		}{{"NoColor", NoColorTheme()}, {"Color", DefaultTheme()}} {
			t.Run(tc.name+"/"+th.name, func(t *testing.T) {
				in := tc.in
				in.Theme = th.theme
				requireGolden(t, HexBits(in))
			})
		}
	}
}

// bitSection finds the NoColor bit row and the marker line under it.
func bitSection(t *testing.T, out string) (bits, marks string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "bits ") && i+1 < len(lines) {
			return l, lines[i+1]
		}
	}
	t.Fatalf("no bit row in:\n%s", out)
	return "", ""
}

// bitColumns maps each column of the bit row holding a bit digit to the bit
// index it shows, given the index of the first byte in the row.
func bitColumns(bits string, firstByte int) map[int]uint {
	cols := map[int]uint{}
	n := uint(firstByte) * 8
	for col, c := range bits {
		if col < len("bits") {
			continue
		}
		if c == '0' || c == '1' {
			cols[col] = n
			n++
		}
	}
	return cols
}

func TestHexBitsMarksExactlyTheSelectedBits(t *testing.T) {
	spans := interleaved()
	sel := spanIndex(t, spans, SpanValue, 0)
	if s := spans[sel]; s.Start != 13 || s.Bits != 13 {
		t.Fatalf("fixture: selected span is %+v, want start 13 len 13", s)
	}
	// 4 bytes fit entirely in the bit row, so it starts at byte 0.
	out := HexBits(HexBitsInput{
		Data: []byte{0xb4, 0x00, 0xff, 0x0f}, Spans: spans, Selected: sel,
		Width: 80, Height: 10, Theme: NoColorTheme(),
	})
	bits, marks := bitSection(t, out)
	cols := bitColumns(bits, 0)
	if len(cols) != 32 {
		t.Fatalf("bit row shows %d bits, want 32:\n%s", len(cols), out)
	}

	var marked []uint
	firstCaret := -1
	for col, c := range marks {
		switch c {
		case '^':
			bit, ok := cols[col]
			if !ok {
				t.Fatalf("caret at column %d is not under a bit:\n%s", col, out)
			}
			if firstCaret < 0 {
				firstCaret = col
			}
			marked = append(marked, bit)
		}
	}
	if got := strings.Count(marks, "^"); got != 13 {
		t.Fatalf("%d carets, want 13:\n%s", got, out)
	}
	for i, bit := range marked {
		if bit != uint(13+i) {
			t.Fatalf("caret %d marks bit %d, want %d:\n%s", i, bit, 13+i, out)
		}
	}
	if cols[firstCaret] != 13 {
		t.Fatalf("first caret at column %d shows bit %d, want 13", firstCaret, cols[firstCaret])
	}
	// The path of the same field (bits 8..12) is marked with ~.
	if got := strings.Count(marks, "~"); got != 5 {
		t.Fatalf("%d path marks, want 5:\n%s", got, out)
	}
	if strings.Index(marks, "~") != firstCaret-5 {
		t.Fatalf("path marks do not end right before the value:\n%s", out)
	}
	// Labels name the first and last bit.
	if !strings.Contains(out, "0x1.5") || !strings.Contains(out, "0x3.1") {
		t.Fatalf("missing 0x1.5 / 0x3.1 labels:\n%s", out)
	}
	if lines := strings.Split(out, "\n"); strings.Index(lines[len(lines)-1], "0x1.5") != firstCaret {
		t.Fatalf("start label not under the first caret:\n%s", out)
	}
}

func TestHexBitsBitOrderIsLSBFirst(t *testing.T) {
	out := HexBits(HexBitsInput{
		Data: []byte{0xb4, 0x01}, Spans: []Span{{Span: bitio.Span{Start: 0, Bits: 9}, Kind: SpanValue, Field: 0}},
		Selected: 0, Width: 80, Theme: NoColorTheme(),
	})
	bits, _ := bitSection(t, out)
	if !strings.HasSuffix(bits, "00101101 10000000") {
		t.Fatalf("bit row %q, want 0xb4 0x01 as 00101101 10000000", bits)
	}
}

func TestHexBitsBracketsSelectedBytes(t *testing.T) {
	spans := interleaved()
	data := testData(24)
	out := HexBits(HexBitsInput{
		Data: data, Spans: spans, Selected: spanIndex(t, spans, SpanValue, 0),
		Width: 80, Height: 10, Theme: NoColorTheme(),
	})
	row := strings.Split(out, "\n")[0]
	// Value bits 13..25 touch bytes 1..3; its path (bits 8..12) lies in
	// byte 1 too, which the value wins.
	want := "0x0000> 0b[30 55 7a]" // '>' marks a row holding the selection
	if !strings.HasPrefix(row, want) {
		t.Fatalf("row %q, want prefix %q", row, want)
	}
}

func TestHexBitsPathBracesWhenApart(t *testing.T) {
	spans := pathsFirst(40, 11)
	out := HexBits(HexBitsInput{
		Data: testData(100), Spans: spans, Selected: spanIndex(t, spans, SpanValue, 2),
		Width: 80, Height: 10, Theme: NoColorTheme(),
	})
	hex := hexColumns(out)
	if !strings.Contains(hex, "{") || !strings.Contains(hex, "}") {
		t.Fatalf("path bytes not braced:\n%s", out)
	}
	if strings.Count(hex, "[") != 1 || strings.Count(hex, "]") != 1 {
		t.Fatalf("want exactly one bracketed value run:\n%s", out)
	}
}

func TestHexBitsFitsSize(t *testing.T) {
	spans := pathsFirst(40, 11)
	data := testData(100)
	for _, w := range []int{30, 44, 60, 80, 120} {
		for _, h := range []int{1, 2, 3, 6, 9, 30} {
			for _, sel := range []int{-1, 1, spanIndex(t, spans, SpanValue, 0), len(spans) - 1} {
				out := HexBits(HexBitsInput{
					Data: data, Spans: spans, Selected: sel, Width: w, Height: h, Theme: NoColorTheme(),
				})
				lines := strings.Split(out, "\n")
				if len(lines) > h {
					t.Errorf("w=%d h=%d sel=%d: %d lines", w, h, sel, len(lines))
				}
				for _, l := range lines {
					// 4 bytes per row (27 columns) is the minimum hex row.
					if n := utf8.RuneCountInString(l); n > max(w, 27) {
						t.Errorf("w=%d h=%d sel=%d: line %q is %d wide", w, h, sel, l, n)
					}
				}
				if sel >= 0 && !strings.Contains(out, ">") {
					t.Errorf("w=%d h=%d sel=%d: selected row not visible:\n%s", w, h, sel, out)
				}
			}
		}
	}
}

func TestHexBitsNoSelectionStartsAtTop(t *testing.T) {
	out := HexBits(HexBitsInput{
		Data: testData(100), Spans: pathsFirst(40, 11), Selected: -1,
		Width: 80, Height: 3, Theme: NoColorTheme(),
	})
	lines := strings.Split(out, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "0x0000 ") || !strings.HasPrefix(lines[2], "0x0020 ") {
		t.Fatalf("want rows 0x0000..0x0020:\n%s", out)
	}
	if strings.ContainsAny(hexColumns(out), "[]{}>^") {
		t.Fatalf("markers without a selection:\n%s", out)
	}
}

func TestHexBitsScrollsToSelection(t *testing.T) {
	spans := pathsFirst(40, 11)
	last := len(spans) - 1 // bytes 0x5e..0x60, the last two rows
	out := HexBits(HexBitsInput{
		Data: testData(100), Spans: spans, Selected: last,
		Width: 80, Height: 7, Theme: NoColorTheme(),
	})
	lines := strings.Split(out, "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[0], "0x0050>") || !strings.HasPrefix(lines[1], "0x0060>") {
		t.Fatalf("want the last two rows, both marked, then the bit section:\n%s", out)
	}
}

func TestHexBitsColour(t *testing.T) {
	spans := interleaved()
	in := HexBitsInput{
		Data: testData(24), Spans: spans, Selected: spanIndex(t, spans, SpanValue, 0),
		Width: 80, Height: 10,
	}
	in.Theme = NoColorTheme()
	if out := HexBits(in); strings.Contains(out, "\x1b[") {
		t.Fatalf("NoColor output has escape sequences: %q", out)
	}
	in.Theme = DefaultTheme()
	out := HexBits(in)
	if !strings.Contains(out, "\x1b[") {
		t.Fatal("colour output has no escape sequences")
	}
	for _, row := range strings.Split(stripANSI(out), "\n")[:2] {
		if hex, _, _ := strings.Cut(row, "|"); strings.ContainsAny(hex, "[]{}") {
			t.Fatalf("colour output uses NoColor brackets: %q", row)
		}
	}
	// Colour changes nothing but styling: the text is the NoColor text
	// without the NoColor-only markers.
	if a, b := stripANSI(out), HexBits(HexBitsInput{
		Data: in.Data, Spans: spans, Selected: in.Selected, Width: 80, Height: 10, Theme: NoColorTheme(),
	}); len(strings.Split(a, "\n")) != len(strings.Split(b, "\n")) {
		t.Fatalf("colour and NoColor layouts differ:\n%s\n---\n%s", a, b)
	}
}

// hexColumns is the NoColor output without the ASCII columns, so data bytes
// that happen to print as markers do not count as markers.
func hexColumns(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		hex, _, _ := strings.Cut(l, "|")
		b.WriteString(hex + "\n")
	}
	return b.String()
}

// stripANSI removes CSI sequences.
func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			i += 2
			for i < len(s) && (s[i] < 0x40 || s[i] > 0x7e) {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestHexBitsOddInputsDoNotPanic(t *testing.T) {
	data := testData(10)
	for _, in := range []HexBitsInput{
		{Data: nil, Selected: -1},
		{Data: nil, Spans: []Span{{Span: bitio.Span{Start: 0, Bits: 8}, Kind: SpanValue}}, Selected: 0},
		{Data: data, Spans: []Span{{Span: bitio.Span{Start: 200, Bits: 8}, Kind: SpanValue}}, Selected: 0, Width: 80, Height: 6},
		{Data: data, Spans: []Span{{Span: bitio.Span{Start: 75, Bits: 20}, Kind: SpanValue}}, Selected: 0, Width: 80, Height: 6},
		{Data: data, Spans: []Span{{Span: bitio.Span{Start: 12, Bits: 0}, Kind: SpanValue}}, Selected: 0, Width: 80, Height: 6},
		{Data: data, Spans: []Span{{Span: bitio.Span{Start: 0, Bits: 8}, Kind: SpanHeader, Field: -1}}, Selected: 0, Width: 5, Height: 2},
		{Data: data, Spans: []Span{{Span: bitio.Span{Start: 0, Bits: 8}, Kind: SpanValue}}, Selected: 7},
	} {
		for _, th := range []Theme{NoColorTheme(), DefaultTheme()} {
			in.Theme = th
			if out := HexBits(in); out == "" {
				t.Errorf("empty output for %+v", in)
			}
		}
	}
}
