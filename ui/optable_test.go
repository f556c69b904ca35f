package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/fieldpath"
)

// O puts every field-path op first in the inspector, with its weight,
// code, operands and effect, and how the tree is built; O again hides it.
func TestOpTable(t *testing.T) {
	hs := newHarness(t, "", nil, 160, 48)
	hs.keys("n", "O")
	hs.m.inspScroll = 0
	text := inspectorText(hs)
	if !strings.Contains(text, "Field-path ops · all 40") {
		t.Fatalf("no op table:\n%s", text)
	}
	flat := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{
		fmt.Sprintf("PlusOne · weight %d · code %s · operands: none · last += 1", fieldpath.PlusOne.Weight(), fieldpath.CodeOf(fieldpath.PlusOne)),
		"PushOneLeftDeltaNRightNonZeroPack8Bits · weight",
		"operands: 4 bits a, 4 bits b · last += a + 2, then push b + 1",
		"FieldPathEncodeFinish", "Huffman tree over the 40 ops",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("no %q in the op table:\n%s", want, text)
		}
	}
	hs.keys("O")
	if strings.Contains(inspectorText(hs), "Field-path ops · all") {
		t.Error("O again does not hide the op table")
	}
}
