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
	bits := fmt.Sprintf("%s low 4 · %s select: %d more", bitio.Spell(low, 4), bitio.Spell(sel, 2), extra)
	if extra == 0 {
		return []views.InspectorLine{
			{Label: "  bits", Text: bits, Style: views.LineBits},
			{Label: "  sum", Text: fmt.Sprintf("%d, in 6 bits", low), Style: views.LineMath},
		}
	}
	hi := r.Bits64(extra)
	if r.Overflowed() {
		return []views.InspectorLine{{Label: "  bits", Text: bits + " · past the end of the data", Style: views.LineError}}
	}
	return []views.InspectorLine{
		{Label: "  bits", Text: fmt.Sprintf("%s · %s extra", bits, bitio.Spell(hi, extra)), Style: views.LineBits},
		{Label: "  sum", Text: fmt.Sprintf("%d + %d × 16 = %d, in %d bits", low, hi, low|hi<<4, 6+extra), Style: views.LineMath},
	}
}
