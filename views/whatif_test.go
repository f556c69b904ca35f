package views

import (
	"fmt"
	"strings"
	"testing"
)

func TestSeverityMarks(t *testing.T) {
	for s, want := range map[Severity]string{SevNone: " ", SevWeak: "?", SevStrong: "!"} {
		if got := s.Mark(); got != want {
			t.Errorf("%d.Mark() = %q, want %q", s, got, want)
		}
	}
}

// The field table's marker column carries each row's severity, and in
// colour the marker alone is painted with the Error or Warning style.
func TestFieldTableMarksAnomalies(t *testing.T) {
	rows := fieldRowsFixture()
	rows[1].Sev = SevWeak
	rows[3].Sev = SevStrong
	out := FieldTable(FieldTableInput{Rows: rows, Selected: 3, Width: 120, Height: 8, Theme: NoColorTheme()})
	lines := strings.Split(out, "\n")
	for i, want := range []string{"  [1]", " ?[3 1]", "  [3 3]", ">![3 4]"} {
		if !strings.HasPrefix(lines[i+1], want) {
			t.Errorf("row %d starts %q, want %q:\n%s", i, lines[i+1][:8], want, out)
		}
	}
	th := DefaultTheme()
	col := FieldTable(FieldTableInput{Rows: rows, Selected: -1, Width: 120, Height: 8, Theme: th})
	if !strings.Contains(col, th.Warning.Render("?")) || !strings.Contains(col, th.Error.Render("!")) {
		t.Fatalf("markers not painted by severity:\n%q", col)
	}
	checkFits(t, col, 120, 8)
}

func TestTimelineMarksAnomalies(t *testing.T) {
	rows := timelineRows()
	rows[1].Sev = SevStrong // the packet
	rows[3].Sev = SevStrong // svc_PacketEntities
	rows[4].Sev = SevWeak   // CWorld
	rows[6].Sev = SevStrong // an update that also failed: ✗ wins
	out := Timeline(TimelineInput{Rows: rows, Cursor: -1, Width: 60, Height: 20, Theme: NoColorTheme()})
	lines := strings.Split(out, "\n")
	for _, c := range []struct {
		line int
		want string
	}{{2, "    0 !Packet"}, {4, " !▾  9 svc_PacketEntities"}, {5, "   ?#0 "}, {6, "    #981 "}, {7, "   ✗#12 "}} {
		if !strings.Contains(lines[c.line], c.want) {
			t.Errorf("line %d %q lacks %q", c.line, lines[c.line], c.want)
		}
	}
	th := DefaultTheme()
	col := Timeline(TimelineInput{Rows: rows, Cursor: -1, Width: 60, Height: 20, Theme: th})
	if !strings.Contains(col, th.Warning.Render("?")) || !strings.Contains(col, th.Error.Render("!")) {
		t.Fatalf("markers not painted by severity:\n%q", col)
	}
	checkFits(t, col, 60, 20)
}

func diffFixture() []DiffRow {
	return []DiffRow{
		{Path: "[0]", Name: "m_iHealth", Decoder: "zigzag", Offset: "0x5.3", Bits: 16, Orig: "500", WhatIf: "500"},
		{Path: "[2]", Name: "m_flSpeed", Decoder: "float32", Offset: "0x9.3", Bits: 32, Orig: "0", WhatIf: "69.1875", Changed: true},
		{Path: "[4]", Name: "m_flMana", Decoder: "float32", Offset: "0xe.3", Bits: 32, Orig: "6.485209292895253e-42", OrigSev: SevStrong, WhatIf: "120.5", Changed: true},
		{Path: "[5]", Name: "m_szName", Decoder: "string", Offset: "0x12.3", Bits: 32, Orig: `"\x88\x17\n\xc3+\x03\x10"`, OrigSev: SevStrong, WhatIf: `"axe"`, Changed: true},
		{Path: "[7]", Name: "m_nLevel", Decoder: "zigzag", Offset: "0x16.3", Bits: 8, NoOrig: true, WhatIf: "1", WhatIfSev: SevWeak, Changed: true},
		{Path: "[8]", Name: "m_iGold", Decoder: "", Offset: "", NoWhatIf: true, Orig: "12", Changed: true},
	}
}

func TestDiffTable(t *testing.T) {
	rows := diffFixture()
	for _, w := range []int{40, 76, 120} {
		eachTheme(t, fmt.Sprintf("W%d", w), func(th Theme) string {
			out := DiffTable(DiffTableInput{Rows: rows, Selected: 1, Width: w, Height: 8, Theme: th})
			checkFits(t, out, w, 8)
			return out
		})
	}
	eachTheme(t, "Original", func(th Theme) string {
		return DiffTable(DiffTableInput{Rows: rows, Selected: 2, Original: true, Width: 76, Height: 5, Theme: th})
	})
}

