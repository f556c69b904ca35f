package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/gameevents"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// The index pass reads CS2 14011's 50 events against its list: each at a
// GE_Source1LegacyGameEvent message of the index, named, its entry found,
// and its wire rows named by that entry's keys.
func TestIndexEvents(t *testing.T) {
	path := filepath.Join(testreplays.Require(t), "cs2", "14011.dem")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ix := BuildIndex(path, data)
	if len(ix.Events) != 50 {
		t.Fatalf("%d events indexed, want 50", len(ix.Events))
	}
	for i := range ix.Events {
		e := &ix.Events[i]
		j := ix.EventRef(e).Msg
		if j < 0 || ix.Msg(int(e.Cmd), j).Type != gameevents.EventMessage {
			t.Fatalf("event %d at command %d message %d: no event message there", i, e.Cmd, e.Inner)
		}
		if ix.Event(int(e.Cmd), int(e.Inner)) != e {
			t.Errorf("Event(%d, %d) does not find event %d", e.Cmd, e.Inner, i)
		}
		d := e.Desc()
		if d == nil || d.Name != e.Label || d.ID != e.ID || e.Why() != "" || len(e.Mismatches) != 0 {
			t.Errorf("event %d: %+v", i, e)
		}
	}
	if ix.Event(0, 0) != nil {
		t.Error("the first command's message is an event")
	}
	// The first weapon_fire's wire rows carry its keys' names and types.
	var e *EventInfo
	for i := range ix.Events {
		if ix.Events[i].Label == "weapon_fire" {
			e = &ix.Events[i]
			break
		}
	}
	body, err := bodyOf(data, ix.Cmd(int(e.Cmd)), int(e.Inner))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := WireRows("GE_Source1LegacyGameEvent", body)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range EventWireRows(rows, e) {
		names = append(names, r.Name+"="+r.Value)
	}
	got := strings.Join(names, " ")
	for _, want := range []string{"eventid=158 (weapon_fire)", "keys userid (player)", "keys userid_pawn (ehandle)", "type=8 (ehandle)", "val_long=2090860690", "keys weapon (string)", "val_string=", "keys silenced (bool)", "val_bool=false"} {
		if !strings.Contains(got, want) {
			t.Errorf("wire rows lack %q: %s", want, got)
		}
	}
	lrows, err := WireRows("GE_Source1LegacyGameEventList", mustBody(t, data, ix))
	if err != nil || len(lrows) < 100 || lrows[0].Name != "descriptors" || lrows[1].Name != "eventid" || lrows[2].Name != "name" {
		t.Errorf("list wire rows: %v %+v", err, lrows[:min(3, len(lrows))])
	}
}

// mustBody is the body of the file's event list message.
func mustBody(t *testing.T, data []byte, ix *Index) []byte {
	t.Helper()
	for i := range ix.Commands {
		for _, m := range ix.Commands[i].Msgs() {
			if m.Type == gameevents.ListMessage {
				b, err := bodyOf(data, &ix.Commands[i], m.Index)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
		}
	}
	t.Fatal("no event list")
	return nil
}

// Without the list, the events are indexed by id and say why.
func TestIndexEventsWithoutTheList(t *testing.T) {
	_, data := testreplays.Read(t, "cs2")
	stripped, n, err := writer.DropInner(data, gameevents.ListMessage)
	if err != nil || n != 1 {
		t.Fatal(n, err)
	}
	ix := BuildIndex("nolist.dem", stripped)
	if len(ix.Events) == 0 {
		t.Fatal("no events")
	}
	for _, e := range ix.Events {
		if e.Desc() != nil || e.List != nil || !strings.HasPrefix(e.Label, "#") || !strings.Contains(e.Why(), "no event list") {
			t.Errorf("%+v", e)
		}
	}
}
