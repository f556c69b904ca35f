package ui

import (
	"strings"
	"testing"
)

// A string-table update is read bit by bit: the Dota replay's
// ActiveModifiers update at tick 22 jumps from index 234 to 267
// (234 + 31 + 2); the fields pane lists each read, the bitstream shows
// the entry data, and the inspector walks the selected entry with what it
// held before (the live modifier) and after (its removal).
func TestScreenStringTableWalk(t *testing.T) {
	screenTest(t, func(hs *harness) {
		for range 27 {
			hs.keys("j")
		}
		hs.keys("right", "j", "j", "j", "j")
		for i := 0; i < 8 && hs.m.focus != paneFields; i++ {
			hs.keys("tab")
		}
		for range 7 {
			hs.keys("j")
		}
	}, func(t *testing.T, hs *harness, s string) {
		if msg := hs.m.ix.Msg(hs.m.sel.Cmd, hs.m.sel.Msg); msg == nil || msg.Name != "svc_UpdateStringTable" {
			t.Fatalf("selection %+v is not svc_UpdateStringTable", hs.m.sel)
		}
		e, p, ok := hs.m.walkPart()
		if !ok || e.Index != 267 || p.Kind.String() != "jump" || p.V != 31 || e.Prev != 234 {
			t.Fatalf("selected read: %+v of entry %+v", p, e)
		}
		text := inspectorText(hs)
		for _, want := range []string{"v = 31, a varint: previous + v + 2 = 234 + 31 + 2 = 267", `"267", 53 bytes: 080110d081ed0518`, `"267", 12 bytes: 080210d081ed05180420ae03`,
			// the size's ubitvar taken apart: 12 fits the 4 low bits
			"00 select: 0 more", "12, in 6 bits"} {
			if !strings.Contains(text, want) {
				t.Errorf("inspector lacks %q:\n%s", want, text)
			}
		}
		if !wide(s) {
			return
		}
		for _, want := range []string{"String table · ActiveModifiers · 2 entries, bit by bit", "31: 234 + 31 + 2 = 267", "Bitstream · ActiveModifiers entry data, 30 bytes", "0xf.2"} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q", want)
			}
		}
	})
}
