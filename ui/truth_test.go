package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/dembug/dembug/internal/brokendemo"
	"github.com/dembug/dembug/sample"
	"regexp"
	"strings"
	"testing"
)

// The layout tiers begin where docs/tui.md says (the status line is one of
// the rows).
func TestLayoutThresholdsAsDocumented(t *testing.T) {
	for _, c := range []struct {
		w, h       int
		tier, less string
	}{
		{150, 41, "full", "medium"}, {100, 29, "medium", "compact"}, {60, 17, "compact", "tiny"},
	} {
		m := &Model{w: c.w, h: c.h}
		if got := m.layout().tier; got != c.tier {
			t.Errorf("%dx%d: %s, want %s", c.w, c.h, got, c.tier)
		}
		for _, sz := range [][2]int{{c.w - 1, c.h}, {c.w, c.h - 1}} {
			m := &Model{w: sz[0], h: sz[1]}
			if got := m.layout().tier; got != c.less {
				t.Errorf("%dx%d: %s, want %s", sz[0], sz[1], got, c.less)
			}
		}
	}
}

// At 120 columns the fields pane keeps the decoder column; at 160 the
// timeline keeps each update's field count and bits.
func TestNarrowPanesKeepWhatMatters(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "dota", data, 120, 40)
	hs.keys("n", "n", "tab")
	if !regexp.MustCompile(`name +decoder +offset bits value`).MatchString(hs.screen()) {
		t.Errorf("120 columns: the fields header has no decoder:\n%s", hs.screen())
	}
	hs = newHarness(t, "dota", data, 160, 48)
	hs.keys("n", "n")
	if !regexp.MustCompile(`new +\d+f +\d+b`).MatchString(hs.screen()) {
		t.Errorf("160 columns: the timeline's update rows lack their bits:\n%s", hs.screen())
	}
}

// q, like ? and esc, closes the help instead of quitting.
func TestQClosesTheHelp(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "dota", data, 80, 24)
	hs.keys("?")
	if !hs.m.showHelp {
		t.Fatal("? did not open the help")
	}
	quit := hs.m.onKey(keyMsg("q"))
	if hs.m.showHelp || quit != nil {
		t.Errorf("q in the help: help shown %v, command %v", hs.m.showHelp, quit)
	}
}

// "/" starts empty; enter on it finds the next match of the last search;
// e says which of the entity's updates it went to, and when it wrapped.
func TestSearchPromptAndEntityCount(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "dota", data, 160, 48)
	hs.keys("/")
	hs.typ("m_iItemID")
	hs.keys("enter")
	first := hs.m.sel
	if !strings.Contains(hs.m.note, `"m_iItemID": match 1 of `) {
		t.Fatalf("note %q", hs.m.note)
	}
	hs.keys("/")
	if hs.m.input != "" || !strings.Contains(hs.screen(), `(empty: next "m_iItemID")`) {
		t.Fatalf("the prompt keeps %q", hs.m.input)
	}
	hs.keys("enter")
	if !strings.Contains(hs.m.note, `"m_iItemID": match 2 of `) || hs.m.sel == first {
		t.Fatalf("/ enter: note %q, selection %+v (was %+v)", hs.m.note, hs.m.sel, first)
	}
	hs.keys("e")
	hs.typ("0")
	hs.keys("enter")
	if !strings.Contains(hs.m.note, "entity 0: update 1 of ") || !strings.Contains(hs.m.note, "(wrapped to the start)") {
		t.Errorf("e 0 after the first updates: note %q", hs.m.note)
	}
}

// One of a thing is singular.
func TestOneFieldIsSingular(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "dota", data, 160, 48)
	hs.keys("n")
	s := hs.screen()
	if !strings.Contains(s, "CWorld create · 1 field ") || strings.Contains(s, "1 fields") {
		t.Errorf("title: %q", lineWith(s, "Fields ·"))
	}
}

