package ui

import (
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// quantSetupLines spell out a quantized float's set-up with its arithmetic
// (session.SetupSteps: the flag bits above the four, ENCODE_INTEGERS
// widening, the float32 checks that keep or drop ROUNDDOWN/ROUNDUP), for
// the Decoder section; none for any other decoder. A vector's set-up is
// its components'.
func quantSetupLines(f *provenance.Field) []views.InspectorLine {
	d := f.Decoder
	if d != nil && d.Family == session.FamVector && d.Elem != nil {
		d = d.Elem
	}
	if d == nil || d.Family != session.FamQuantized || d.Q == nil {
		return nil
	}
	q := d.Q
	lowSet, highSet := true, true
	if s := f.Schema; s != nil && s.BitCount == q.SchemaBits && s.EncodeFlags == q.SchemaFlags {
		lowSet, highSet = s.LowSet, s.HighSet
	}
	var out []views.InspectorLine
	for i, s := range session.SetupSteps(q.SchemaBits, q.SchemaFlags, q.SchemaLow, lowSet, q.SchemaHigh, highSet) {
		label := ""
		if i == 0 {
			label = "set-up"
		}
		out = append(out, views.InspectorLine{Label: label, Text: s, Style: views.LineMath})
	}
	return out
}
