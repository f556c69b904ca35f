package ui

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// --- view ----------------------------------------------------------------

// View draws the screen. A panic while drawing shows one error line.
func (m *Model) View() (v tea.View) {
	defer func() {
		if p := recover(); p != nil {
			v = tea.NewView(fmt.Sprintf("dembug: internal error while drawing: %v (q quits)", p))
		}
	}()
	v = tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "dembug · " + filepath.Base(m.path) + m.aliasesTitle()
	return v
}

// Render is the screen content: exactly the window's size.
func (m *Model) Render() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	bodyH := m.h - 1
	body := ""
	if md := m.openModal(); md != nil {
		body = md.view(m, bodyH)
	} else {
		body = m.panesBody(bodyH)
	}
	return body + "\n" + m.statusLine()
}

// panesBody draws the panes, tiling the body of bodyH lines.
func (m *Model) panesBody(bodyH int) string {
	l := m.layout()
	// Place each pane's lines at its rectangle; panes tile the body.
	type seg struct {
		x int
		s string
	}
	grid := make([][]seg, bodyH)
	for p := pane(0); p < numPanes; p++ {
		if !l.visible[p] {
			continue
		}
		r := l.rects[p]
		for i, line := range strings.Split(m.renderPane(p, r), "\n") {
			if y := r.y + i; y >= 0 && y < bodyH && i < r.h {
				grid[y] = append(grid[y], seg{r.x, line})
			}
		}
	}
	parts := make([]string, bodyH)
	for y, segs := range grid {
		sort.Slice(segs, func(a, b int) bool { return segs[a].x < segs[b].x })
		var b strings.Builder
		for _, sg := range segs {
			b.WriteString(sg.s)
		}
		parts[y] = b.String()
	}
	return views.Block(strings.Join(parts, "\n"), m.w, bodyH)
}

func (m *Model) renderPane(p pane, r rect) string {
	iw, ih := r.w-2, r.h-2
	var title, body string
	switch p {
	case paneTimeline:
		title, body = m.timelinePane(iw, ih)
	case paneFields:
		title, body = m.fieldsPane(iw, ih)
	case paneBits:
		title, body = m.bitsPane(iw, ih)
	case paneInspector:
		title, body = m.inspectorPane(iw, ih)
	case paneEntity:
		title, body = m.entityPane(iw, ih)
	case paneSchema:
		title, body = m.schemaPane(iw, ih)
	}
	return views.Box(title, body, r.w, r.h, p == m.focus, m.theme)
}

func (m *Model) timelinePane(w, h int) (string, string) {
	title := "Timeline"
	if m.filter != nil {
		title += fmt.Sprintf(" · filter %q", m.filterText)
	}
	title += m.windowTitle()
	if len(m.rows) > 0 && m.cursor >= 0 {
		title += fmt.Sprintf(" · %d/%d", m.cursor+1, len(m.rows))
	}
	if a := m.aliasesTitle(); a != "" && views.Width(title+a) <= w-3 {
		title += a
	}
	if len(m.rows) == 0 {
		msg := "indexing…"
		if m.ix.Done {
			msg = "(empty file)"
		}
		return title, views.Timeline(views.TimelineInput{Rows: []views.TimelineRow{{Kind: views.RowNote, Text: msg}}, Cursor: -1, Width: w, Height: h, Theme: m.theme})
	}
	n := max(0, h-1)
	top := clamp(m.tlTop, 0, max(0, len(m.rows)-n))
	end := min(len(m.rows), top+n)
	vr := make([]views.TimelineRow, 0, end-top)
	for _, r := range m.rows[top:end] {
		vr = append(vr, m.viewRow(r))
	}
	m.markWindowRows(vr, top)
	return title, views.Timeline(views.TimelineInput{Rows: vr, Cursor: m.cursor - top, Width: w, Height: h, Theme: m.theme})
}

