package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// eventsNamed are the indexed events of a name, in file order.
func eventsNamed(hs *harness, name string) []*session.EventInfo {
	var out []*session.EventInfo
	for i := range hs.m.ix.Events {
		if hs.m.ix.Events[i].Label == name {
			out = append(out, &hs.m.ix.Events[i])
		}
	}
	return out
}

// selectedEvent is the event the selection is on, or nil.
func selectedEvent(hs *harness) *session.EventInfo {
	m := hs.m
	if m.sel.Upd >= 0 {
		return nil
	}
	msg := m.ix.Msg(m.sel.Cmd, m.sel.Msg)
	if msg == nil {
		return nil
	}
	return m.ix.Event(m.sel.Cmd, msg.Index)
}

// f with an event's name keeps the game events of that name: the timeline
// lists the packets holding them, each showing its kept events and no
// other message; n/N and ] walk them; esc clears the filter.
func TestFilterByEventName(t *testing.T) {
	path, data := loadReplay(t, "cs2/14011.dem")
	hs := newHarness(t, path, data, 160, 48)
	fires := eventsNamed(hs, "weapon_fire")
	if len(fires) < 3 {
		t.Fatalf("%d weapon_fire events indexed, want several", len(fires))
	}
	hs.keys("f")
	hs.typ("weapon_fire")
	hs.keys("enter")
	if hs.m.filter == nil {
		t.Fatalf("no filter: %s", hs.m.note)
	}
	if want := `filter "weapon_fire": ` + views.Count(len(fires), "game event") + " (weapon_fire)"; hs.m.note != want {
		t.Errorf("note %q, want %q", hs.m.note, want)
	}
	if e := selectedEvent(hs); e != fires[0] {
		t.Errorf("selection %+v is not the first weapon_fire", hs.m.sel)
	}
	events := 0
	for _, r := range hs.m.rows.rows() {
		switch r.kind {
		case views.RowMessage:
			msg := hs.m.ix.Msg(int(r.cmd), int(r.msg))
			e := hs.m.ix.Event(int(r.cmd), msg.Index)
			if e == nil || e.Label != "weapon_fire" {
				t.Errorf("row %+v: %s is shown under the filter", r, msg.Name)
			}
			events++
		case views.RowUpdate:
			t.Errorf("row %+v: an update under an event filter", r)
		}
	}
	if events != len(fires) {
		t.Errorf("%d event rows, want %d", events, len(fires))
	}
	s := hs.screen()
	for _, want := range []string{`filter "weapon_fire"`, "weapon_fire · GE_So"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "net_Tick") {
		t.Errorf("a message the filter does not keep is shown:\n%s", s)
	}

	hs.keys("n")
	if e := selectedEvent(hs); e != fires[1] {
		t.Errorf("n: selection %+v is not the second weapon_fire", hs.m.sel)
	}
	hs.keys("N")
	if e := selectedEvent(hs); e != fires[0] {
		t.Errorf("N: selection %+v is not the first weapon_fire", hs.m.sel)
	}
	hs.keys("]")
	if hs.m.sel.Cmd <= int(fires[0].Cmd) || !hs.m.filterCmd[hs.m.sel.Cmd] {
		t.Errorf("]: command %d is not a later packet with a weapon_fire", hs.m.sel.Cmd)
	}

	// A packet of kept events collapses and expands again.
	hs.run(hs.m.reveal(session.Ref{Cmd: int(fires[0].Cmd), Msg: -1, Upd: -1, Field: -1}))
	n := hs.m.rows.Len()
	hs.keys("enter")
	if hs.m.rows.Len() >= n {
		t.Errorf("enter on a packet of kept events: %d rows, was %d", hs.m.rows.Len(), n)
	}
	hs.keys("enter")
	if hs.m.rows.Len() != n {
		t.Errorf("enter again: %d rows, want %d", hs.m.rows.Len(), n)
	}

	hs.keys("esc")
	if hs.m.filter != nil {
		t.Errorf("esc left the filter")
	}
}

