package fieldpath

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

// SpellOperands (the debugger's o pane) spells each operand with its value
// as read: a PlusN's fpvar, a non-topological op's bit per index and its
// varint32.
func TestSpellOperands(t *testing.T) {
	// PlusN with fpvar 2; then PushNAndNonTopological over a path of one
	// index: its bit 1 and varint32 1, then ubitvar n 1 and fpvar 7.
	var w bitio.Writer
	op := func(o Op) uint {
		c := CodeOf(o)
		w.Bits(uint64(c.Bits), uint(c.Len))
		return w.Len()
	}
	a := op(PlusN)
	w.UBitVarFP(2)
	aEnd := w.Len()
	b := op(PushNAndNonTopological)
	w.Bits(1, 1)
	w.VarInt32(1)
	w.UBitVar(1)
	w.UBitVarFP(7)
	bEnd := w.Len()
	w.Bits(0, 16)
	data := w.Bytes()

	if got := SpellOperands(data, a, aEnd-a, PlusN, 1); got != "101=2" {
		t.Errorf("PlusN's operand: %q, want 101=2 (fpvar: 1, then 2 bits, lowest first)", got)
	}
	got := SpellOperands(data, b, bEnd-b, PushNAndNonTopological, 1)
	parts := strings.Fields(got)
	if len(parts) != 4 || parts[0] != "1=1" || parts[1] != "01000000=1" || !strings.HasSuffix(parts[2], "=1") || parts[3] != "011110=7" {
		t.Errorf("PushNAndNonTopological's operands: %q", got)
	}
	// Bits that do not read back as the operands: spelled raw.
	if got := SpellOperands(data, a, aEnd-a+2, PlusN, 1); strings.Contains(got, "=") {
		t.Errorf("a wrong length still gives values: %q", got)
	}
}