func (m *Model) viewRow(r tlRow) views.TimelineRow {
	ix := m.ix
	switch r.kind {
	case views.RowCommand:
		c := &ix.Commands[r.cmd]
		row := views.TimelineRow{
			Kind: views.RowCommand, Expandable: len(c.Msgs()) > 0, Expanded: m.expanded(expKey{r.cmd, -1}),
			Err: ix.ErrAt(c.Index) != nil, Index: c.Index, Tick: c.Tick, Name: c.Kind.String(), Size: int(c.Size), Zip: c.Compressed, Sev: views.Severity(c.Sev),
		}
		if session.NovelCommand(c.Kind) {
			row.Name = session.NovelMark + row.Name
		}
		return row
	case views.RowMessage:
		msg := &ix.Commands[r.cmd].Msgs()[r.msg]
		row := views.TimelineRow{Kind: views.RowMessage, Index: msg.Index, Name: msg.Name, Size: msg.Size}
		if msg.PE != nil {
			row.Expandable = len(msg.PE.Updates) > 0
			row.Expanded = m.expanded(expKey{r.cmd, r.msg})
			row.Err = msg.PE.Err != nil
			row.Sev = views.Severity(msg.PE.Sev)
			row.Name = fmt.Sprintf("%s (%d)", msg.Name, len(msg.PE.Updates))
		}
		if ev := ix.Event(int(r.cmd), msg.Index); ev != nil {
			row.Name = ev.Label + " · " + row.Name // the event first: the pane is narrow
		}
		if msg.Novel {
			row.Name = session.NovelMark + row.Name
		}
		return row
	case views.RowUpdate:
		u := ix.Update(int(r.cmd), int(r.msg), int(r.upd))
		return views.TimelineRow{
			Kind: views.RowUpdate, Index: int(u.Entity), Name: ix.ClassName(u), Op: u.Op.String(),
			Fields: u.Fields(), Bits: ix.Msg(int(r.cmd), int(r.msg)).PE.UpdateBits(int(r.upd)), Err: session.UpdateFailed(u), Sev: views.Severity(session.UpdateSev(u)),
		}
	case views.RowError:
		e := ix.Err
		return views.TimelineRow{Kind: views.RowError, Text: fmt.Sprintf("stopped at %s (command #%d): %s", session.PlainPlace(m.file.Bytes(), e.Offset), e.Command, e.Error())}
	case views.RowNote:
		return views.TimelineRow{Kind: views.RowNote, Text: ix.EndNote}
	}
	return views.TimelineRow{Kind: views.RowNote}
}

// fieldsEmpty says why there are no fields to show.
func (m *Model) fieldsEmpty() string {
	s := m.sel
	switch {
	case s.IsEnd() && m.ix.Err != nil:
		return "decoding stopped here: see the inspector"
	case s.IsEnd():
		return m.ix.EndNote
	case s.Cmd < 0:
		return "n steps to the first entity update"
	}
	msg := m.ix.Msg(s.Cmd, s.Msg)
	if msg == nil {
		c := m.ix.Cmd(s.Cmd)
		if c == nil {
			return ""
		}
		return views.ShortKind(c.Kind.String()) + ": n steps to the next entity update"
	}
	if msg.PE == nil {
		return msg.Name + " is not a packet-entities message"
	}
	if m.loadErr != "" {
		return "cannot decode: " + m.loadErr
	}
	if m.cur() == nil {
		return "decoding…"
	}
	if s.Upd < 0 {
		return views.Count(len(msg.PE.Updates), "update") + ": → expands, n steps into them"
	}
	u := m.ix.Update(s.Cmd, s.Msg, s.Upd)
	switch {
	case u == nil:
		return ""
	case u.Skipped():
		return "no fields: the PVS bits skip this update"
	case u.Op == provenance.Leave || u.Op == provenance.Delete:
		return u.Op.String() + ": no fields"
	}
	return "no fields"
}

