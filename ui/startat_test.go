package ui

import (
	"strings"
	"testing"
)

// --tick opens the debugger at the first entity update at or after the
// tick, once the index reaches it; a tick past the file's end says so.
func TestOpensAtTick(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarnessWith(t, "dota", data, 160, 48, Options{NoColor: true, StartTick: 401, HasStartTick: true})
	c := hs.m.ix.Cmd(hs.m.sel.Cmd)
	if c == nil || c.Tick < 401 || hs.m.sel.Upd != 0 {
		t.Fatalf("opened at %+v (command %+v)", hs.m.sel, c)
	}
	if prev := hs.m.ix.Cmd(hs.m.sel.Cmd - 1); prev != nil && prev.Tick >= 401 && prev.First < c.First {
		t.Fatalf("an update at tick %d comes before", prev.Tick)
	}
	past := newHarnessWith(t, "dota", data, 160, 48, Options{NoColor: true, StartTick: 99999, HasStartTick: true})
	if !strings.Contains(past.m.note, "--tick 99999") {
		t.Fatalf("past the end: note %q", past.m.note)
	}
}
