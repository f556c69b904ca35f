package ui

import (
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// whatIfValue words a what-if field's value: "was" is the original
// decode's value of the same field (orig, nil when the original did not
// read it), never the entity's value before the update, which gets a line
// of its own (the baseline's for a create).
func whatIfValue(f *provenance.Field, op provenance.Op, orig *provenance.Field) (string, []views.InspectorLine) {
	val := f.Value.TextAs(f.Decoder)
	if orig != nil {
		val += "  (was " + orig.Value.TextAs(orig.Decoder) + " in the original decode)"
	} else {
		val += "  (the original decode did not read it)"
	}
	var l []views.InspectorLine
	switch {
	case op == provenance.Create && f.Prev.Kind != session.KindNone:
		l = append(l, views.InspectorLine{Label: "baseline", Text: f.Prev.TextAs(f.Decoder) + ": the class's baseline, before this create", Style: views.LineDim})
	case op == provenance.Create:
		l = append(l, views.InspectorLine{Label: "baseline", Text: "the baseline does not set it", Style: views.LineDim})
	case f.Prev.Kind != session.KindNone:
		l = append(l, views.InspectorLine{Label: "before", Text: f.Prev.TextAs(f.Decoder) + ": the entity's value before this update", Style: views.LineDim})
	default:
		l = append(l, views.InspectorLine{Label: "before", Text: "unset before this update", Style: views.LineDim})
	}
	return val, l
}

// misalignedWord says how a what-if that does not align stands to the
// original decode: still misaligned, or now misaligned where the original
// aligned.
func (wi *whatIf) misalignedWord() string {
	if wi.OrigRep.Misaligned {
		return "still misaligned"
	}
	return "now misaligned"
}

// origField is the original decode's field paired with what-if field w of
// original update u, nil when the original did not read it.
func (wi *whatIf) origField(u, w int, pairs []session.Pair) *provenance.Field {
	for _, p := range pairs {
		if p.W == w && p.O >= 0 && u >= 0 && u < len(wi.Orig.Updates) {
			o, _ := wi.Fields(u, session.Pair{O: p.O, W: -1})
			return o
		}
	}
	return nil
}