func (m *Model) fieldsPane(w, h int) (string, string) {
	title := "Fields"
	d := m.cur()
	if d != nil && m.sel.Upd >= 0 && m.sel.Upd < len(d.Rec.Updates) {
		u := &d.Rec.Updates[m.sel.Upd]
		if wi := m.wiHere(); wi != nil {
			row, pairs := m.wiRowShown(wi)
			title = fmt.Sprintf("What-if · entity #%d %s · showing the %s decode (x)", u.Index, u.Class, wi.sideName())
			return title, views.DiffTable(views.DiffTableInput{
				Rows: wi.diffRows(m.sel.Upd, pairs), Selected: row, Original: wi.showOrig,
				Empty: m.fieldsEmpty(), Width: w, Height: h, Theme: m.theme,
			})
		}
		title = fmt.Sprintf("Fields · entity #%d %s %s · %s", u.Index, u.Class, u.Op, views.Count(u.NumFields, "field"))
		key := fieldsKey{d, m.sel.Update()}
		if !m.cache.fieldsKey.is(key) {
			m.cache.fieldsKey.set(key)
			m.cache.fields = fieldRows(d.Rec.UpdateFields(m.sel.Upd), &d.Report, u.FirstField, m.unmuted)
			m.markVerdicts(m.cache.fields, d.Rec.UpdateFields(m.sel.Upd))
		}
		// The count agrees with the rows' markers (and L): anomalies that
		// grade (not a default-decoder read alone) and are not muted.
		if n := markedRows(m.cache.fields); n > 0 {
			if more := fmt.Sprintf(" · %d anomalous", n); views.Width(title+more) <= w-3 {
				title += more
			}
		}
		return title, views.FieldTable(views.FieldTableInput{
			Rows: m.cache.fields, Selected: m.sel.Field, Empty: m.fieldsEmpty(), Width: w, Height: h, Theme: m.theme,
		})
	}
	if title, s, ok := m.walkFields(w, h); ok {
		return title, s
	}
	if name, ok := m.wireShown(); ok {
		return "Wire · " + name, views.WireTree(views.WireTreeInput{
			Lines: m.cache.wire, Selected: m.wireSel, Note: m.cache.wireNote, Empty: "empty body", Width: w, Height: h, Theme: m.theme,
		})
	}
	return title, views.FieldTable(views.FieldTableInput{Selected: -1, Empty: m.fieldsEmpty(), Width: w, Height: h, Theme: m.theme})
}

// wireShown names the wire tree the fields pane shows for the selection
// (derive loaded it), and reports whether there is one.
func (m *Model) wireShown() (string, bool) {
	key, _, _, ok := m.wireTarget()
	if !ok || !m.cache.wireKey.is(key) {
		return "", false
	}
	return m.wireTitle, true
}

// countAnomalous counts the fields in [first, first+n) with any anomaly.
func (m *Model) bitsPane(w, h int) (string, string) {
	if title, s, ok := m.walkBits(w, h); ok {
		return title, s
	}
	if name, ok := m.wireShown(); ok && !m.peWire() {
		// The body's bytes, with the selected wire field's.
		in := views.HexBitsInput{Data: m.wireBody, Selected: -1, Width: w, Height: h, Theme: m.theme}
		if r := m.wireSel; r >= 0 && r < len(m.cache.wire) {
			l := m.cache.wire[r]
			// The caption names the protobuf field number (not the span's index).
			in.Spans, in.Selected = []views.Span{{Span: bitio.Span{Start: uint(l.Offset) * 8, Bits: uint(l.Len) * 8}, Kind: views.SpanValue, Field: l.Field}}, 0
		}
		if title, pin, ok := m.packetBits(in); ok { // framing.go
			return title, views.HexBits(pin)
		}
		return "Bitstream · " + name, views.HexBits(in)
	}
	sh, ok := m.shown()
	if !ok {
		return "Bitstream", m.theme.Dim.Render(" select a packet-entities message or update")
	}
	title := fmt.Sprintf("Bitstream · entity data, %s", bitio.Size(uint(len(sh.data))*8))
	if sh.whatIf {
		title = fmt.Sprintf("Bitstream · what-if decode, %s", bitio.Size(uint(len(sh.data))*8))
	}
	in := views.HexBitsInput{Data: sh.data, Selected: -1, Width: w, Height: h, Theme: m.theme}
	if sh.upd >= 0 && sh.upd < len(sh.rec.Updates) {
		key := spansKey{sh.rec, sh.upd}
		if !m.cache.spansKey.is(key) {
			m.cache.spansKey.set(key)
			m.cache.spans, m.cache.valueSpan, m.cache.header = updateSpans(sh.rec, sh.upd)
		}
		in.Spans = m.cache.spans
		in.Selected = m.cache.header
		if f := sh.field; f >= 0 && f < len(m.cache.valueSpan) {
			in.Selected = m.cache.valueSpan[f]
		}
		if in.Theirs = m.theirsSpan(); in.Theirs != nil {
			title += " · theirs beside ours"
		}
	}
	return title, views.HexBits(in)
}

