package views

import (
	"fmt"
	"strings"
	"testing"
)

// helpGroups is a help of the debugger's shape: short keys, a long
// description, groups of a few lines and a long one.
func helpGroups() []HelpGroup {
	gs := []HelpGroup{
		{Title: "Move", Keys: []HelpKey{{"↑ k", "up: row, field or scroll"}, {"pgup ctrl+u", "page up"}, {"home", "first row"}}},
		{Title: "Mouse", Keys: []HelpKey{{"wheel", "timeline, fields, bits: move the selection; others: scroll"}, {"click", "focus the pane"}}},
	}
	long := HelpGroup{Title: "Decoders"}
	for i := range 30 {
		long.Keys = append(long.Keys, HelpKey{fmt.Sprintf("dec%d", i), fmt.Sprintf("decoder number %d of the list", i)})
	}
	return append(gs, long)
}

// Every description is shown whole (wrapped, never cut) at every size, a
// column never ends with a title, and scrolling reaches every line.
func TestHelpWrapsScrollsAndKeepsTitlesWithEntries(t *testing.T) {
	gs := helpGroups()
	for _, sz := range []struct{ w, h int }{{158, 46}, {78, 22}, {38, 10}, {60, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			l := layoutHelp(gs, sz.w, sz.h)
			for _, col := range l.cols {
				if last := col[len(col)-1]; last.title {
					t.Errorf("column ends with the title %q", last.text)
				}
			}
			var all []helpLine
			for _, col := range l.cols {
				all = append(all, col...)
			}
			for _, g := range gs {
				for _, k := range g.Keys {
					// The binding's lines: its first, then continuations.
					found := false
					for i, hl := range all {
						if hl.keys != k.Keys {
							continue
						}
						text := hl.text
						for j := i + 1; j < len(all) && all[j].keys == "" && !all[j].title && all[j].text != ""; j++ {
							text += " " + all[j].text
						}
						if text != k.Desc {
							t.Errorf("%s reads %q, want %q", k.Keys, text, k.Desc)
						}
						found = true
					}
					if !found {
						t.Errorf("%s not laid out", k.Keys)
					}
				}
			}
			// Scrolled to the end, the last binding is on screen; at the
			// top the first is.
			in := HelpInput{Groups: gs, Width: sz.w, Height: sz.h, Theme: NoColorTheme()}
			n := HelpLines(in)
			top := HelpView(in)
			in.Scroll = n
			end := HelpView(in)
			checkFits(t, top, sz.w, sz.h)
			checkFits(t, end, sz.w, sz.h)
			if !strings.Contains(top, "↑ k") || !strings.Contains(end, "dec29") {
				t.Errorf("top or end of the help missing:\n%s\n---\n%s", top, end)
			}
			if n > sz.h && strings.Contains(top, "dec29") {
				t.Errorf("help of %d lines in %d shows its end unscrolled", n, sz.h)
			}
			if strings.Contains(top+end, "…") {
				t.Errorf("a description is cut:\n%s\n---\n%s", top, end)
			}
		})
	}
}

// The status line keeps its right side (the keys that help) whole and cuts
// a long left side instead.
func TestStatusBarKeepsTheRightSide(t *testing.T) {
	left := "tick 200000 › #123456 Packet › CSVCMsg_PacketEntities › update #12 of 40 › field #3 of 9"
	s := StatusBar(left, "? keys", 80, NoColorTheme())
	if Width(s) != 80 || !strings.HasSuffix(s, "? keys") || !strings.HasPrefix(s, "tick 200000") || !strings.Contains(s, "…") {
		t.Fatalf("status %q", s)
	}
	// Too narrow for both: the left side alone, cut.
	if s := StatusBar(left, "? keys", 12, NoColorTheme()); !strings.HasPrefix(s, "tick") || Width(s) != 12 {
		t.Fatalf("narrow status %q", s)
	}
}
