package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/session"
)

// A game event's timeline row carries its name, its wire rows its keys'
// names and types, and the inspector the list entry that defines it.
func TestGameEventNamed(t *testing.T) {
	path, data := loadReplay(t, "cs2/14011.dem")
	hs := newHarness(t, path, data, 160, 48)
	var ev *session.EventInfo
	for i := range hs.m.ix.Events {
		if hs.m.ix.Events[i].Label == "weapon_fire" {
			ev = &hs.m.ix.Events[i]
			break
		}
	}
	if ev == nil {
		t.Fatalf("no weapon_fire among %d indexed events", len(hs.m.ix.Events))
	}
	hs.run(hs.m.reveal(hs.m.ix.EventRef(ev)))
	hs.m.derive()
	if s := hs.screen(); !strings.Contains(s, "weapon_fire · GE_") {
		t.Errorf("the timeline row lacks the event's name:\n%s", s)
	}
	var names []string
	for _, w := range hs.m.cache.wire {
		names = append(names, w.Name)
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "keys userid (player),type,val_short,keys userid_pawn (ehandle),type,val_long,keys weapon (string)") {
		t.Errorf("wire rows: %s", got)
	}
	if got := strings.Join(names, ","); !strings.HasSuffix(got, ",server_tick") {
		t.Errorf("wire rows end without server_tick (field 4): %s", got)
	}
	text := inspectorText(hs)
	for _, want := range []string{"weapon_fire (event id 158)", "entry #156 of the file's event list (GE_Source1LegacyGameEventList, 271 entries)", "userid player, userid_pawn ehandle, weapon string, silenced bool", "as declared: player, ehandle, string, bool"} {
		if !strings.Contains(text, want) {
			t.Errorf("inspector lacks %q:\n%s", want, text)
		}
	}
}
