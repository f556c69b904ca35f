package views

import (
	"strings"
	"testing"
)

func cutReport() CutReportInput {
	return CutReportInput{
		Out: "a-400-500.dem", Command: "dembug cut '../replays/my match.dem' --from 400 --to 500 --as PlayerID_t=int32 -o a-400-500.dem",
		First: 400, Last: 500, StateTick: 398, Commands: 51, Entities: 859, Tables: 19, Size: 449536, InSize: 666878,
		Past: "DOTA_UM_CombatLogDataHLTV ×28", Notes: []string{"not carried from before tick 400: X ×1"},
		Problems: []string{"the window misaligns"}, Footer: "esc closes", Width: 50, Theme: NoColorTheme(),
	}
}

// The report fits its box cell for cell; a command too long for a line
// breaks with a backslash at each break, so that the copied lines still
// run as one command.
func TestCutReportWrapsTheCommand(t *testing.T) {
	in := cutReport()
	out := CutReport(in)
	lines := strings.Split(out, "\n")
	if len(lines) != CutReportLines(in) {
		t.Fatalf("%d lines, CutReportLines says %d:\n%s", len(lines), CutReportLines(in), out)
	}
	var cmd []string
	for _, l := range lines {
		if Width(l) != in.Width {
			t.Errorf("line %q is %d cells, not %d", l, Width(l), in.Width)
		}
		if s := strings.TrimSpace(strings.Trim(l, "┃")); strings.HasPrefix(l, "┃") && (strings.HasPrefix(s, "dembug cut") || len(cmd) > 0 && !strings.HasPrefix(s, "esc closes")) {
			cmd = append(cmd, s)
		}
	}
	if len(cmd) < 3 {
		t.Fatalf("the command is not wrapped:\n%s", out)
	}
	joined := ""
	for i, c := range cmd {
		if strings.Count(c, "'")%2 != 0 {
			t.Errorf("line %q breaks a quoted word", c)
		}
		if i < len(cmd)-1 {
			if !strings.HasSuffix(c, " \\") {
				t.Errorf("wrapped line %q does not end in a backslash", c)
			}
			c = strings.TrimSuffix(c, "\\")
		}
		joined += c
	}
	if joined != in.Command {
		t.Errorf("the lines join to\n%s\nnot\n%s", joined, in.Command)
	}
	for _, w := range []string{"✗ the window misaligns", "note: not carried", "859 entities at tick 398", "439 KB of 651 KB"} {
		if !strings.Contains(out, w) {
			t.Errorf("the report lacks %q:\n%s", w, out)
		}
	}
	// Too short a box keeps the command line and the footer.
	in.Height = 8
	short := CutReport(in)
	if n := len(strings.Split(short, "\n")); n != 8 || !strings.Contains(short, "dembug cut") || !strings.Contains(short, "esc closes") {
		t.Errorf("a box of 8 lines:\n%s", short)
	}
}

// The window marked for a cut is a bracket down the timeline's left edge,
// where the cursor's '>' goes; the cursor row keeps its '>'.
func TestTimelineWindowBracket(t *testing.T) {
	rows := []TimelineRow{
		{Kind: RowCommand, Index: 1, Tick: 398, Name: "DEM_Packet"},
		{Kind: RowCommand, Index: 2, Tick: 400, Name: "DEM_Packet", Window: WindowFirst},
		{Kind: RowCommand, Index: 3, Tick: 402, Name: "DEM_Packet", Window: WindowIn},
		{Kind: RowCommand, Index: 4, Tick: 404, Name: "DEM_Packet", Window: WindowIn},
		{Kind: RowCommand, Index: 5, Tick: 406, Name: "DEM_Packet", Window: WindowLast},
		{Kind: RowCommand, Index: 6, Tick: 408, Name: "DEM_Packet", Window: WindowOnly},
	}
	lines := strings.Split(Timeline(TimelineInput{Rows: rows, Cursor: 3, Width: 40, Height: 10, Theme: NoColorTheme()}), "\n")
	want := []string{" ", "┌", "┆", ">", "└", "["}
	for i, w := range want {
		if got := []rune(lines[i+1])[0]; string(got) != w {
			t.Errorf("row %d starts with %q, want %q:\n%s", i, got, w, strings.Join(lines, "\n"))
		}
	}
}
