package views

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

// Rows that are no entity's fields are headed by their own titles, and the
// bitstream summary names their pieces in their own words.
func TestOwnTitlesAndWords(t *testing.T) {
	titles := [7]string{"entry", "read", "part", "encoding", "offset", "bits", "value"}
	out := FieldTable(FieldTableInput{Rows: []FieldRow{{Path: "#3", Name: "jump", Type: "index", Decoder: "varuint32", Offset: "0x0.1", Bits: 8, Value: "3"}},
		Selected: 0, Width: 100, Height: 5, Theme: NoColorTheme(), Titles: &titles})
	head := strings.Fields(strings.SplitN(out, "\n", 2)[0])
	if strings.Join(head, " ") != "entry read part encoding offset bits value" {
		t.Errorf("headings %q", head)
	}
	spans := []Span{{Span: bitio.Span{Start: 0, Bits: 1}, Kind: SpanHeader, Field: 0}, {Span: bitio.Span{Start: 1, Bits: 8}, Kind: SpanPath, Field: 1}}
	words := SpanWords{Piece: "read", Kinds: [3]string{"index", "key", "value"}}
	out = HexBits(HexBitsInput{Data: []byte{1, 2, 3}, Spans: spans, Selected: 1, Width: 100, Theme: NoColorTheme(), Words: &words})
	if !strings.Contains(out, "read 1 · key 0x0.1") || strings.Contains(out, "field") || strings.Contains(out, "path") {
		t.Errorf("the summary does not name a read:\n%s", out)
	}
	out = HexBits(HexBitsInput{Data: []byte{1, 2, 3}, Spans: spans, Selected: 1, Width: 100, Theme: NoColorTheme()})
	if !strings.Contains(out, "field 1 · path 0x0.1") {
		t.Errorf("without words the summary names a field:\n%s", out)
	}
}

// A command's anomaly marker stands apart from its tick ("0 ?Packet"), the
// command names aligned under their heading with or without one.
func TestTimelineMarkerApartFromTick(t *testing.T) {
	rows := []TimelineRow{{Kind: RowCommand, Index: 15, Tick: 0, Name: "DEM_Packet", Sev: SevWeak}, {Kind: RowCommand, Index: 16, Tick: 12345, Name: "DEM_FullPacket"}}
	lines := strings.Split(Timeline(TimelineInput{Rows: rows, Cursor: -1, Width: 40, Height: 3, Theme: NoColorTheme()}), "\n")
	if !strings.Contains(lines[1], "    0 ?Packet") {
		t.Errorf("the marker runs into the tick: %q", lines[1])
	}
	col := strings.Index(lines[0], "command")
	if strings.Index(lines[1], "Packet") != col || strings.Index(lines[2], "FullPacket") != col {
		t.Errorf("names not under their heading:\n%s", strings.Join(lines, "\n"))
	}
}

// The wire pane shows a wide character as itself (as entities prints it),
// not as an escape, and escapes what takes no cell of its own; its lines
// still fit the pane.
func TestWireTreeShowsWideCharacters(t *testing.T) {
	lines := []WireLine{{Field: 3, Name: "server_name", Type: "bytes", Len: 6, Value: "\"\U0001F479\""}, {Field: 4, Name: "client_name", Type: "bytes", Len: 5, Value: "\"e\u0301\u200d\""}}
	for _, w := range []int{60, 40, 31} {
		out := WireTree(WireTreeInput{Lines: lines, Selected: -1, Width: w, Height: 4, Theme: NoColorTheme()})
		checkFits(t, out, w, 4)
		if w == 60 && (!strings.Contains(out, "\"\U0001F479\"") || strings.Contains(out, "1f479") || !strings.Contains(out, `"e\u{301}\u{200d}"`)) {
			t.Errorf("width %d:\n%s", w, out)
		}
	}
}

// A cut box too short for its report drops whole lines, spacers and notes
// first: the file written keeps its first line (it lost it, and showed
// only the rest of it), and the command line stays.
func TestCutReportTooShortDropsWholeLines(t *testing.T) {
	in := CutReportInput{Out: "auto-20240102-2233-400-500.dem", Command: "dembug cut auto-20240102-2233.dem --from 400 --to 500 -o auto-20240102-2233-400-500.dem",
		First: 400, Last: 500, StateTick: 398, Commands: 51, Entities: 859, Tables: 19, Size: 439 << 10, InSize: 651 << 10,
		Past: "DOTA_UM_CombatLogDataHLTV ×28", Footer: "enter or esc closes", Width: 40, Theme: NoColorTheme()}
	full := CutReportLines(in)
	for h := full; h >= 10; h-- { // 10: room for the file and the command alone
		in.Height = h
		out := CutReport(in)
		lines := strings.Split(out, "\n")
		if len(lines) != h || !strings.HasPrefix(lines[1], "┃ wrote") {
			t.Fatalf("height %d: the report does not start with the file written:\n%s", h, out)
		}
		if !strings.Contains(out, "auto-20240102-2233-400-500.dem   ") || !strings.Contains(out, "dembug cut") {
			t.Fatalf("height %d: the file or the command line is gone:\n%s", h, out)
		}
	}
}

// The cut box's text keeps a cell free before its right border at every
// width (wrapped lines ran up to it at 43 columns).
func TestCutReportKeepsOffItsBorder(t *testing.T) {
	in := CutReportInput{Out: "auto-20240102-2233-400-500.dem", Command: "dembug cut auto-20240102-2233.dem --from 400 --to 500 -o auto-20240102-2233-400-500.dem",
		First: 400, Last: 500, StateTick: 398, Commands: 51, Entities: 859, Tables: 19, Size: 439 << 10, InSize: 651 << 10,
		Past: "DOTA_UM_CombatLogDataHLTV ×28", Footer: "enter or esc closes", Theme: NoColorTheme(),
		Notes: []string{"a bb ccc dddd eeeee ffffff ggggggg hhhhhhhh iiiiiiiii jjjjjjjjjj a bb ccc dddd eeeee ffffff ggggggg hhhhhhhh iiiiiiiii jjjjjjjjjj"}}
	for w := 39; w <= 100; w++ { // 39: the box on a 43-column screen
		in.Width = w
		lines := strings.Split(CutReport(in), "\n")
		for _, l := range lines[1 : len(lines)-1] {
			r := []rune(l)
			if len(r) < 3 || r[len(r)-2] != ' ' && r[len(r)-2] != '…' {
				t.Fatalf("width %d: a line runs into the border: %q", w, l)
			}
		}
	}
}
