package ui

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

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
	if m.rows.Len() > 0 && m.cursor >= 0 {
		title += fmt.Sprintf(" · %d/%d", m.cursor+1, m.rows.Len())
	}
	if a := m.aliasesTitle(); a != "" && views.Width(title+a) <= w-3 {
		title += a
	}
	if m.rows.Len() == 0 {
		msg := "indexing…"
		if m.ix.Done {
			msg = "(empty file)"
		}
		return title, views.Timeline(views.TimelineInput{Rows: []views.TimelineRow{{Kind: views.RowNote, Text: msg}}, Cursor: -1, Width: w, Height: h, Theme: m.theme})
	}
	n := max(0, h-1)
	top := clamp(m.tlTop, 0, max(0, m.rows.Len()-n))
	end := min(m.rows.Len(), top+n)
	vr := make([]views.TimelineRow, 0, end-top)
	for i := top; i < end; i++ {
		vr = append(vr, m.viewRow(m.rows.At(i)))
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
		return views.TimelineRow{Kind: views.RowError, Text: fmt.Sprintf("stopped at %s (command #%d): %s", m.file.PlainPlace(e.Offset), e.Command, e.Error())}
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
		var rows []views.FieldRow // derive made them (derivepanes.go)
		if m.cache.fieldsKey.is(fieldsKey{d, m.sel.Update()}) {
			rows = m.cache.fields
		}
		// The count agrees with the rows' markers (and L): anomalies that
		// grade (not a default-decoder read alone) and are not muted.
		if n := markedRows(rows); n > 0 {
			if more := fmt.Sprintf(" · %d anomalous", n); views.Width(title+more) <= w-3 {
				title += more
			}
		}
		return title, views.FieldTable(views.FieldTableInput{
			Rows: rows, Selected: m.sel.Field, Empty: m.fieldsEmpty(), Width: w, Height: h, Theme: m.theme,
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
			in.Spans, in.Selected = []views.Span{views.BitSpan(uint(l.Offset)*8, uint(l.Len)*8, views.SpanValue, l.Field)}, 0
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
	title := fmt.Sprintf("Bitstream · entity data, %s", views.Size(uint(len(sh.data))*8))
	if sh.whatIf {
		title = fmt.Sprintf("Bitstream · what-if decode, %s", views.Size(uint(len(sh.data))*8))
	}
	in := views.HexBitsInput{Data: sh.data, Selected: -1, Width: w, Height: h, Theme: m.theme}
	if sh.upd >= 0 && sh.upd < len(sh.rec.Updates) && m.cache.spansKey.is(spansKey{sh.rec, sh.upd}) {
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
	title := m.cache.inspTitle
	if title == "" {
		title = "Inspector"
	}
	return title, views.Inspector(views.InspectorInput{Sections: m.cache.secs, Scroll: m.inspScroll, Width: w, Height: h, Theme: m.theme})
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
	var rows []views.EntityRow // derive made them (derivepanes.go)
	fresh := m.cache.entKey.is(m.entityKey(d, upd))
	if fresh {
		rows = m.cache.entRows
	}
	sel := -1
	if fs := d.Rec.UpdateFields(upd); fresh && field >= 0 && field < len(fs) {
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
		Before: m.before, Rows: rows, Selected: sel, Scroll: m.entScroll,
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
	var rows []views.SchemaRow // derive made them (derivepanes.go)
	header := snap.Ser.Name
	if m.cache.schKey.is(schKey{d, upd, field}) {
		rows, header = m.cache.schRows, m.cache.schHeader
	}
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
