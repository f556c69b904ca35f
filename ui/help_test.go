package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/brokendemo"
)

// helpBody is the help's text without the box and status line.
func helpBody(s string) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[1:len(lines)-2], "\n")
}

// At every size the help shows descriptions whole (wrapped, not cut to a
// few cells), and j, pgdn and end scroll it to the last decoder.
func TestScreenHelpScrolls(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	for _, sz := range []struct{ w, h int }{{40, 12}, {80, 24}, {160, 48}} {
		hs := newHarness(t, "auto-20240102-2233.dem", data, sz.w, sz.h)
		hs.keys("?")
		first := hs.screen()
		// (The vector decoder's own name and description end in "…".)
		if strings.Contains(strings.NewReplacer("vecN×…", "", "each as …", "").Replace(helpBody(first)), "…") {
			t.Errorf("%dx%d: a description is cut:\n%s", sz.w, sz.h, first)
		}
		if !strings.Contains(first, "up: row, field or") {
			t.Errorf("%dx%d: the first binding's description is not shown whole:\n%s", sz.w, sz.h, first)
		}
		last := "binary block"
		if sz.w >= 160 {
			if !strings.Contains(first, last) || strings.Contains(first, "j k pgdn") {
				t.Errorf("160x48: the help does not fit unscrolled:\n%s", first)
			}
			// No group title sits alone at the bottom of a column.
			lines := strings.Split(first, "\n")
			bottom := lines[len(lines)-3]
			for _, g := range hs.m.keys.HelpGroups() {
				if strings.Contains(bottom, g.Title) {
					t.Errorf("%q ends a column:\n%s", g.Title, first)
				}
			}
			continue
		}
		if strings.Contains(first, last) {
			t.Errorf("%dx%d: the whole help fits, nothing to scroll", sz.w, sz.h)
		}
		hs.keys("j")
		if hs.m.helpTop != 1 {
			t.Errorf("%dx%d: j scrolled the help to line %d", sz.w, sz.h, hs.m.helpTop)
		}
		hs.keys("pgdown")
		if hs.m.helpTop <= 1 {
			t.Errorf("%dx%d: pgdn did not scroll the help", sz.w, sz.h)
		}
		hs.keys("end")
		if end := hs.screen(); !strings.Contains(end, last) {
			t.Errorf("%dx%d: end of the help lacks %q:\n%s", sz.w, sz.h, last, end)
		}
		if sz.w == 40 {
			requireGolden(t, hs.screen())
		}
		hs.keys("q")
		if hs.m.showHelp || hs.quit {
			t.Errorf("%dx%d: q did not close the help (quit %v)", sz.w, sz.h, hs.quit)
		}
	}
}

// q in the decoder picker closes the picker, as it closes help and L; it
// does not quit the program.
func TestPickerQCloses(t *testing.T) {
	hs := newHarness(t, wrongName, brokendemo.WrongDecoder(), 160, 48)
	toSpeed(t, hs)
	hs.keys("d")
	if hs.m.picker == nil {
		t.Fatal("d opened no picker")
	}
	hs.keys("q")
	if hs.quit || hs.m.picker != nil {
		t.Fatalf("q in the picker: quit %v, picker open %v", hs.quit, hs.m.picker != nil)
	}
}

// With a long breadcrumb the status line keeps "? keys", and a filter's
// progress with how to stop it, at both sizes.
func TestStatusKeepsKeysAndProgress(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	for _, w := range []int{80, 160} {
		hs := newHarness(t, "auto-20240102-2233.dem", data, w, 24)
		hs.keys("g")
		hs.typ("100")
		hs.keys("enter", "tab", "j", "j")
		status := func() string {
			lines := strings.Split(hs.screen(), "\n")
			return lines[len(lines)-1]
		}
		if loc := hs.m.location(); w == 80 && len(loc)+8 <= w {
			t.Fatalf("breadcrumb %q is not long enough for the test", loc)
		}
		if s := status(); !strings.Contains(s, "? keys") || !strings.HasPrefix(s, "tick ") {
			t.Errorf("%d: status %q", w, s)
		}
		hs.m.scan = &scanJob{filter: true, q: "m_flMana", progress: 0.43}
		if s := status(); !strings.Contains(s, "filtering") || !strings.Contains(s, "43%") || !strings.Contains(s, "esc cancels") {
			t.Errorf("%d: status while filtering %q", w, s)
		}
		hs.m.scan = nil
	}
}

// Going to a tick past the file's end says where the file ends.
func TestGoToTickPastTheEnd(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	last := hs.m.ix.Commands[len(hs.m.ix.Commands)-1].Tick
	hs.keys("g")
	hs.typ("999999")
	hs.keys("enter")
	if want := fmt.Sprintf("no command at or after tick 999999: the last is at tick %d", last); !hs.m.ix.Done || hs.m.note != want {
		t.Errorf("note %q, want %q (index done %v)", hs.m.note, want, hs.m.ix.Done)
	}
}

// Jumping to an entity index no entity can have says the range; one that
// could exist but is never updated says that.
func TestJumpToAnImpossibleEntity(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	for q, want := range map[string]string{"99999": "no entity 99999: entity indexes run 0…16383", "16000": "entity 16000 is never updated"} {
		hs.keys("e")
		hs.typ(q)
		hs.keys("enter")
		if hs.m.note != want || !hs.m.noteErr {
			t.Errorf("e %s: note %q, want %q", q, hs.m.note, want)
		}
	}
}
