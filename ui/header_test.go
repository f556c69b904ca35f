package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/sample"
)

// gotoTick selects the first update at or after a tick.
func gotoTick(hs *harness, tick string) {
	hs.keys("g")
	hs.typ(tick)
	hs.keys("enter")
}

// A create's header, bit by bit: index delta, command bits, class id with
// its width from max_classes, serial, spawn group (the sample's creeps at
// tick 15).
func TestScreenCreateHeader(t *testing.T) {
	screenTestOn(t, "sample.dem", sample.Replay, func(hs *harness) {
		gotoTick(hs, "15")
		for i := 0; i < 8 && hs.m.focus != paneInspector; i++ {
			hs.keys("tab")
		}
		hs.keys("end") // scrolled to the end: the header, after the field
	}, func(t *testing.T, hs *harness, s string) {
		u := hs.m.ix.Update(hs.m.sel.Cmd, hs.m.sel.Msg, hs.m.sel.Upd)
		if u == nil || u.Entity != writer.SampleCreepA || u.Op != provenance.Create {
			t.Fatalf("selection %+v is not creep A's create", hs.m.sel)
		}
		if hs.m.sel.Field != 0 || hs.m.focus != paneInspector {
			t.Fatalf("field %d selected, focus on pane %d", hs.m.sel.Field, hs.m.focus)
		}
		if !wide(s) {
			return
		}
		for _, want := range []string{"class id", "max_classes 5", "── Baseline", "m_iTeamNum     3"} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q", want)
			}
		}
	})
}

// The tick-60 delete and the deletion list that ends the message.
func TestScreenDeletionList(t *testing.T) {
	screenTestOn(t, "sample.dem", sample.Replay, func(hs *harness) {
		gotoTick(hs, "60")
	}, func(t *testing.T, hs *harness, s string) {
		u := hs.m.ix.Update(hs.m.sel.Cmd, hs.m.sel.Msg, hs.m.sel.Upd)
		if u == nil || u.Entity != writer.SampleCreepA || u.Op != provenance.Delete {
			t.Fatalf("selection %+v is not creep A's delete", hs.m.sel)
		}
		// A delete's header has no create header (class, serial, spawn group).
		if text := inspectorText(hs); !strings.Contains(text, "(index delta, command bits)") || strings.Contains(text, "create header") {
			t.Errorf("the delete's header is not index delta and command bits:\n%s", text)
		}
		if !wide(s) {
			return
		}
		for _, want := range []string{"Header, bit by bit", "leave and delete", "Deletion list", "entity #301"} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q", want)
			}
		}
	})
}

// H puts the update's header and a create's baseline at the top of the
// inspector, at any field: reachable without scrolling (creep 300's
// create at tick 15, its third field selected).
func TestScreenHeaderFirst(t *testing.T) {
	screenTestOn(t, "sample.dem", sample.Replay, func(hs *harness) {
		gotoTick(hs, "15")
		hs.keys("H")
		for i := 0; i < 8 && hs.m.focus != paneFields; i++ {
			hs.keys("tab")
		}
		hs.keys("j", "j")
	}, func(t *testing.T, hs *harness, s string) {
		if hs.m.sel.Field != 2 || !hs.m.headerFirst {
			t.Fatalf("field %d selected, header first %v", hs.m.sel.Field, hs.m.headerFirst)
		}
		text := inspectorText(hs)
		h, b, f := strings.Index(text, "Header, bit by bit"), strings.Index(text, "── Baseline"), strings.Index(text, "── Field ")
		if h < 0 || b < h || f < b {
			t.Errorf("inspector is not header, baseline, then the field (%d, %d, %d):\n%s", h, b, f, text)
		}
		if wide(s) {
			for _, want := range []string{"Header, bit by bit", "class id    1 = CDOTA_BaseNPC_Creep_Lane", "── Baseline"} {
				if !strings.Contains(s, want) {
					t.Errorf("screen lacks %q", want)
				}
			}
		}
		hs.keys("H")
		if text := inspectorText(hs); strings.Contains(text, "Header, bit by bit") {
			t.Error("H again still shows the header at a field other than the first")
		}
	})
}

// The CS2 sample's binary block at tick 48 shows as its six bytes in hex,
// in the fields pane, the inspector and the entity pane.
func TestScreenBinaryBlock(t *testing.T) {
	screenTestOn(t, "sample-cs2.dem", sample.CS2, func(hs *harness) {
		gotoTick(hs, "48")
	}, func(t *testing.T, hs *harness, s string) {
		text := inspectorText(hs)
		if !strings.Contains(text, "6 bytes: 02 00 de b0 67 01  (was 0 bytes)") {
			t.Errorf("inspector lacks the block's bytes:\n%s", text)
		}
		if strings.ContainsRune(s, 'ް') {
			t.Error("the block's bytes show as text")
		}
	})
}
