package ui

import (
	"fmt"
	"strings"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// The inspector's sections are data: deriveInspector builds them in
// Update (derive), the selected field's or update's kept under its key
// (inspKey) and dropped where their data changes; the inspector pane
// draws what it finds.

// deriveInspector builds the inspector's title and sections for the
// selection.
func (m *Model) deriveInspector() {
	var secs []views.InspectorSection
	title := "Inspector"
	d := m.cur()
	switch {
	case m.sel.IsEnd() && m.ix.Err != nil:
		e := m.ix.Err
		secs = []views.InspectorSection{{Title: "Decoding stopped", Lines: []views.InspectorLine{
			{Label: "byte", Text: fmt.Sprint(e.Offset)},
			{Label: "command", Text: fmt.Sprintf("#%d", e.Command)},
			{Label: "error", Text: e.Error(), Style: views.LineError},
			{Label: "", Text: "Everything before this point decoded; the timeline ends here.", Style: views.LineDim},
		}}}
	case d != nil && m.sel.Upd >= 0 && m.sel.Upd < len(d.Rec.Updates):
		sh, _ := m.shown()
		wi := m.wiHere()
		at := m.sel.Update()
		at.Field = sh.field
		key := inspKey{d: d, at: at, wi: wi, inf: m.inference, hdr: m.headerFirst, ops: m.opsFirst}
		if wi != nil {
			key.orig = wi.showOrig
		}
		if !m.cache.inspKey.is(key) {
			m.cache.inspKey.set(key)
			var out []views.InspectorSection
			if wi != nil {
				_, pairs := m.wiRowShown(wi)
				out = append(out, wi.section(m.sel.Upd, pairs))
			}
			if !sh.whatIf {
				sh.rep = m.withSuspect(d.Cmd, d.Msg, sh.rec, sh.rep)
			}
			switch {
			case sh.upd < 0:
				out = append(out, views.InspectorSection{Title: "Update", Lines: []views.InspectorLine{
					{Text: "This decode has no such update: it stopped or went astray earlier.", Style: views.LineDim}}})
			case sh.field >= 0 && sh.field < sh.rec.Updates[sh.upd].NumFields:
				in := ExplainInput{Rec: sh.rec, Data: sh.data, Update: sh.upd, Field: sh.field, Report: sh.rep}
				if f := &sh.rec.UpdateFields(sh.upd)[sh.field]; sh.whatIf && wi.Change.Decoder != nil && f.Decoder == wi.Change.Decoder {
					in.Override = wi.Label
				}
				if sh.whatIf {
					_, pairs := m.wiRowShown(wi)
					in.WhatIf, in.Orig = true, wi.origField(m.sel.Upd, sh.field, pairs)
				}
				var hdr []views.InspectorSection
				if sh.field == 0 || m.headerFirst {
					// The update's header comes just before its first field,
					// and a create starts from its class's baseline: under
					// the first field's explanation, or first of all with H.
					hdr = append(hdr, ExplainHeader(sh.data, sh.rec, sh.upd, d.ClassIDBits, d.MaxClasses))
					if u := &sh.rec.Updates[sh.upd]; u.Op == provenance.Create {
						if b, ok := d.Baseline(u.ClassID); ok {
							hdr = append(hdr, ExplainBaseline(b, u.Class))
						}
					}
				}
				ex := m.withValues(Explain(in), sh.rec, &sh.rec.UpdateFields(sh.upd)[sh.field])
				if m.headerFirst {
					out = append(out, hdr...)
					out = append(out, ex...)
				} else {
					out = append(out, ex...)
					out = append(out, hdr...)
				}
			case wi != nil && m.sel.Field >= 0:
				out = append(out, views.InspectorSection{Title: "Field", Lines: []views.InspectorLine{
					{Text: "The " + wi.sideName() + " decode did not read this field.", Style: views.LineDim}}})
			default:
				upd := ExplainUpdate(sh.rec, sh.upd, sh.rep)
				out = append(out, upd[0], ExplainHeader(sh.data, sh.rec, sh.upd, d.ClassIDBits, d.MaxClasses))
				out = append(out, upd[1:]...)
				if sh.upd == len(sh.rec.Updates)-1 {
					if del, ok := ExplainDeletions(sh.data, sh.rec); ok {
						out = append(out, del)
					}
				}
			}
			if sh.rep != nil && sh.rep.Misaligned && wi == nil {
				// What inference found is the first thing to read at a
				// message that misaligns after a patch.
				if l := m.inferenceLines(true); len(l) > 0 {
					sec := views.InspectorSection{Title: "Unknown names", Lines: l}
					if inf := m.inference; inf != nil && (inf.checked != nil || inf.running) {
						out = append([]views.InspectorSection{sec}, out...)
					} else {
						out = append(out, sec)
					}
				}
			}
			if m.opsFirst && sh.upd >= 0 {
				out = append([]views.InspectorSection{ExplainOps(sh.data, sh.rec, sh.upd, sh.field)}, out...)
			}
			m.cache.insp = out
		}
		secs = m.cache.insp
		if sh.upd >= 0 && sh.field >= 0 && sh.field < sh.rec.Updates[sh.upd].NumFields {
			title = "Inspector · " + sh.rec.UpdateFields(sh.upd)[sh.field].Name
		}
		if wi != nil {
			title = "Inspector · " + wi.sideName() + strings.TrimPrefix(title, "Inspector")
		}
		if m.atDifference() && wi == nil {
			secs = append([]views.InspectorSection{m.compareSection()}, secs...)
		}
	case m.sel.IsEnd():
		secs = []views.InspectorSection{{Title: "End of file", Lines: []views.InspectorLine{
			{Label: "note", Text: m.ix.EndNote},
			{Label: "", Text: "Every command up to here decoded.", Style: views.LineDim},
		}}}
	default:
		secs = m.summary()
	}
	if m.parsersFirst {
		secs = append([]views.InspectorSection{m.parsersFileSection()}, secs...)
	}
	if m.opTable {
		secs = append([]views.InspectorSection{opTableSection()}, secs...)
	}
	m.cache.inspTitle, m.cache.secs = title, secs
}

// peAnomalyLines sums up a message's anomalies from the index.
func (m *Model) peAnomalyLines(pe *session.PEInfo) []views.InspectorLine {
	strong, weak := pe.Graded()
	var l []views.InspectorLine
	if strong+weak > 0 {
		st := views.LineWarn
		if strong > 0 {
			st = views.LineError
		}
		l = append(l, views.InspectorLine{Label: "anomalies", Text: fmt.Sprintf("%s strongly anomalous (!), %d weakly (?); a steps to the strong ones", views.Count(strong, "field"), weak), Style: st})
	}
	if pe.Problem != "" {
		l = append(l, views.InspectorLine{Label: "problem", Text: pe.Problem, Style: views.LineError})
	}
	if s := pe.Suspect; s != nil && s.At.Upd >= 0 && s.At.Upd < len(pe.Updates) {
		u := &pe.Updates[s.At.Upd]
		where := fmt.Sprintf("update #%d (entity #%d %s)", s.At.Upd, u.Entity, m.ix.ClassName(u))
		if s.At.Field >= 0 && s.Name != "" {
			where = s.Name + " in " + where
		}
		l = append(l, views.InspectorLine{Label: "suspect", Text: where + ": " + s.Why(), Style: views.LineMath})
	}
	if pe.Err != nil {
		l = append(l, m.inferenceLines(true)...)
	}
	return l
}

// summary describes the selected command or message.
func (m *Model) summary() []views.InspectorSection {
	c := m.ix.Cmd(m.sel.Cmd)
	if c == nil {
		lines := []views.InspectorLine{
			{Label: "file", Text: m.path},
			{Label: "size", Text: views.Count(len(m.file.Bytes()), "byte")},
		}
		lines = append(lines, m.inferenceLines(false)...)
		return []views.InspectorSection{{Title: "Replay", Lines: lines}}
	}
	tick := "signon (-1)"
	if c.Tick >= 0 {
		tick = fmt.Sprint(c.Tick)
	}
	comp := "no"
	if c.Compressed {
		comp = "snappy"
	}
	lines := []views.InspectorLine{
		{Label: "command", Text: fmt.Sprintf("#%d %s", c.Index, c.Kind)},
		{Label: "tick", Text: tick},
		{Label: "at", Text: m.file.Place(c.Offset)},
		{Label: "size", Text: fmt.Sprintf("%s, compressed: %s", views.Count(int(c.Size), "byte"), comp)},
	}
	if len(c.Msgs()) > 0 {
		lines = append(lines, views.InspectorLine{Label: "messages", Text: fmt.Sprint(len(c.Msgs()))})
	}
	if c.NumUpdates() > 0 {
		lines = append(lines, views.InspectorLine{Label: "updates", Text: fmt.Sprint(c.NumUpdates())})
	}
	if err := m.ix.ErrAt(c.Index); err != nil {
		lines = append(lines, views.InspectorLine{Label: "error", Text: err.Error(), Style: views.LineError})
	}
	if c.Kind == container.SendTables {
		if l, ok := m.schemaLine(); ok {
			lines = append(lines, l)
		}
		lines = append(lines, m.inferenceLines(false)...) // the schema's unknown names
	} else if a := m.file.Aliases(); !a.Empty() {
		lines = append(lines, views.InspectorLine{Label: "aliases", Text: strings.Join(a.Flags(), " "), Style: views.LineMath})
	}
	lines = append(lines, m.novelLines(c, nil)...)
	if m.promoted != "" {
		lines = append(lines, views.InspectorLine{Label: "promoted", Text: m.promoted, Style: views.LineMath})
	}
	secs := []views.InspectorSection{{Title: "Command", Lines: lines}}
	if msg := m.ix.Msg(m.sel.Cmd, m.sel.Msg); msg != nil {
		ml := []views.InspectorLine{
			{Label: "message", Text: fmt.Sprintf("#%d %s (type %d)", msg.Index, msg.Name, msg.Type)},
			{Label: "at", Text: "packet bit " + views.Offset(msg.Bit)},
			{Label: "size", Text: views.Count(msg.Size, "byte")},
		}
		ml = append(ml, m.novelLines(c, msg)...)
		ml = append(ml, eventLines(m.ix.Event(m.sel.Cmd, msg.Index))...)
		if pe := msg.PE; pe != nil {
			kind := "full"
			if pe.Delta {
				kind = "delta"
			}
			ml = append(ml,
				views.InspectorLine{Label: "entities", Text: fmt.Sprintf("%s, %s frame, %s of entity data, decoding ended at %s", views.Count(len(pe.Updates), "update"), kind, views.Size(pe.DataBits), views.Offset(pe.EndBit))})
			if pe.Skipped {
				ml = append(ml, views.InspectorLine{Label: "note", Text: "a repeated full frame: not applied", Style: views.LineDim})
			}
			if pe.Err != nil {
				ml = append(ml, views.InspectorLine{Label: "error", Text: pe.Err.Error(), Style: views.LineError})
			}
			ml = append(ml, m.peAnomalyLines(pe)...)
		}
		secs = append(secs, views.InspectorSection{Title: "Message", Lines: ml})
		// The selected wire field comes first while the wire tree has the
		// focus, after what a string-table message wrote otherwise.
		wf, wok := m.wireFieldSection()
		if wok && m.focus == paneFields {
			secs = append(secs, wf)
		}
		secs = append(secs, m.tableSections()...)
		if wok && m.focus != paneFields {
			secs = append(secs, wf)
		}
		if d := m.cur(); msg.PE != nil && d != nil && d.Rec != nil {
			if del, ok := ExplainDeletions(d.Data, d.Rec); ok {
				secs = append(secs, del)
			}
		}
	} else if wf, ok := m.wireFieldSection(); ok {
		secs = append(secs, wf)
	}
	if c.Kind == container.FileHeader {
		secs = append(secs, m.fileHeaderSection())
	}
	if m.sel.Msg < 0 {
		// The bytes before the body, after the file's first 16 bytes.
		secs = append(secs, m.framingSection(c)) // framing.go
	}
	return secs
}
