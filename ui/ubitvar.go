package ui

import (
	"fmt"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// ubitvarLines takes apart the ubitvar at bit start of data, as the reader
// takes it (session.ReadUBitVarAt): 6 bits, of which the first 4 are the
// value's low bits and the next 2 a selector saying how many more bits
// follow (0, 4, 8 or 28); those are the value's bits from bit 4 up. Lines
// indented under the value's own.
func ubitvarLines(data []byte, start uint) []views.InspectorLine {
	u := session.ReadUBitVarAt(data, start)
	bits := fmt.Sprintf("%s low 4 · %s select: %d more", u.LowBits, u.SelBits, u.Extra)
	if u.Extra == 0 {
		return []views.InspectorLine{
			{Label: "  bits", Text: bits, Style: views.LineBits},
			{Label: "  sum", Text: fmt.Sprintf("%d, in 6 bits", u.Low), Style: views.LineMath},
		}
	}
	if u.Past {
		return []views.InspectorLine{{Label: "  bits", Text: bits + " · past the end of the data", Style: views.LineError}}
	}
	return []views.InspectorLine{
		{Label: "  bits", Text: fmt.Sprintf("%s · %s extra", bits, u.HiBits), Style: views.LineBits},
		{Label: "  sum", Text: fmt.Sprintf("%d + %d × 16 = %d, in %d bits", u.Low, u.Hi, u.Value, u.Bits), Style: views.LineMath},
	}
}
