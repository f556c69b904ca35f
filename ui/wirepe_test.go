package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/sample"
)

// A packet-entities message opens as its wire tree too: its fields named,
// entity_data saying where the entity data starts (the packet's bit, the
// file byte); enter on it goes to the message's first update, as → on the
// message does in the timeline.
func TestWirePacketEntities(t *testing.T) {
	hs := newHarness(t, "sample.dem", sample.Replay, 160, 48)
	hs.keys("n", "left")
	msg := hs.m.ix.Msg(hs.m.sel.Cmd, hs.m.sel.Msg)
	if msg == nil || msg.PE == nil || hs.m.sel.Upd >= 0 {
		t.Fatalf("selection %+v is not a packet-entities message", hs.m.sel)
	}
	s := hs.screen()
	for _, want := range []string{"Wire · svc_PacketEntities", "updated_entries", "entity_data"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	row := -1
	for i, l := range hs.m.cache.wire {
		if l.Field == 7 && l.Name == "entity_data" {
			row = i
		}
	}
	if row < 0 {
		t.Fatalf("no entity_data row in %+v", hs.m.cache.wire)
	}
	v := hs.m.cache.wire[row].Value
	if !strings.Contains(v, "starts at packet bit 0x") || !strings.Contains(v, ", file byte ") || !strings.Contains(v, "enter opens the first") {
		t.Errorf("entity_data: %q", v)
	}
	hs.keys("tab")
	if hs.m.focus != paneFields {
		t.Fatalf("focus %v after tab", hs.m.focus)
	}
	for i := 0; i < row; i++ {
		hs.keys("j")
	}
	if !strings.Contains(inspectorText(hs), "entity_data") {
		t.Errorf("the inspector does not explain the selected row:\n%s", inspectorText(hs))
	}
	cmd, m := hs.m.sel.Cmd, hs.m.sel.Msg
	hs.keys("enter")
	if s := hs.m.sel; s.Cmd != cmd || s.Msg != m || s.Upd != 0 {
		t.Errorf("enter on entity_data selected %+v, want the first update of command #%d message %d", s, cmd, m)
	}
}
