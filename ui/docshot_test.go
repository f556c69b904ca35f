package ui

import (
	"os"
	"strings"
	"testing"
)

// docs/tui.md's screenshot is the build's screen: the Dota 2 replay at
// 160×48 after n four times, tab and j three times, without colour.
func TestDocScreenshotMatches(t *testing.T) {
	doc, err := os.ReadFile("../docs/tui.md")
	if err != nil {
		t.Fatal(err)
	}
	_, shot, ok := strings.Cut(string(doc), "## Screenshot")
	if !ok {
		t.Fatal("docs/tui.md has no Screenshot section")
	}
	_, shot, _ = strings.Cut(shot, "```\n")
	shot, _, _ = strings.Cut(shot, "\n```")
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	hs.keys("n", "n", "n", "n", "tab", "j", "j", "j")
	got := strings.TrimRight(hs.screen(), "\n")
	if got != shot {
		gl, sl := strings.Split(got, "\n"), strings.Split(shot, "\n")
		for i := range min(len(gl), len(sl)) {
			if gl[i] != sl[i] {
				t.Fatalf("docs/tui.md's screenshot differs from the build at line %d:\n doc:   %s\n build: %s\n(the whole screen:)\n%s", i+1, sl[i], gl[i], got)
			}
		}
		t.Fatalf("docs/tui.md's screenshot has %d lines, the build %d:\n%s", len(sl), len(gl), got)
	}
}
