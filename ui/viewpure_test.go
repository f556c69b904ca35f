package ui

import (
	"reflect"
	"testing"
)

// View only lays out what derive left: after each key (through Update),
// drawing the screen leaves every cache as it found it, on the panes'
// screens that cost work — a field's explanation, the update's header and
// op stream first, every op, the entity before, a command's wire tree and
// framing, a string table walked bit by bit, the anomaly list.
func TestViewStoresNothing(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	for _, k := range []string{"n", "j", "j", "H", "o", "O", "b", "tab", "j", "]", "home", "down", "down", "down", "right", "down", "tab", "j", "tab", "n", "L", "esc", "end"} {
		hs.send(keyMsg(k))
		before := hs.m.cache
		_ = hs.m.View()
		if !reflect.DeepEqual(before, hs.m.cache) {
			t.Fatalf("after %q, View changed what derive made", k)
		}
	}
}
