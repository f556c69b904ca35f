package ui

import (
	"strings"
	"testing"
)

// o puts the update's whole field-path op stream first in the inspector:
// one line per field, then the finish op, the selected field's marked.
func TestScreenOpStream(t *testing.T) {
	screenTest(t, func(hs *harness) { hs.keys("n", "n", "tab", "j", "o") }, func(t *testing.T, hs *harness, s string) {
		fs := hs.m.curFields()
		text := inspectorText(hs)
		if !strings.HasPrefix(strings.TrimSpace(text), "## Field-path ops") && !strings.Contains(text, "Field-path ops · ") {
			t.Fatalf("no op stream:\n%s", text)
		}
		ops := 0
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, " → ") && strings.Contains(l, "  @0x") {
				ops++
			}
		}
		if ops != len(fs)+1 {
			t.Errorf("%d op lines for %d fields (want one each and the finish op):\n%s", ops, len(fs), text)
		}
		if !strings.Contains(text, ">1") || !strings.Contains(text, "FieldPathEncodeFinish") || !strings.Contains(text, "→ end of paths") {
			t.Errorf("the selected op or the finish op is not shown:\n%s", text)
		}
		hs.keys("o")
		if strings.Contains(inspectorText(hs), "Field-path ops · ") {
			t.Error("o again does not hide the op stream")
		}
		hs.keys("o") // shown again for the golden screen
	})
}
