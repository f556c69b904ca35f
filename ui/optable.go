package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// opTableSection lists every field-path op (O), as `dembug ops` does: its
// number, name, weight in Valve's table, Huffman code (first bit read
// first, as the o pane spells it), operands in reading order and effect on
// the path, with an example; then the operand forms and how the tree is
// built (engine/fieldpath's Describe and docs).
func opTableSection() views.InspectorSection {
	var l []views.InspectorLine
	for op := session.FieldPathOp(0); op < session.NumOps; op++ {
		d := session.DescribeOp(op)
		weight := strconv.Itoa(op.Weight())
		if op.Weight() == 0 {
			weight = "0 (as 1)"
		}
		ex := opPath(d.Before)
		if b := d.ExampleBits(); b != "" {
			ex += " " + b
		}
		if d.After != nil {
			ex += " → " + opPath(d.After)
		} else {
			ex += " → (no path)"
		}
		l = append(l, views.InspectorLine{Label: strconv.Itoa(int(op)),
			Text: fmt.Sprintf("%s · weight %s · code %s · operands: %s · %s · e.g. %s", op, weight, session.OpCode(op), d.Operand, d.Effect, ex)})
	}
	l = append(l,
		views.InspectorLine{Label: "last", Text: "the path's last index; push adds an index, pop removes the last", Style: views.LineDim},
		views.InspectorLine{Label: "fpvar", Text: strings.TrimPrefix(session.UBitVarFPDoc, "fpvar: "), Style: views.LineDim},
		views.InspectorLine{Label: "ubitvar", Text: strings.TrimPrefix(session.UBitVarDoc, "ubitvar: "), Style: views.LineDim},
		views.InspectorLine{Label: "varint32", Text: strings.TrimPrefix(session.VarInt32Doc, "varint32: "), Style: views.LineDim},
		views.InspectorLine{Label: "n bits", Text: "the value's bits, lowest first", Style: views.LineDim},
		views.InspectorLine{Label: "tree", Text: session.TreeDoc, Style: views.LineDim},
	)
	return views.InspectorSection{Title: fmt.Sprintf("Field-path ops · all %d (O hides; dembug ops prints them)", session.NumOps), Lines: l}
}

func opPath(p []int32) string {
	s := make([]string, len(p))
	for i, v := range p {
		s[i] = strconv.Itoa(int(v))
	}
	return "[" + strings.Join(s, " ") + "]"
}
