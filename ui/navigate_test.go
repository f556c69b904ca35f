package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg(tea.Key{Code: r, Mod: tea.ModCtrl}) }

// g and e check what they are given: a number too large is out of range,
// a negative one invalid; neither moves the selection.
func TestGotoChecksItsNumber(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	hs.keys("n")
	at := hs.m.sel
	for _, c := range []struct{ key, text, want string }{
		{"g", "1234567890123456789012", "out of range: the last tick is"},
		{"g", "99999999999", "out of range"},
		{"g", "-5", "-5 is not a tick: tick is 0 or more"},
		{"g", "12x", `"12x" is not a number`},
		{"e", "-4", "-4 is not an entity index"},
	} {
		hs.keys(c.key)
		hs.typ(c.text)
		hs.keys("enter")
		if !strings.Contains(hs.m.note, c.want) || !hs.m.noteErr || hs.m.sel != at {
			t.Errorf("%s %s: note %q (error %v), selection moved %v", c.key, c.text, hs.m.note, hs.m.noteErr, hs.m.sel != at)
		}
	}
}

// e with an empty prompt goes to the selected update's entity's next
// update; the prompt says which.
func TestEntityEmptyPromptTakesTheSelection(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	hs.keys("g")
	hs.typ("100")
	hs.keys("enter")
	u := hs.m.ix.Update(hs.m.sel.Cmd, hs.m.sel.Msg, hs.m.sel.Upd)
	if u == nil {
		t.Fatal("no update at tick 100")
	}
	ent, from := u.Entity, hs.m.sel
	hs.keys("e")
	if s := hs.screen(); !strings.Contains(s, "(empty: next of #") {
		t.Errorf("the e prompt does not say what empty does:\n%s", s[strings.LastIndex(s, "\n"):])
	}
	hs.keys("enter")
	v := hs.m.ix.Update(hs.m.sel.Cmd, hs.m.sel.Msg, hs.m.sel.Upd)
	if hs.m.noteErr || v == nil || v.Entity != ent || hs.m.sel == from {
		t.Fatalf("e enter: note %q, entity %v (want %d), moved %v", hs.m.note, v, ent, hs.m.sel != from)
	}
}

// g under a filter goes to the filter's first match at or after the tick
// and keeps the filter.
func TestGotoKeepsTheFilter(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	hs.keys("f")
	hs.typ("m_iHealth")
	hs.keys("enter")
	if hs.m.filter == nil {
		t.Fatalf("no filter: %q", hs.m.note)
	}
	hs.keys("g")
	hs.typ("300")
	hs.keys("enter")
	if hs.m.filter == nil {
		t.Fatalf("g dropped the filter: %q", hs.m.note)
	}
	k := hs.m.ix.FlatOf(hs.m.sel)
	if k < 0 || !hs.m.filterUpd[k] || hs.m.ix.Commands[hs.m.sel.Cmd].Tick < 300 {
		t.Fatalf("g 300 under the filter went to %+v (tick %d)", hs.m.sel, hs.m.ix.Commands[hs.m.sel.Cmd].Tick)
	}
	// No match earlier: every filtered update between tick 300 and here is later.
	for j := 0; j < k; j++ {
		if hs.m.filterUpd[j] && hs.m.ix.Commands[hs.m.ix.Ref(j).Cmd].Tick >= 300 {
			t.Fatalf("filtered update %d at tick ≥ 300 comes before %d", j, k)
		}
	}
}

// ctrl+o goes back over jumps (g, e, /, a, n across packets) and ctrl+i
// (ctrl+n) forward again; n within a packet is no jump.
func TestJumpList(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	opened := hs.m.sel
	hs.keys("n") // from the file header to the first packet: a jump
	start := hs.m.sel
	hs.keys("n") // within the packet: not a jump
	second := hs.m.sel
	hs.keys("g")
	hs.typ("100")
	hs.keys("enter")
	atTick := hs.m.sel
	hs.keys("/")
	hs.typ("m_iHealth")
	hs.keys("enter")
	atSearch := hs.m.sel
	if atSearch == atTick || atTick == second {
		t.Fatalf("jumps did not move: %+v %+v %+v", second, atTick, atSearch)
	}
	hs.send(ctrl('o'))
	if hs.m.sel != atTick {
		t.Fatalf("ctrl+o went to %+v, want %+v (before the search)", hs.m.sel, atTick)
	}
	hs.send(ctrl('o'))
	if hs.m.sel != second {
		t.Fatalf("second ctrl+o went to %+v, want %+v (before g)", hs.m.sel, second)
	}
	hs.send(ctrl('o'))
	if hs.m.sel != opened {
		t.Fatalf("third ctrl+o: %+v, want %+v (n within a packet is no jump; from %+v)", hs.m.sel, opened, start)
	}
	hs.send(ctrl('o'))
	if hs.m.sel != opened || !strings.Contains(hs.m.note, "no jump to go back to") {
		t.Fatalf("fourth ctrl+o: %+v, note %q", hs.m.sel, hs.m.note)
	}
	hs.send(ctrl('i'))
	hs.send(ctrl('i'))
	if hs.m.sel != atTick {
		t.Fatalf("ctrl+i went to %+v, want %+v", hs.m.sel, atTick)
	}
	hs.send(ctrl('n'))
	if hs.m.sel != atSearch {
		t.Fatalf("ctrl+n went to %+v, want %+v", hs.m.sel, atSearch)
	}
	// A new jump drops what was ahead.
	hs.send(ctrl('o'))
	hs.keys("e")
	hs.typ("0")
	hs.keys("enter")
	if len(hs.m.jumps.fwd) != 0 {
		t.Fatalf("a new jump kept %d forward entries", len(hs.m.jumps.fwd))
	}
}
