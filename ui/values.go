package ui

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/evidence"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/views"
)

// valuesSection is the inspector's word on a field of an unknown type
// whose values, over the whole file, show it read wrongly while every bit
// lines up: what this read gives under the default decoder, what it would
// give under the type the values point to, the evidence, and the key that
// decodes the file so. Nothing for any other field.
func (m *Model) valuesSection(rec *provenance.Message, f *provenance.Field) []views.InspectorSection {
	ne := m.ix.ValuesOf(f.Schema)
	if ne == nil || f.Decoder == nil || f.Decoder.Watch == 0 {
		return nil
	}
	v := ne.Verdict
	u := f.Value.U
	var now, as string
	switch v.Kind {
	case evidence.Signed:
		now = fmt.Sprintf("%d: unsigned varint, the default decoder (%s is unknown to decoder choice)", u, ne.Name)
		as = fmt.Sprintf("%d: the same bits as a zigzag varint", int32(u>>1)^-int32(u&1))
	default: // Wide, SignedWide: the whole varint, when the read cut it
		now = fmt.Sprintf("%d: a 32-bit varint, the default decoder (%s is unknown to decoder choice), keeps the low 32 bits", u, ne.Name)
		as = "the same: this value fits 32 bits"
		if raw, ok := diagnose.WideVarint(rec, f); ok && raw != u {
			as = fmt.Sprintf("%d: the varint holds %d bits, the read cut it", raw, bits.Len64(raw))
			if v.Kind == evidence.SignedWide {
				as = fmt.Sprintf("%d: the varint holds %d bits, the read cut it", int64(raw>>1)^-int64(raw&1), bits.Len64(raw))
			}
		}
	}
	kind := "a signed varint read unsigned"
	if v.Kind != evidence.Signed {
		kind = "a 64-bit varint read into 32 bits"
	}
	return []views.InspectorSection{{Title: "Values of " + ne.Name, Lines: []views.InspectorLine{
		{Label: "reads", Text: now},
		{Label: "as " + v.As, Text: as, Style: views.LineMath},
		{Label: "verdict", Text: fmt.Sprintf("type %s reads like %s: %s", ne.Name, kind, v.Evidence), Style: views.LineWarn},
		{Label: "values", Text: v.Reads},
		{Label: "apply", Text: fmt.Sprintf("I decodes the file with --as %s=%s (dembug keeps the seed's default unless told)", ne.Name, v.As)},
	}}}
}

// valueAliasesNote lists the aliases the values point to, for the note
// when I applies them.
func (m *Model) valueAliasesNote() string {
	var names []string
	for _, ne := range m.ix.Values {
		names = append(names, ne.Name+"="+ne.Verdict.As)
	}
	return strings.Join(names, ", ")
}

// withValues puts a field's values section (valuesSection) after the
// first section of its explanation (the value) and its anomalies.
func (m *Model) withValues(ex []views.InspectorSection, rec *provenance.Message, f *provenance.Field) []views.InspectorSection {
	vs := m.valuesSection(rec, f)
	if len(vs) == 0 || len(ex) == 0 {
		return ex
	}
	at := 1
	if len(ex) > 1 && strings.HasPrefix(ex[1].Title, "Anomal") {
		at = 2
	}
	out := append(append([]views.InspectorSection{}, ex[:at]...), vs...)
	return append(out, ex[at:]...)
}

// valueRows are the anomaly list's group of unknown types whose values
// show them read wrongly (no single read is anomalous: the evidence is the
// file's values together). Enter and m do nothing on them; I applies them.
func (m *Model) valueRows() []listRow {
	var rows []listRow
	for _, ne := range m.ix.Values {
		v := ne.Verdict
		kind := "a signed varint read unsigned"
		if v.Kind != evidence.Signed {
			kind = "a 64-bit varint cut to 32 bits"
		}
		if rows == nil {
			rows = append(rows, listRow{AnomalyListRow: views.AnomalyListRow{Group: true, Sev: views.Severity(diagnose.SevWeak),
				Text: fmt.Sprintf("%d × type read wrongly, every bit in place (values) · I decodes with %s", len(m.ix.Values), strings.Join(m.ix.ValueAliases(m.file.Aliases()).Flags(), " "))}, first: -1})
		}
		rows = append(rows, listRow{AnomalyListRow: views.AnomalyListRow{Sev: views.Severity(diagnose.SevWeak),
			Text: fmt.Sprintf("%s reads like %s (%s) · --as %s=%s", ne.Name, kind, v.Evidence, ne.Name, v.As)}, first: -1})
	}
	return rows
}
