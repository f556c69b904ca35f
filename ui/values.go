package ui

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/evidence"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
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

// valuesOpeningNote is the note a file whose values show types read
// wrongly (verdicts no table's correction answers) opens with. What to do
// comes first, so that a narrow status line still shows it.
func (m *Model) valuesOpeningNote() string {
	var names []string
	for _, ne := range m.ix.Values {
		names = append(names, ne.Name+" → "+ne.Verdict.As)
	}
	what := "1 type"
	if len(names) != 1 {
		what = fmt.Sprintf("%d types", len(names))
	}
	return fmt.Sprintf("I decodes %s as the values show (L lists, the field's inspector says why; every bit lines up, the numbers are wrong): %s",
		what, strings.Join(names, ", "))
}

// correctionSection is the inspector's word on a field whose type the
// game's corrections read (docs/corrections.md): what the seed's tables
// read from the same bits, what the game's reading gives, the evidence,
// what this file's values say, and which public parsers read it the
// seed's way.
func (m *Model) correctionSection(f *provenance.Field) []views.InspectorSection {
	if f.Schema == nil || f.Schema.Correction == nil || f.Decoder == nil {
		return nil
	}
	c := f.Schema.Correction
	var seed string
	switch f.Decoder.Family {
	case session.FamSigned, session.FamSigned64:
		v := int64(f.Value.U)
		seed = fmt.Sprintf("%d: the same bits, %s", uint64(v<<1)^uint64(v>>63), c.Seed)
	case session.FamUnsigned64:
		switch u := f.Value.U; {
		case u < 1<<32:
			seed = fmt.Sprintf("%d: the same (this value fits 32 bits)", u)
		case u < 1<<35:
			seed = fmt.Sprintf("%d: a 32-bit read keeps the low 32 bits of %d", uint32(u), u)
		default:
			seed = fmt.Sprintf("a 32-bit read stops after 5 of this varint's bytes (%d bits): every later bit shifts", bits.Len64(u))
		}
	default:
		return nil
	}
	lines := []views.InspectorLine{
		{Label: "seed reads", Text: seed},
		{Label: "game reads", Text: fmt.Sprintf("%s: %s read as %s (%s)", f.Value.TextAs(f.Decoder), c.Type, c.As, c.Game), Style: views.LineMath},
		{Label: "evidence", Text: c.Evidence},
	}
	if cc := m.ix.CorrectionOf(c); cc != nil {
		style := views.LinePlain
		if cc.Status == evidence.Contradicted {
			style = views.LineWarn
		}
		lines = append(lines, views.InspectorLine{Label: "this file", Text: cc.Status.String() + ": " + cc.Text, Style: style})
	}
	lines = append(lines,
		views.InspectorLine{Label: "parsers", Text: c.Parsers},
		views.InspectorLine{Label: "seed", Text: "dembug --decoders seed reads it as they do (docs/corrections.md)"})
	return []views.InspectorSection{{Title: "Corrected: " + c.Type, Lines: lines}}
}

// markVerdicts marks, as a strong anomaly, each row whose field is of a
// type the file's values show read wrongly (a verdict that remains): a
// misread, where every other field the fallback reads carries only the
// weak mark of an unknown type. A muted field (M) is left as it was, as
// its anomalies are.
func (m *Model) markVerdicts(rows []views.FieldRow, fs []provenance.Field) {
	for i := range fs {
		if i < len(rows) && m.ix.ValuesOf(fs[i].Schema) != nil && !m.mute.Muted("", fs[i].Name) {
			rows[i].Sev = max(rows[i].Sev, views.Severity(diagnose.SevStrong))
		}
	}
}

// withValues puts a field's values and correction sections after the
// first section of its explanation (the value) and its anomalies, and how
// the public parsers read it last.
func (m *Model) withValues(ex []views.InspectorSection, rec *provenance.Message, f *provenance.Field) []views.InspectorSection {
	ex = append(ex, m.parsersSection(f)...) // last: after how dembug reads it
	vs := append(m.valuesSection(rec, f), m.correctionSection(f)...)
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
// file's values together). Enter on a type's row goes to its first read;
// m does nothing on them; I applies them.
func (m *Model) valueRows() []listRow {
	var rows []listRow
	for i, ne := range m.ix.Values {
		v := ne.Verdict
		kind := "a signed varint read unsigned"
		if v.Kind != evidence.Signed {
			kind = "a 64-bit varint cut to 32 bits"
		}
		if rows == nil {
			rows = append(rows, listRow{AnomalyListRow: views.AnomalyListRow{Group: true, Sev: views.Severity(diagnose.SevWeak),
				Text: fmt.Sprintf("%d × type read wrongly, every bit in place (values) · I decodes with %s", len(m.ix.Values), strings.Join(m.ix.ValueAliases(m.file.Aliases()).Flags(), " "))}, first: -1})
		}
		row := listRow{AnomalyListRow: views.AnomalyListRow{Sev: views.Severity(diagnose.SevWeak),
			Text: fmt.Sprintf("%s reads like %s (%s) · --as %s=%s", ne.Name, kind, v.Evidence, ne.Name, v.As)}, first: -1}
		if len(ne.FieldNames) > 0 {
			row.verdict = &m.ix.Values[i]
		}
		rows = append(rows, row)
	}
	return rows
}

// valuesLeftNote says, when a decode under new aliases ends, whether the
// values still show a type read wrongly.
func (m *Model) valuesLeftNote() string {
	if n := len(m.ix.Values); n > 0 {
		return fmt.Sprintf(": %d type(s) still read wrongly (L lists them)", n)
	}
	return ": every value in place"
}

// verdictsTitle counts, for the anomaly list's title, the types the
// values show read wrongly.
func (m *Model) verdictsTitle() string {
	switch n := len(m.ix.Values); n {
	case 0:
		return ""
	case 1:
		return " · 1 type read wrongly"
	default:
		return fmt.Sprintf(" · %d types read wrongly", n)
	}
}
