package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
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

// In the o pane each operand is spelled with its value as read: a
// PlusN's fpvar, a non-topological op's bit per index and its varint32.
func TestOpStreamOperandValues(t *testing.T) {
	// PlusN with fpvar 2; then PushNAndNonTopological over a path of one
	// index: its bit 1 and varint32 1, then ubitvar n 1 and fpvar 7.
	var w bitio.Writer
	op := func(o fieldpath.Op) uint {
		c := fieldpath.CodeOf(o)
		w.Bits(uint64(c.Bits), uint(c.Len))
		return w.Len()
	}
	a := op(fieldpath.PlusN)
	w.UBitVarFP(2)
	aEnd := w.Len()
	b := op(fieldpath.PushNAndNonTopological)
	w.Bits(1, 1)
	w.VarInt32(1)
	w.UBitVar(1)
	w.UBitVarFP(7)
	bEnd := w.Len()
	w.Bits(0, 16)
	data := w.Bytes()

	if got := fieldpath.SpellOperands(data, a, aEnd-a, fieldpath.PlusN, 1); got != "101=2" {
		t.Errorf("PlusN's operand: %q, want 101=2 (fpvar: 1, then 2 bits, lowest first)", got)
	}
	got := fieldpath.SpellOperands(data, b, bEnd-b, fieldpath.PushNAndNonTopological, 1)
	parts := strings.Fields(got)
	if len(parts) != 4 || parts[0] != "1=1" || parts[1] != "01000000=1" || !strings.HasSuffix(parts[2], "=1") || parts[3] != "011110=7" {
		t.Errorf("PushNAndNonTopological's operands: %q", got)
	}
	// Bits that do not read back as the operands: spelled raw.
	if got := fieldpath.SpellOperands(data, a, aEnd-a+2, fieldpath.PlusN, 1); strings.Contains(got, "=") {
		t.Errorf("a wrong length still gives values: %q", got)
	}
}
