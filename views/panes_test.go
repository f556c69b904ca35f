package views

import (
	"fmt"
	"strings"
	"testing"
)

// Golden tests for the pane views on fixed inputs. Run with -update to
// refresh testdata/golden/views/. Each view is checked without colour
// (readable goldens, textual markers) and with the default theme.

var themes = []struct {
	name  string
	theme Theme
}{{"NoColor", NoColorTheme()}, {"Color", DefaultTheme()}}

func eachTheme(t *testing.T, name string, render func(th Theme) string) {
	for _, th := range themes {
		t.Run(name+"/"+th.name, func(t *testing.T) {
			requireGolden(t, render(th.theme))
		})
	}
}

// checkFits fails when a rendering has more lines than h or a line wider
// than w (h <= 0: no height bound).
func checkFits(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if h > 0 && len(lines) > h {
		t.Fatalf("%d lines, want at most %d:\n%s", len(lines), h, out)
	}
	for _, l := range lines {
		if n := Width(l); n > w {
			t.Fatalf("line %q is %d wide, want at most %d", stripANSI(l), n, w)
		}
	}
}

func timelineRows() []TimelineRow {
	return []TimelineRow{
		{Kind: RowCommand, Index: 0, Tick: -1, Name: "DEM_FileHeader", Size: 175},
		{Kind: RowCommand, Index: 15, Tick: 0, Name: "DEM_Packet", Size: 51234, Zip: true, Expandable: true, Expanded: true},
		{Kind: RowMessage, Index: 0, Name: "net_Tick", Size: 17},
		{Kind: RowMessage, Index: 9, Name: "svc_PacketEntities", Size: 48102, Expandable: true, Expanded: true},
		{Kind: RowUpdate, Index: 0, Name: "CWorld", Op: "create", Fields: 1, Bits: 40},
		{Kind: RowUpdate, Index: 981, Name: "CDOTA_Unit_Hero_Axe", Op: "update", Fields: 12, Bits: 345},
		{Kind: RowUpdate, Index: 12, Name: "CDOTA_Unit_Courier", Op: "leave", Err: true},
		{Kind: RowCommand, Index: 16, Tick: 2, Name: "DEM_Packet", Size: 374, Expandable: true},
		{Kind: RowError, Text: "stopped at byte 66123 (command #17): file ends inside a command (truncated)"},
	}
}

func TestTimeline(t *testing.T) {
	rows := timelineRows()
	for _, w := range []int{30, 44, 60} {
		eachTheme(t, fmt.Sprintf("W%d", w), func(th Theme) string {
			out := Timeline(TimelineInput{Rows: rows, Cursor: 5, Width: w, Height: 12, Theme: th})
			checkFits(t, out, w, 12)
			return out
		})
	}
	// Too short: the header and the first rows only.
	out := Timeline(TimelineInput{Rows: rows, Cursor: 0, Width: 40, Height: 3, Theme: NoColorTheme()})
	if n := len(strings.Split(out, "\n")); n != 3 {
		t.Fatalf("%d lines at height 3:\n%s", n, out)
	}
	if !strings.HasPrefix(strings.Split(out, "\n")[1], ">") {
		t.Fatalf("cursor row not marked:\n%s", out)
	}
}

func TestTimelineMarksErrors(t *testing.T) {
	out := Timeline(TimelineInput{Rows: timelineRows(), Cursor: -1, Width: 60, Height: 20, Theme: NoColorTheme()})
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[7], "✗") || !strings.Contains(lines[9], "✗ stopped at byte 66123") {
		t.Fatalf("error rows not marked:\n%s", out)
	}
	if strings.Contains(out, ">") {
		t.Fatalf("cursor marked with Cursor -1:\n%s", out)
	}
}