// A filter that matches both field names and event names keeps both; one
// that matches an event the list defines but the file never sends says so.
func TestFilterEventsAndUpdates(t *testing.T) {
	path, data := loadReplay(t, "cs2/14011.dem")
	hs := newHarness(t, path, data, 160, 48)
	hs.keys("f")
	hs.typ("player_")
	hs.keys("enter")
	if want := `filter "player_": 11 game events (player_jump, player_spawn, player_hurt, …)`; hs.m.note != want {
		t.Errorf("note %q, want %q", hs.m.note, want)
	}
	hs.keys("esc", "f")
	hs.typ("weapon")
	hs.keys("enter")
	if !strings.Contains(hs.m.note, " updates, ") || !strings.Contains(hs.m.note, "game events (weapon_fire, weapon_zoom)") {
		t.Errorf("note %q", hs.m.note)
	}
	var upd, ev bool
	for _, r := range hs.m.rows.rows() {
		upd = upd || r.kind == views.RowUpdate
		if r.kind == views.RowMessage {
			msg := hs.m.ix.Msg(int(r.cmd), int(r.msg))
			ev = ev || hs.m.ix.Event(int(r.cmd), msg.Index) != nil
		}
	}
	if !upd || !ev {
		t.Errorf("rows with an update %v, with an event %v", upd, ev)
	}

	hs.keys("esc", "f")
	hs.typ("bomb_planted")
	hs.keys("enter")
	if hs.m.filter != nil || !strings.Contains(hs.m.note, "the event list defines bomb_planted, but the file sends none") {
		t.Errorf("filter %v, note %q", hs.m.filter != nil, hs.m.note)
	}
}

// / with an event's exact name goes to the next event of that name, and
// / enter to the one after, wrapping at the end.
func TestSearchEventName(t *testing.T) {
	path, data := loadReplay(t, "cs2/14011.dem")
	hs := newHarness(t, path, data, 160, 48)
	picks := eventsNamed(hs, "item_pickup")
	if len(picks) < 2 {
		t.Fatalf("%d item_pickup events", len(picks))
	}
	hs.keys("/")
	hs.typ("item_pickup")
	hs.keys("enter")
	if selectedEvent(hs) != picks[0] || !strings.HasPrefix(hs.m.note, "item_pickup: event 1 of ") {
		t.Fatalf("/item_pickup: selection %+v, note %q", hs.m.sel, hs.m.note)
	}
	hs.keys("/", "enter")
	if selectedEvent(hs) != picks[1] || !strings.HasPrefix(hs.m.note, "item_pickup: event 2 of ") {
		t.Errorf("/ enter: selection %+v, note %q", hs.m.sel, hs.m.note)
	}
	for range len(picks) - 1 {
		hs.keys("/", "enter")
	}
	if selectedEvent(hs) != picks[0] || !strings.Contains(hs.m.note, "(wrapped to the start)") {
		t.Errorf("past the last: selection %+v, note %q", hs.m.sel, hs.m.note)
	}
	if len(hs.m.jumps.back) == 0 {
		t.Errorf("the search's jumps are not in the jump list")
	}

	// Under a filter that hides them, the search clears it to show one.
	hs.keys("f")
	hs.typ("weapon_fire")
	hs.keys("enter", "/", "enter")
	if hs.m.filter != nil || selectedEvent(hs) == nil || selectedEvent(hs).Label != "item_pickup" || !strings.Contains(hs.m.note, "filter cleared to show it") {
		t.Errorf("/ enter under a filter of weapon_fire: filter %v, note %q", hs.m.filter != nil, hs.m.note)
	}
	if hs.m.rows.At(hs.m.cursor).kind != views.RowMessage {
		t.Errorf("the cursor is not on the event's row")
	}
}