func TestDiffTableMarks(t *testing.T) {
	out := DiffTable(DiffTableInput{Rows: diffFixture(), Selected: 1, Width: 100, Height: 10, Theme: NoColorTheme()})
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[0], "[what-if]") || strings.Contains(lines[0], "[original]") {
		t.Fatalf("header does not say the what-if is shown: %q", lines[0])
	}
	want := []struct{ prefix, has string }{
		{"  [0]", " 500"},
		{">*[2]", " 69.1875"},
		{" *[4]", "!6.485209292895253e-42"},
		{" *[5]", `"axe"`},
		{" +[7]", " (not read)"},
		{" -[8]", " (not read)"},
	}
	for i, w := range want {
		l := lines[i+1]
		if !strings.HasPrefix(l, w.prefix) || !strings.Contains(l, w.has) {
			t.Errorf("row %d = %q, want prefix %q and %q", i, l, w.prefix, w.has)
		}
	}
	if !strings.Contains(lines[5], "?1") {
		t.Errorf("what-if value's weak anomaly not marked: %q", lines[5])
	}
	th := DefaultTheme()
	col := DiffTable(DiffTableInput{Rows: diffFixture(), Selected: -1, Width: 100, Height: 10, Theme: th})
	open, _, _ := strings.Cut(th.OffsetEmphasis.Render("x"), "x")
	if !strings.Contains(col, open+"69.1875") || strings.Contains(col, open+"500") {
		t.Errorf("changed what-if value not emphasised:\n%q", col)
	}
	if stripANSI(col) != strings.ReplaceAll(DiffTable(DiffTableInput{Rows: diffFixture(), Selected: -1, Width: 100, Height: 10, Theme: NoColorTheme()}), "\x1b", "") {
		t.Errorf("colour and NoColor tables differ in text:\n%s\n%s", stripANSI(col), out)
	}
	if e := DiffTable(DiffTableInput{Empty: "decoding…", Selected: -1, Width: 20, Height: 3, Theme: NoColorTheme()}); !strings.Contains(e, "decoding…") {
		t.Errorf("empty diff: %q", e)
	}
}

func pickerFixture() PickerInput {
	return PickerInput{
		Title: "Decode m_flSpeed differently",
		Intro: []string{"m_flSpeed in #5 CTestUnit", "now: quantized float: 13 bits, 0 … 255.96875", "scope: [x] this field only  [ ] every float32 field  (s switches)"},
		Items: []PickerItem{
			{Label: "Decoders", Header: true},
			{Label: "quantized float: 13 bits, 0 … 255.96875", Detail: "13 bits → 0", Current: true},
			{Label: "unsigned varint", Detail: "8 bits → 0"},
			{Label: "raw 32-bit float", Detail: "32 bits → 69.1875"},
			{Label: "Bit edits", Header: true},
			{Label: "insert a 0 bit before the value", Detail: "at 0x9.3"},
			{Label: "drop the value's first bit", Detail: "at 0x9.3"},
		},
		Selected: 3,
		Footer:   "↑↓ choose · enter try · s scope · esc cancel",
		Width:    60, Height: 16,
	}
}

func TestPicker(t *testing.T) {
	eachTheme(t, "Full", func(th Theme) string {
		in := pickerFixture()
		in.Theme = th
		out := Picker(in)
		checkFits(t, out, 60, 16)
		return out
	})
	// Too short for every item: the selection stays in view.
	eachTheme(t, "Scrolled", func(th Theme) string {
		in := pickerFixture()
		in.Theme, in.Height, in.Selected = th, 9, 6
		out := Picker(in)
		checkFits(t, out, 60, 9)
		return out
	})
}

func TestPickerMarks(t *testing.T) {
	in := pickerFixture()
	in.Theme = NoColorTheme()
	out := Picker(in)
	lines := strings.Split(out, "\n")
	if len(lines) != in.Height {
		t.Fatalf("%d lines, want %d", len(lines), in.Height)
	}
	for _, l := range lines {
		if Width(l) != in.Width {
			t.Fatalf("line %q is %d wide", l, Width(l))
		}
	}
	for _, want := range []string{"> raw 32-bit float  32 bits → 69.1875", "  quantized float: 13 bits, 0 … 255.96875 (now)", "── Bit edits ", "esc cancel"} {
		if !strings.Contains(out, want) {
			t.Errorf("picker lacks %q:\n%s", want, out)
		}
	}
	in.Height, in.Selected = 9, 6
	if s := Picker(in); !strings.Contains(s, "> drop the value's first bit") {
		t.Errorf("selection scrolled away:\n%s", s)
	}
}

func TestOverlay(t *testing.T) {
	base := strings.Join([]string{"aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "dddddddddd"}, "\n")
	got := Overlay(base, "XYZ\nUVW", 3, 1)
	want := strings.Join([]string{"aaaaaaaaaa", "bbbXYZbbbb", "cccUVWcccc", "dddddddddd"}, "\n")
	if got != want {
		t.Fatalf("Overlay:\n%s\nwant\n%s", got, want)
	}
	// Off the bottom and right edges: cut, never wider or taller.
	got = Overlay(base, "123456\n7\n8\n9", 7, 2)
	if lines := strings.Split(got, "\n"); len(lines) != 4 || lines[2] != "ccccccc123" || lines[3] != "ddddddd7dd" {
		t.Fatalf("Overlay at the edge:\n%s", got)
	}
	// Styled base and box: every line keeps its width and the text shows.
	th := DefaultTheme()
	styled := th.paint(th.Error, "eeeeeeeeee") + "\n" + th.paint(th.Info, "ffffffffff")
	got = Overlay(styled, th.paint(th.Title, "box"), 2, 1)
	lines := strings.Split(got, "\n")
	if Width(lines[1]) != 10 || stripANSI(lines[1]) != "ffboxfffff" {
		t.Fatalf("styled overlay: %q", lines[1])
	}
	// Wide runes straddling an edge are replaced by spaces, keeping widths.
	got = Overlay("诺顿诺顿诺", "x", 3, 0)
	if Width(got) != 10 || !strings.Contains(got, "x") {
		t.Fatalf("overlay over wide runes: %q (%d wide)", got, Width(got))
	}
}