func fieldRowsFixture() []FieldRow {
	return []FieldRow{
		{Path: "[1]", Name: "m_flSimulationTime", Type: "float32", Decoder: "simtime", Offset: "0x441d.4", Bits: 8, Value: "1.8666667938232422"},
		{Path: "[3 1]", Name: "CBodyComponent.m_cellY", Type: "uint16", Decoder: "varint", Offset: "0x441e.4", Bits: 8, Value: "74"},
		{Path: "[3 3]", Name: "CBodyComponent.m_vecX", Type: "CNetworkedQuantizedFloat", Decoder: "quant13", Offset: "0x441f.4", Bits: 13, Value: "212"},
		{Path: "[3 4]", Name: "CBodyComponent.m_vecY", Type: "CNetworkedQuantizedFloat", Decoder: "quant13", Offset: "0x4421.1", Bits: 13, Value: "211.96875"},
		{Path: "[7]", Name: "m_angRotation", Type: "QAngle", Decoder: "qangle·coord", Offset: "0x4422.6", Bits: 27, Value: "[0 149.96875 0]", Err: true},
		{Path: "[40 0 2]", Name: "m_vecPlayerTeamData.0000.m_iBattleCupWinDate", Type: "uint64", Decoder: "varint64", Offset: "0x4426.1", Bits: 8, Value: "0"},
	}
}

func TestFieldTable(t *testing.T) {
	rows := fieldRowsFixture()
	for _, w := range []int{40, 74, 120} {
		eachTheme(t, fmt.Sprintf("W%d", w), func(th Theme) string {
			out := FieldTable(FieldTableInput{Rows: rows, Selected: 2, Width: w, Height: 8, Theme: th})
			checkFits(t, out, w, 8)
			return out
		})
	}
	eachTheme(t, "Empty", func(th Theme) string {
		return FieldTable(FieldTableInput{Selected: -1, Empty: "leave: no fields", Width: 40, Height: 5, Theme: th})
	})
}

func TestFieldTableKeepsSelectionInView(t *testing.T) {
	var rows []FieldRow
	for i := range 50 {
		rows = append(rows, FieldRow{Path: fmt.Sprintf("[%d]", i), Name: fmt.Sprintf("m_field%02d", i), Offset: "0x0.0", Value: "0"})
	}
	out := FieldTable(FieldTableInput{Rows: rows, Selected: 37, Width: 60, Height: 10, Theme: NoColorTheme()})
	if !strings.Contains(out, "> [37]") {
		t.Fatalf("selected row not shown:\n%s", out)
	}
	if n := len(strings.Split(out, "\n")); n != 10 {
		t.Fatalf("%d lines, want 10", n)
	}
}

func inspectorFixture() []InspectorSection {
	return []InspectorSection{
		{Title: "Field", Lines: []InspectorLine{
			{Label: "field", Text: "CBodyComponent.m_vecX  [3 3]"},
			{Label: "entity", Text: "#114 CInfoPlayerStartGoodGuys create · field 2 of 0…3"},
			{Label: "value", Text: "69.1875  (was 12)", Style: LineMath},
		}},
		{Title: "Decoder", Lines: []InspectorLine{
			{Label: "decoder", Text: "quantized float: 13 bits, 0 … 255.96875 (schema: 0 … 256, flags ROUNDDOWN → dropped at set-up: low already exact)"},
			{Label: "why", Text: "CNetworkedQuantizedFloat → quantized float"},
			{Label: "patched", Text: "encoder simtime (not in the schema)", Style: LineWarn},
		}},
		{Title: "Bits → value", Lines: []InspectorLine{
			{Label: "at", Text: "0x441f.4 +1 byte 5 bits (13 bits), LSB first"},
			{Label: "raw", Text: "@0x441f.4  0110100010001  = 2214", Style: LineBits},
			{Label: "=", Text: "2214 / 8191 × 255.96875 = 69.1875", Style: LineMath},
		}},
		{Title: "Field path", Lines: []InspectorLine{
			{Label: "op", Text: "PushOneLeftDeltaNRightNonZeroPack6Bits"},
			{Label: "bits", Text: "@0x441c.5  0110 | 010110", Style: LinePath},
			{Label: "error", Text: "field path op at bit 0x12.3: pops more levels than the path has", Style: LineError},
			{Label: "then", Text: "FieldPathEncodeFinish ends the paths", Style: LineDim},
		}},
	}
}

