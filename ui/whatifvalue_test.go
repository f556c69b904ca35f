package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/brokendemo"
)

// A what-if that misaligns a message the original decode aligned says it
// is now misaligned (not "still"), and the value's "was" is the original
// decode's value of the field, the entity's value before the update a line
// of its own (issue 48).
func TestWhatIfOnAnAlignedMessage(t *testing.T) {
	data, _ := brokendemo.DroppedPathBit()
	hs := newHarness(t, "dropped.dem", data, 160, 48)
	hs.keys("n", "n", "tab")
	d := hs.m.cur()
	if d == nil || d.Report.Misaligned {
		t.Fatalf("not at an aligned message: %+v", hs.m.sel)
	}
	f := selField(hs)
	if f == nil || f.Name != "m_iHealth" || f.Prev.Kind == 0 {
		t.Fatalf("selected %+v, want an update of m_iHealth with a value before it", f)
	}
	orig, prev := f.Value.TextAs(f.Decoder), f.Prev.TextAs(f.Decoder)
	hs.keys("d")
	pick(t, hs, "raw 32-bit float")
	hs.keys("enter")
	wi := hs.m.wiHere()
	if wi == nil || wi.Aligns() {
		t.Fatalf("no misaligning what-if: %s", hs.m.note)
	}
	if !strings.HasPrefix(hs.m.note, "what-if: now misaligned") {
		t.Errorf("note %q, want it to say the message is now misaligned", hs.m.note)
	}
	text := inspectorText(hs)
	for _, want := range []string{
		"result    now misaligned: ",
		"was       aligned",
		"(was " + orig + " in the original decode)",
		"before " + prev + ": the entity's value before this update",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("inspector lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "still misaligned") {
		t.Errorf("inspector says still misaligned:\n%s", text)
	}
	// x shows the original decode, whose value line is as before.
	hs.keys("x")
	if text := inspectorText(hs); !strings.Contains(text, orig+"  (was "+prev+")") {
		t.Errorf("original side's value line:\n%s", text)
	}
}
