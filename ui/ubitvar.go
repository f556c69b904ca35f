package ui

import (
	"fmt"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/views"
)

// ubitvarLines takes apart the ubitvar at bit start of data, as the reader
// takes it: 6 bits, of which the first 4 are the value's low bits and the
// next 2 a selector saying how many more bits follow (0, 4, 8 or 28); those
// are the value's bits from bit 4 up. Lines indented under the value's own.
func ubitvarLines(data []byte, start uint) []views.InspectorLine {
	var r bitio.Reader
	r.Reset(data)
	r.Seek(start)
	low := r.Bits64(4)
	sel := r.Bits64(2)
	extra := [4]uint{0, 4, 8, 28}[sel]
	l := []views.InspectorLine{
		{Label: "  low 4", Text: fmt.Sprintf("%s = %d (the value's bits 0–3)", bitio.Spell(low, 4), low), Style: views.LineBits},
		{Label: "  select", Text: fmt.Sprintf("%s = %d → %d more bits follow", bitio.Spell(sel, 2), sel, extra), Style: views.LineBits},
	}
	if extra == 0 {
		return append(l, views.InspectorLine{Label: "  sum", Text: fmt.Sprintf("%d, in 6 bits", low), Style: views.LineMath})
	}
	hi := r.Bits64(extra)
	if r.Overflowed() {
		return append(l, views.InspectorLine{Label: "  extra", Text: "past the end of the data", Style: views.LineError})
	}
	return append(l,
		views.InspectorLine{Label: "  extra", Text: fmt.Sprintf("%s = %d (bits 4 and up: × 16 = %d)", bitio.Spell(hi, extra), hi, hi<<4), Style: views.LineBits},
		views.InspectorLine{Label: "  sum", Text: fmt.Sprintf("%d + %d = %d, in %d bits", low, hi<<4, low|hi<<4, 6+extra), Style: views.LineMath})
}