func (m *Model) inspectorPane(w, h int) (string, string) {
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
	return title, views.Inspector(views.InspectorInput{Sections: secs, Scroll: m.inspScroll, Width: w, Height: h, Theme: m.theme})
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
	if pe.SuspectUpd >= 0 && int(pe.SuspectUpd) < len(pe.Updates) {
		u := &pe.Updates[pe.SuspectUpd]
		where := fmt.Sprintf("update #%d (entity #%d %s)", pe.SuspectUpd, u.Entity, m.ix.ClassName(u))
		if pe.SuspectField >= 0 && pe.SuspectName != "" {
			where = pe.SuspectName + " in " + where
		}
		l = append(l, views.InspectorLine{Label: "suspect", Text: where + ": " + pe.SuspectWhy, Style: views.LineMath})
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
		{Label: "at", Text: session.Place(m.file.Bytes(), c.Offset)},
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
			{Label: "at", Text: "packet bit " + bitio.Offset(msg.Bit)},
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
				views.InspectorLine{Label: "entities", Text: fmt.Sprintf("%s, %s frame, %s of entity data, decoding ended at %s", views.Count(len(pe.Updates), "update"), kind, bitio.Size(pe.DataBits), bitio.Offset(pe.EndBit))})
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

func (m *Model) entityPane(w, h int) (string, string) {
	when := "after"
	if m.before {
		when = "before"
	}
	d, upd, field, whatIf := m.paneDetail()
	if whatIf {
		when = "what-if, " + when
	}
	title := "Entity · " + when + " (b toggles)"
	if d == nil || upd < 0 || upd >= len(d.Snaps) {
		return title, views.Entity(views.EntityInput{Width: w, Height: h, Theme: m.theme, Empty: "select an entity update", Selected: -1})
	}
	snap := &d.Snaps[upd]
	u := &d.Rec.Updates[upd]
	if snap.After == nil {
		return title, views.Entity(views.EntityInput{Width: w, Height: h, Theme: m.theme, Selected: -1,
			Empty: fmt.Sprintf("#%d %s: no state after this %s", u.Index, u.Class, u.Op)})
	}
	key := entKey{d, session.Ref{Cmd: m.sel.Cmd, Msg: m.sel.Msg, Upd: upd, Field: -1}, m.before}
	if !m.cache.entKey.is(key) {
		state := snap.After
		if m.before {
			state = d.Before(upd)
		}
		written := map[fieldpath.Path]bool{}
		for _, f := range d.Rec.UpdateFields(upd) {
			written[normPath(f.Path)] = true
		}
		m.cache.entKey.set(key)
		m.cache.entRows, m.cache.entAt = entityRows(snap.Ser, state, written)
	}
	sel := -1
	if fs := d.Rec.UpdateFields(upd); field >= 0 && field < len(fs) {
		if i, ok := m.cache.entAt[normPath(fs[field].Path)]; ok {
			sel = i
		}
	}
	header := fmt.Sprintf("#%d %s serial %d", u.Index, u.Class, snap.Serial)
	switch u.Op {
	case provenance.Leave:
		header += " · LEFT the view (kept, inactive)"
	case provenance.Delete:
		header += " · DELETED"
	}
	return title, views.Entity(views.EntityInput{
		Header: header,
		Before: m.before, Rows: m.cache.entRows, Selected: sel, Scroll: m.entScroll,
		Width: w, Height: h, Theme: m.theme,
	})
}

func (m *Model) schemaPane(w, h int) (string, string) {
	d, upd, field, _ := m.paneDetail()
	if d == nil || upd < 0 || upd >= len(d.Snaps) || d.Snaps[upd].Ser == nil {
		empty := "select an entity update"
		if d != nil && upd >= 0 && upd < len(d.Rec.Updates) {
			// A delete (or a leave of an entity never seen) has no class state.
			u := &d.Rec.Updates[upd]
			empty = fmt.Sprintf("%s of #%d has no serializer to show", views.WithArticle(u.Op.String()), u.Index)
		}
		return "Schema", views.Schema(views.SchemaInput{Width: w, Height: h, Theme: m.theme, Empty: empty})
	}
	snap := &d.Snaps[upd]
	var sel *fieldpath.Path
	if fs := d.Rec.UpdateFields(upd); field >= 0 && field < len(fs) {
		p := fs[field].Path
		sel = &p
	}
	rows := schemaRows(snap.Ser, snap.After, sel)
	header := fmt.Sprintf("%s · %s (%d with nested)", snap.Ser.Name, views.Count(len(snap.Ser.Fields), "field"), countFields(snap.Ser, 0))
	return "Schema · " + snap.Ser.Name, views.Schema(views.SchemaInput{
		Header: header, Rows: rows, Scroll: m.schScroll, Width: w, Height: h, Theme: m.theme,
	})
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// location spells the selection for the status line.
func (m *Model) location() string {
	s := m.sel
	if s.IsEnd() && m.ix.Err != nil {
		return "where decoding stopped"
	}
	if s.IsEnd() {
		return "end of file"
	}
	c := m.ix.Cmd(s.Cmd)
	if c == nil {
		return ""
	}
	var parts []string
	parts = append(parts, tickWord(c.Tick), fmt.Sprintf("#%d %s", c.Index, views.ShortKind(c.Kind.String())))
	if msg := m.ix.Msg(s.Cmd, s.Msg); msg != nil {
		parts = append(parts, msg.Name)
		if msg.PE != nil && s.Upd >= 0 {
			parts = append(parts, fmt.Sprintf("update #%d of %d", s.Upd, len(msg.PE.Updates)))
			if u := m.ix.Update(s.Cmd, s.Msg, s.Upd); u != nil && s.Field >= 0 {
				parts = append(parts, fmt.Sprintf("field #%d of %d", s.Field, u.Fields()))
			}
		}
	}
	if wi := m.wiHere(); wi != nil {
		parts = append(parts, "what-if ("+wi.sideName()+" shown)")
	}
	return strings.Join(parts, " › ")
}

func (m *Model) statusLine() string {
	t := m.theme
	md := m.openModal()
	wide, narrow := "", ""
	if md != nil {
		var line string
		if line, wide, narrow = md.status(m); line != "" {
			return line
		}
	}
	right := "n next · tab pane · / search · ? keys · q quit"
	switch {
	case wide != "":
		right = wide
	case m.wiHere() != nil:
		right = "x original/what-if · esc leaves the what-if · ? keys"
	case m.wiPending:
		right = "running the what-if… · esc cancels · ? keys"
	}
	if !m.ix.Done {
		pct := 0
		if m.ix.Size > 0 {
			pct = m.ix.Pos * 100 / m.ix.Size
		}
		right = fmt.Sprintf("%s indexing %d%% · ", spinner[m.spin%len(spinner)], pct) + right
	} else if m.loading {
		right = "decoding… · " + right
	}
	if m.scan != nil {
		right = m.scanStatus() + "? keys" // the scan's progress, not the panes' keys
	}
	right = m.cutStatus(true) + right
	left := m.location()
	switch {
	case m.fatal != "":
		left = "✗ " + m.fatal
	case m.note != "":
		left = m.note
		if m.noteErr {
			left = "✗ " + left
		}
	}
	if m.w < 100 {
		right = "? keys"
		if narrow != "" {
			right = narrow
		} else if m.wiHere() != nil {
			right = "x · esc"
		}
		if !m.ix.Done {
			right = "indexing…"
		} else if m.scan != nil {
			right = m.scanNarrow()
		}
		right = m.cutStatus(false) + right
	}
	if a := m.file.Aliases(); md == nil && (!a.Empty() || a.Seed) && (m.w >= 100 || m.note == "") {
		// (a narrow line gives a note the room)
		right = m.aliasesStatus(m.w >= 100) + right
	}
	if m.fatal == "" && m.note == "" && views.Width(left)+1+views.Width(right) > m.w {
		left = m.locationShort()
	}
	return views.StatusBar(left, right, m.w, t)
}
