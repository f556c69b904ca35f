package ui

import (
	"strings"
	"testing"
)

// f opens an empty prompt that names the filter set, and enter on it clears
// the filter; it came back filled with the old text, and enter set it
// again.
func TestFilterPromptEnterClears(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	hs.keys("f")
	hs.typ("m_iHealth")
	hs.keys("enter")
	if hs.m.filter == nil {
		t.Fatalf("no filter: %s", hs.m.note)
	}
	hs.keys("f")
	if hs.m.input != "" || !strings.Contains(hs.screen(), `filter by field, class or event name (empty: clear "m_iHealth"): █`) {
		t.Fatalf("f with a filter set: input %q\n%s", hs.m.input, hs.screen())
	}
	hs.keys("enter")
	if hs.m.filter != nil || hs.m.filterText != "" || hs.m.note != "filter cleared" {
		t.Fatalf("enter on the empty prompt: filter %q, note %q", hs.m.filterText, hs.m.note)
	}
}