func TestInspector(t *testing.T) {
	secs := inspectorFixture()
	for _, w := range []int{36, 60} {
		eachTheme(t, fmt.Sprintf("W%d", w), func(th Theme) string {
			out := Inspector(InspectorInput{Sections: secs, Width: w, Height: 40, Theme: th})
			checkFits(t, out, w, 40)
			return out
		})
	}
	eachTheme(t, "Scrolled", func(th Theme) string {
		return Inspector(InspectorInput{Sections: secs, Scroll: 8, Width: 48, Height: 6, Theme: th})
	})
}

func TestInspectorWrapsUnderItsLabel(t *testing.T) {
	out := Inspector(InspectorInput{Sections: inspectorFixture(), Width: 36, Height: 100, Theme: NoColorTheme()})
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "decoder ") {
			if !strings.HasPrefix(lines[i+1], "        ") {
				t.Fatalf("continuation not indented under the text:\n%s", out)
			}
			return
		}
	}
	t.Fatalf("no decoder line:\n%s", out)
}

func TestInspectorScrollClamps(t *testing.T) {
	in := InspectorInput{Sections: inspectorFixture(), Scroll: 1000, Width: 48, Height: 5, Theme: NoColorTheme()}
	out := Inspector(in)
	all := InspectorLines(in)
	if got := strings.Split(out, "\n"); len(got) != 5 || got[4] != all[len(all)-1] {
		t.Fatalf("scrolling past the end should show the last 5 lines:\n%s", out)
	}
}

func entityFixture() []EntityRow {
	return []EntityRow{
		{Name: "m_flSimulationTime", Value: "1.8666667938232422", Changed: true},
		{Name: "m_hOwnerEntity", Value: "null handle"},
		{Name: "CBodyComponent", Value: "true"},
		{Name: "CBodyComponent.m_cellX", Value: "74"},
		{Name: "CBodyComponent.m_cellY", Value: "74", Changed: true},
		{Name: "CBodyComponent.m_vecX", Value: "212", Changed: true},
		{Name: "CBodyComponent.m_vecY", Value: "211.96875", Changed: true},
		{Name: "CBodyComponent.m_angRotation", Value: "[0 45 0]"},
		{Name: "m_iszPlayerName", Value: `"SourceTV"`},
	}
}

func TestEntity(t *testing.T) {
	rows := entityFixture()
	for _, w := range []int{36, 60} {
		eachTheme(t, fmt.Sprintf("W%d", w), func(th Theme) string {
			out := Entity(EntityInput{Header: "#114 CInfoPlayerStartGoodGuys serial 505", Rows: rows, Selected: 5, Width: w, Height: 7, Theme: th})
			checkFits(t, out, w, 7)
			return out
		})
	}
	eachTheme(t, "Before", func(th Theme) string {
		return Entity(EntityInput{Header: "#114 CInfoPlayerStartGoodGuys serial 505", Before: true, Rows: rows, Selected: -1, Width: 50, Height: 12, Theme: th})
	})
	eachTheme(t, "Empty", func(th Theme) string {
		return Entity(EntityInput{Empty: "#12 CDOTA_Unit_Courier: no state after this delete", Selected: -1, Width: 50, Height: 3, Theme: th})
	})
}

func schemaFixture() []SchemaRow {
	return []SchemaRow{
		{Depth: 0, Index: 0, Name: "m_flAnimTime", Type: "float32", Detail: "simple · float32"},
		{Depth: 0, Index: 1, Name: "m_flSimulationTime", Type: "float32", Detail: "simple · simtime"},
		{Depth: 0, Index: 3, Name: "CBodyComponent", Type: "CBodyComponent", Detail: "pointer · presence bit", Nested: true, Expanded: true, OnPath: true},
		{Depth: 1, Index: 0, Name: "m_cellX", Type: "uint16", Detail: "simple · varint"},
		{Depth: 1, Index: 3, Name: "m_vecX", Type: "CNetworkedQuantizedFloat", Detail: "simple · quant13", Selected: true},
		{Depth: 1, Index: 4, Name: "m_vecY", Type: "CNetworkedQuantizedFloat", Detail: "simple · quant13"},
		{Depth: 0, Index: 4, Name: "m_pEntity", Type: "CEntityIdentity", Detail: "pointer · presence bit", Nested: true},
		{Depth: 0, Index: 40, Name: "m_vecPlayerTeamData", Type: "CUtlVectorEmbeddedNetworkVar< PlayerResourcePlayerTeamData_t >", Detail: "vector of tables", Nested: true},
	}
}