// The wheel moves the selection in the timeline as in the fields pane; a
// click focuses a pane and selects the row under it.
func TestMouseWheelAndClick(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "dota", data, 160, 48)
	hs.keys("n", "n")
	l := hs.m.layout()
	tl := l.rects[paneTimeline]
	before := hs.m.cursor
	hs.send(tea.MouseWheelMsg(tea.Mouse{X: tl.x + 3, Y: tl.y + 5, Button: tea.MouseWheelDown}))
	if hs.m.cursor != before+1 {
		t.Errorf("wheel down on the timeline: cursor %d, want %d", hs.m.cursor, before+1)
	}
	// Click the fields pane's third row: field 2 is selected, the pane
	// focused.
	fr := l.rects[paneFields]
	hs.send(tea.MouseClickMsg(tea.Mouse{X: fr.x + 5, Y: fr.y + 2 + 2, Button: tea.MouseLeft}))
	if hs.m.focus != paneFields || hs.m.sel.Field != 2 {
		t.Errorf("click on the third field row: focus %v, field %d", hs.m.focus, hs.m.sel.Field)
	}
	// Click a timeline row: the cursor goes there.
	top := hs.m.tlTop
	hs.send(tea.MouseClickMsg(tea.Mouse{X: tl.x + 3, Y: tl.y + 2 + 4, Button: tea.MouseLeft}))
	if hs.m.focus != paneTimeline || hs.m.cursor != top+4 {
		t.Errorf("click on the fifth timeline row: focus %v, cursor %d, want %d", hs.m.focus, hs.m.cursor, top+4)
	}
}

// entityPaneAt opens the sample at a tick and selects the update of the
// hero (entity 256, the one with m_vecModifierIDs), returning the entity
// pane's rows.
func entityRowsAt(t *testing.T, tick int, entity int32) (*harness, []string) {
	t.Helper()
	hs := newHarness(t, "sample", sample.Replay, 160, 48)
	hs.keys("g")
	hs.typ(fmt.Sprint(tick))
	hs.keys("enter")
	for i := 0; i < 20; i++ {
		if u := hs.m.ix.Update(hs.m.sel.Cmd, hs.m.sel.Msg, hs.m.sel.Upd); u != nil && int32(u.Entity) == entity {
			break
		}
		hs.keys("n")
	}
	hs.m.entityPane(60, 200)
	var names []string
	for _, r := range hs.m.cache.entRows {
		names = append(names, r.Name)
	}
	return hs, names
}

// After the sample's tick 40 m_vecModifierIDs has length 1: the entity
// pane lists no element past it (the engine keeps the old ones unsent).
func TestEntityPaneStopsAtAShrunkArraysLength(t *testing.T) {
	_, names := entityRowsAt(t, 40, 256)
	joined := strings.Join(names, " ")
	if !strings.Contains(joined, "m_vecModifierIDs.0000") || strings.Contains(joined, "m_vecModifierIDs.0001") || strings.Contains(joined, "m_vecModifierIDs.0002") {
		t.Errorf("entity rows at tick 40: %v", names)
	}
}

// An entity that leaves the view says so in the entity pane.
func TestEntityPaneMarksALeave(t *testing.T) {
	hs, _ := entityRowsAt(t, 45, 300)
	title, body := hs.m.entityPane(60, 10)
	if !strings.Contains(title+body, "LEFT the view") {
		t.Errorf("creep 300 at tick 45: %s\n%s", title, body)
	}
}

// a stops at the suspect dembug check names (cli's
// TestCheckNamesFirstSuspiciousField holds check to the same fields): the
// read whose other decoder or bit edit makes the message align.
func TestAnomalyKeyStopsWhereCheckPoints(t *testing.T) {
	dropped, _ := brokendemo.DroppedPathBit()
	for _, c := range []struct {
		name string
		data []byte
		want []string
	}{
		{"wrong-decoder.dem", brokendemo.WrongDecoder(), []string{brokendemo.Speed, "m_iTeamNum"}},
		{"dropped-bit.dem", dropped, []string{brokendemo.Mana, "m_nLevel"}},
	} {
		hs := newHarness(t, c.name, c.data, 160, 48)
		hs.keys("a")
		f := selField(hs)
		text := inspectorText(hs)
		if f == nil || !strings.Contains(text, "the message aligns ") ||
			!strings.Contains(text, c.want[0]) && !strings.Contains(text, c.want[1]) {
			t.Errorf("%s: a stopped at %+v, inspector:\n%s\nwant check's suspect %v", c.name, f, text, c.want)
		}
	}
}
