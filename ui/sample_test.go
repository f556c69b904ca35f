package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/sample"
)

// Opened with no file, the debugger says on screen that it shows the
// built-in sample and how to open a replay; opened with a file, it does not.
func TestBuiltInSampleSaysSo(t *testing.T) {
	hs := newHarness(t, "(built-in sample)", sample.Replay, 120, 30)
	if s := hs.screen(); !strings.Contains(s, "the built-in sample (no file given): dembug FILE.dem opens a replay") {
		t.Fatalf("the sample's first screen does not say what it is:\n%s", s)
	}
	hs = newHarness(t, "sample.dem", sample.Replay, 120, 30)
	if s := hs.screen(); strings.Contains(s, "built-in sample") {
		t.Fatalf("a file's first screen says it is the built-in sample:\n%s", s)
	}
}