func TestSchema(t *testing.T) {
	rows := schemaFixture()
	for _, w := range []int{40, 80} {
		eachTheme(t, fmt.Sprintf("W%d", w), func(th Theme) string {
			out := Schema(SchemaInput{Header: "CInfoPlayerStartGoodGuys · 19 fields", Rows: rows, Width: w, Height: 9, Theme: th})
			checkFits(t, out, w, 9)
			return out
		})
	}
	// The selected row stays in view when the tree is taller than the pane.
	out := Schema(SchemaInput{Header: "h", Rows: rows, Width: 60, Height: 3, Theme: NoColorTheme()})
	if !strings.Contains(out, ">") || !strings.Contains(out, "m_vecX") {
		t.Fatalf("selected field scrolled away:\n%s", out)
	}
}

func TestHelpAndFrame(t *testing.T) {
	groups := []HelpGroup{
		{Title: "Move", Keys: []HelpKey{{"↑ k", "up"}, {"↓ j", "down"}, {"tab", "next pane"}}},
		{Title: "Step", Keys: []HelpKey{{"n", "next entity update"}, {"N", "previous entity update"}}},
		{Title: "Show", Keys: []HelpKey{{"?", "this help"}, {"q ctrl+c", "quit"}}},
	}
	eachTheme(t, "Help/OneColumn", func(th Theme) string {
		out := Help(groups, 60, 20, th)
		checkFits(t, out, 60, 20)
		return out
	})
	eachTheme(t, "Help/TwoColumns", func(th Theme) string {
		out := Help(groups, 80, 7, th)
		checkFits(t, out, 80, 7)
		return out
	})
	eachTheme(t, "Box/Focused", func(th Theme) string {
		return Box("Fields · #114 CInfoPlayerStartGoodGuys", "one\ntwo is longer than the box is wide\nthree\nfour", 24, 5, true, th)
	})
	eachTheme(t, "Box/Unfocused", func(th Theme) string {
		return Box("Schema", "x", 12, 4, false, th)
	})
	eachTheme(t, "StatusBar", func(th Theme) string {
		return StatusBar("tick 0 › #15 Packet › svc_PacketEntities", "? keys · q quit", 70, th)
	})
}

func TestBoxIsExactlyItsSize(t *testing.T) {
	for _, th := range themes {
		for _, sz := range [][2]int{{2, 2}, {5, 3}, {24, 5}, {80, 10}} {
			out := Box("A title longer than the box", "body\nwith\nlines", sz[0], sz[1], true, th.theme)
			lines := strings.Split(out, "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%s %v: %d lines", th.name, sz, len(lines))
			}
			for _, l := range lines {
				if Width(l) != sz[0] {
					t.Fatalf("%s %v: line %q is %d wide", th.name, sz, stripANSI(l), Width(l))
				}
			}
		}
	}
}

func TestFitHandlesWideAndStyledText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abc…"},
		{"👹x", 2, "👹"},
		{DefaultTheme().paint(DefaultTheme().Error, "abcdef"), 4, "abc…"},
	} {
		got := Fit(tc.in, tc.w)
		if Width(got) != tc.w || stripANSI(got) != tc.want && !(tc.in == "👹x" && Width(got) == 2) {
			t.Errorf("Fit(%q, %d) = %q", tc.in, tc.w, got)
		}
	}
	if got := truncLeft("CBodyComponent.m_vecX", 10); got != "…nt.m_vecX" {
		t.Errorf("truncLeft = %q", got)
	}
}
