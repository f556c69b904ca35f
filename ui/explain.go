package ui

import (
	"fmt"
	"strconv"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

func g(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// stepLines renders a read's walk-through (decoder.Explain): bits as
// "@offset  bits  meaning", notes plain, arithmetic as maths.
func stepLines(steps []session.DecoderStep) []views.InspectorLine {
	out := make([]views.InspectorLine, len(steps))
	for i, s := range steps {
		l := views.InspectorLine{Label: s.Label, Text: s.Text, Style: views.LineMath}
		switch s.Kind {
		case session.StepBits:
			l.Text, l.Style = "@"+views.Offset(s.Span.Start)+"  "+s.Raw, views.LineBits
			if s.Text != "" {
				l.Text += "  " + s.Text
			}
		case session.StepNote:
			l.Style = views.LinePlain
		}
		out[i] = l
	}
	return out
}

// rawLine shows n bits (n ≤ 64) from at as read; a longer read shows its
// start.
func rawLine(data []byte, at, n uint) views.InspectorLine {
	return views.InspectorLine{Label: "raw", Text: "@" + views.Offset(at) + "  " + session.SpellAt(data, at, n), Style: views.LineBits}
}

// fieldModel says how a path reaches the field's value.
func fieldModel(f *schema.Field, path session.Path) string {
	if f == nil {
		return ""
	}
	depth := 0
	if path.Last > 0 {
		depth = path.Last
	}
	switch f.Model {
	case schema.FixedArray:
		return fmt.Sprintf("element %d of a fixed array [%d]", path.Idx[depth], f.Type.Count)
	case schema.VariableArray:
		if int(path.Idx[path.Last]) != 0 || path.Last > 0 {
			return "variable array element (or length)"
		}
		return "variable array"
	case schema.FixedTable:
		return "pointer to a nested serializer (presence)"
	case schema.VariableTable:
		return "vector of nested serializers (length)"
	}
	return f.Model.String()
}

// ExplainInput is the selected field in its message.
type ExplainInput struct {
	Rec    *provenance.Message
	Data   []byte // the message's entity data
	Update int    // index into Rec.Updates
	Field  int    // index within the update's fields
	// Report, when set, is the message's diagnosis: the field's anomalies
	// and the message's problem are explained after what the field is.
	Report *diagnose.Report
	// Override, when set, says the field's decoder was put there by a
	// what-if (the recorded why is the schema's choice, not the one used).
	Override string
	// WhatIf says the field is the what-if decode's, and Orig is the same
	// field as the original decode read it (nil when it did not): its value
	// is what "was" names there, not the entity's value before the update.
	WhatIf bool
	Orig   *provenance.Field
}

// Explain builds the inspector sections for one field: what it is, which
// decoder read it and why, its raw bits and the arithmetic to the value,
// and the field-path op that produced its path.
func Explain(in ExplainInput) []views.InspectorSection {
	u := &in.Rec.Updates[in.Update]
	fs := in.Rec.UpdateFields(in.Update)
	f := &fs[in.Field]
	var secs []views.InspectorSection

	// What.
	val := f.Value.TextAs(f.Decoder)
	var before []views.InspectorLine
	if in.WhatIf {
		val, before = whatIfValue(f, u.Op, in.Orig)
	}
	switch {
	case in.WhatIf:
	case u.Op == provenance.Create && f.Prev.Kind != session.KindNone:
		// A create starts from its class's instance baseline: what it
		// replaces is the baseline's value.
		val += "  (baseline: " + f.Prev.TextAs(f.Decoder) + ")"
	case u.Op == provenance.Create:
		val += "  (the baseline does not set it)"
	case f.Prev.Kind != session.KindNone:
		val += "  (was " + f.Prev.TextAs(f.Decoder) + ")"
	default:
		val += "  (was unset)"
	}
	what := []views.InspectorLine{
		{Label: "field", Text: f.Name + "  " + f.Path.String()},
		{Label: "entity", Text: fmt.Sprintf("#%d %s %s · field #%d of %d", u.Index, u.Class, u.Op, in.Field, len(fs))},
		{Label: "value", Text: val, Style: views.LineMath},
	}
	what = append(what, before...)
	secs = append(secs, views.InspectorSection{Title: "Field", Lines: what})
	secs = append(secs, anomalySection(in.Report.FieldAnomalies(u.FirstField, in.Field))...)
	// The message's problem: right here when this field is its first
	// suspect, else after the field's own sections.
	suspect := in.Report != nil && in.Report.First != nil && in.Report.First.Field == u.FirstField+in.Field
	if suspect {
		secs = append(secs, problemSection(in.Report)...)
	}

	// Decoder.
	var dl []views.InspectorLine
	if d := f.Decoder; d != nil {
		desc := d.Describe()
		switch {
		case d.Family == session.FamQuantized && d.Q != nil:
			desc = d.Q.Setup()
		case d.Family == session.FamVector && d.Elem != nil && d.Elem.Family == session.FamQuantized && d.Elem.Q != nil:
			desc = fmt.Sprintf("vector of %d × %s", d.Components, d.Elem.Q.Setup())
		}
		dl = append(dl, views.InspectorLine{Label: "decoder", Text: desc})
	}
	if in.Override != "" {
		dl = append(dl, views.InspectorLine{Label: "what-if", Text: in.Override, Style: views.LineWarn})
		if f.Why != "" {
			dl = append(dl, views.InspectorLine{Label: "schema", Text: "would choose: " + markPatchedEncoder(f.Why, f.Schema), Style: views.LineDim})
		}
	} else if f.Why != "" {
		why := markPatchedEncoder(f.Why, f.Schema)
		if s := f.Schema; s != nil && s.Alias != "" {
			why = s.Alias + " (--as): " + why // the choice an alias made, not the schema
		}
		dl = append(dl, views.InspectorLine{Label: "why", Text: why})
	}
	if s := f.Schema; s != nil {
		typ := s.VarType
		if s.Encoder != "" {
			typ += ", encoder " + encoderText(s)
		}
		if s.BitCountSet {
			typ += fmt.Sprintf(", bit count %d", s.BitCount)
		}
		if s.LowSet || s.HighSet {
			typ += fmt.Sprintf(", range %s … %s", g(float64(s.Low)), g(float64(s.High)))
		}
		if s.EncodeFlags != 0 {
			typ += ", flags " + session.FlagNames(uint32(s.EncodeFlags))
		}
		if s.Model != schema.Simple {
			typ += "; " + fieldModel(s, f.Path)
		}
		dl = append(dl, views.InspectorLine{Label: "schema", Text: typ})
		if s.Patched != "" {
			dl = append(dl, views.InspectorLine{Label: "patched", Text: s.Patched, Style: views.LineWarn})
		}
		if s.Problem != "" {
			dl = append(dl, views.InspectorLine{Label: "problem", Text: s.Problem, Style: views.LineWarn})
		}
	}
	dl = append(dl, quantSetupLines(f)...) // quantsetup.go
	secs = append(secs, views.InspectorSection{Title: "Decoder", Lines: dl})

	// Bits to value: the decoder's walk-through of the read.
	lines := []views.InspectorLine{{Label: "at", Text: fmt.Sprintf("%s (%d bits), LSB first", f.Span(), f.Bits), Style: views.LinePlain}}
	var used uint
	overflowed := false
	if f.Decoder != nil {
		var steps []session.DecoderStep
		steps, used, overflowed = session.ExplainRead(f.Decoder, in.Data, f.Start)
		lines = append(lines, stepLines(steps)...)
	}
	if used != f.Bits || f.Decoder == nil || overflowed {
		// No walk-through or a disagreement: show the bits as read.
		if f.Decoder == nil || used == 0 {
			lines = append(lines, rawLine(in.Data, f.Start, min(f.Bits, 64)))
		} else {
			lines = append(lines, views.InspectorLine{Label: "note", Text: fmt.Sprintf("re-reading used %d bits, the decode used %d", used, f.Bits), Style: views.LineWarn})
		}
	}
	secs = append(secs, views.InspectorSection{Title: "Bits → value", Lines: lines})

	// Field-path op.
	var pl []views.InspectorLine
	prev := "start [-1]"
	if in.Field > 0 {
		prev = fs[in.Field-1].Path.String()
	}
	op := f.Op
	ob := session.ReadOpBits(in.Data, op)
	pl = append(pl, views.InspectorLine{Label: "op", Text: op.Op.String()})
	pl = append(pl, views.InspectorLine{Label: "code", Text: fmt.Sprintf("%s (%s, Huffman)", ob.Code.String(), views.Count(int(ob.Code.Len), "bit"))})
	opBits := fmt.Sprintf("@%s  %s", views.Offset(op.Start), ob.CodeBits)
	if ob.Operand > 0 {
		opBits += " | " + ob.Raw
		pl = append(pl, views.InspectorLine{Label: "bits", Text: opBits, Style: views.LinePath})
		pl = append(pl, views.InspectorLine{Label: "operand", Text: views.Count(int(ob.Operand), "bit") + " after the code"})
	} else {
		pl = append(pl, views.InspectorLine{Label: "bits", Text: opBits, Style: views.LinePath})
		pl = append(pl, views.InspectorLine{Label: "operand", Text: "none"})
	}
	pl = append(pl, views.InspectorLine{Label: "path", Text: prev + " → " + f.Path.String()})
	if in.Field == len(fs)-1 && u.PathBits > 0 {
		fin := session.FinishAt(u.PathStart + u.PathBits)
		pl = append(pl, views.InspectorLine{Label: "then", Text: fmt.Sprintf("%s (code %s) at %s ends the paths", fin.Op, session.OpCode(fin.Op).String(), views.Offset(fin.Start)), Style: views.LineDim})
	}
	secs = append(secs, views.InspectorSection{Title: "Field path", Lines: pl})
	if !suspect {
		secs = append(secs, problemSection(in.Report)...)
	}
	return secs
}

// ExplainUpdate builds the inspector sections for an update without a
// selected field: its header, path stream and outcome, and the message's
// problem when rep (which may be nil) has one.
func ExplainUpdate(rec *provenance.Message, ui int, rep *diagnose.Report) []views.InspectorSection {
	u := &rec.Updates[ui]
	l := []views.InspectorLine{
		{Label: "entity", Text: fmt.Sprintf("#%d %s, serial %d", u.Index, u.Class, u.Serial)},
		{Label: "op", Text: u.Op.String()},
		{Label: "header", Text: fmt.Sprintf("%s, %s (%s)", views.Offset(u.Start), views.Size(u.HeaderBits), headerParts(u.Op))},
	}
	if u.Skipped {
		l = append(l, views.InspectorLine{Label: "fields", Text: "none: the PVS bits say this update carries no fields"})
	} else if u.PathBits > 0 {
		l = append(l, views.InspectorLine{Label: "paths", Text: fmt.Sprintf("%s, %s", views.Offset(u.PathStart), views.Size(u.PathBits))})
		l = append(l, views.InspectorLine{Label: "fields", Text: fmt.Sprint(u.NumFields)})
	} else {
		l = append(l, views.InspectorLine{Label: "fields", Text: "none"})
	}
	if u.End > u.Start {
		l = append(l, views.InspectorLine{Label: "ends", Text: fmt.Sprintf("%s (%s in all)", views.Offset(u.End), views.Size(u.End-u.Start))})
	}
	if u.Err != nil {
		l = append(l, views.InspectorLine{Label: "error", Text: u.Err.Error(), Style: views.LineError})
	}
	return append([]views.InspectorSection{{Title: "Update", Lines: l}}, problemSection(rep)...)
}

// headerParts names what an update's header holds: a create's carries the
// class, serial and spawn group after the index delta and command bits.
func headerParts(op provenance.Op) string {
	if op == provenance.Create {
		return "index delta, command bits, create header"
	}
	return "index delta, command bits"
}
