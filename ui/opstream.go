package ui

import (
	"fmt"

	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// maxOpsShown bounds the op stream listed (an update of a big class
// writes hundreds of fields).
const maxOpsShown = 400

// ExplainOps lists an update's whole field-path op stream in reading
// order (o): each op's name, its Huffman code and operand bits as read,
// where it starts, and the path before → after; the finish op last. The
// op of field sel is marked.
func ExplainOps(data []byte, rec *provenance.Message, ui, sel int) views.InspectorSection {
	u := &rec.Updates[ui]
	fs := rec.UpdateFields(ui)
	var l []views.InspectorLine
	pathLen := 1 // the path before the op: [-1] at first
	line := func(i int, o session.OpRecord, before, after string) {
		ob := session.ReadOpBits(data, o)
		bits := ob.CodeBits
		if ob.Operand > 0 {
			bits += " | " + session.SpellOperands(data, ob.OperandAt, ob.Operand, o.Op, pathLen)
		}
		label, st := fmt.Sprintf(" %d", i), views.LinePlain
		if i == sel {
			label, st = fmt.Sprintf(">%d", i), views.LinePath
		}
		l = append(l, views.InspectorLine{Label: label, Text: fmt.Sprintf("%s  %s  @%s  %s → %s", o.Op, bits, views.Offset(o.Start), before, after), Style: st})
	}
	before := "[-1]"
	for i := range fs {
		if i == maxOpsShown {
			l = append(l, views.InspectorLine{Text: fmt.Sprintf("… %d more ops", len(fs)-maxOpsShown), Style: views.LineDim})
			break
		}
		after := fs[i].Path.String()
		line(i, fs[i].Op, before, after)
		before, pathLen = after, fs[i].Path.Len()
	}
	if u.PathBits > 0 {
		line(len(fs), session.FinishAt(u.PathStart+u.PathBits), before, "end of paths")
	}
	title := fmt.Sprintf("Field-path ops · %d ops in %s (o hides)", len(fs)+1, views.Size(u.PathBits))
	if len(l) == 0 {
		l = append(l, views.InspectorLine{Text: "This update reads no field paths.", Style: views.LineDim})
	}
	return views.InspectorSection{Title: title, Lines: l}
}
