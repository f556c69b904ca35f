package ui

import (
	"cmp"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// What-ifs: d on a field opens a picker of other decoders and bit edits;
// the choice re-decodes the message from a snapshot of the entity table
// taken just before it (package diagnose's Case) in a tea.Cmd, and the
// panes show the result beside the original until esc.

// pickItem is one choice of the decoder picker.
type pickItem struct {
	views.PickerItem
	dec    *session.Decoder // read the field (or its type) with this decoder
	edit   *session.Change  // or edit the entity data's bits
	search bool             // or let diagnose search for the fix
}

// picker is the open decoder picker.
type picker struct {
	cmd, msg, upd, field int // the field it was opened on (original record)
	occ                  int // the field's position in the message's fields
	name, typ            string
	schema               *schema.Field
	cur                  string // the decoder in use, described
	entity               string
	items                []pickItem
	cursor               int
	scope                scope
	// checking is true until the marks of the alignment check arrive.
	checking bool
}

// scope is how far a decoder choice reaches.
type scope uint8

const (
	scopeRead  scope = iota // this one read of the field
	scopeField              // every read of this schema field in the message
	scopeType               // every field of the same type
)

// whatIf is a finished what-if on screen: the decode and which side the
// panes show.
type whatIf struct {
	*session.WhatIf
	showOrig bool // x: the panes show the original decode
}

type whatIfResult struct {
	wi  *session.WhatIf
	err error
}

// --- the picker ------------------------------------------------------------

// newPicker lists the choices for field fi of update u of a decoded message.
func newPicker(d *session.Detail, u, fi int) *picker {
	up := &d.Rec.Updates[u]
	f := &d.Rec.Fields[up.FirstField+fi]
	p := &picker{
		cmd: d.Cmd, msg: d.Msg, upd: u, field: fi, occ: up.FirstField + fi,
		name: f.Name, typ: session.BaseType(f), schema: f.Schema, entity: fmt.Sprintf("#%d %s", up.Index, up.Class),
	}
	cur := ""
	if f.Decoder != nil {
		cur = f.Decoder.Label()
	}
	p.cur = cur
	seen := map[string]bool{}
	addDec := func(dec *session.Decoder) {
		desc := dec.Label()
		if seen[desc] {
			return
		}
		seen[desc] = true
		p.items = append(p.items, pickItem{PickerItem: views.PickerItem{
			Label: desc, Detail: session.Preview(d.Data, f.Start, dec), Current: desc == cur,
		}, dec: dec})
	}
	header := func(s string) {
		p.items = append(p.items, pickItem{PickerItem: views.PickerItem{Label: s, Header: true}})
	}

	header("Decoders")
	if f.Decoder != nil {
		addDec(f.Decoder)
	}
	for _, dec := range diagnose.Candidates {
		addDec(dec)
	}
	if vs := diagnose.FamilyVariants(f); len(vs) > 0 {
		n := len(p.items)
		header("Same family, other parameters")
		for _, dec := range vs {
			addDec(dec)
		}
		if len(p.items) == n+1 {
			p.items = p.items[:n] // every variant was listed already
		}
	}
	header("Bit edits (the data, not the decoder)")
	edit := func(label string, w session.Change) {
		w.Occurrence = -1
		p.items = append(p.items, pickItem{PickerItem: views.PickerItem{Label: label, Detail: "at " + views.Offset(w.Bit)}, edit: &w})
	}
	edit("insert a 0 bit before the value", session.Change{Bit: f.Start, Insert: 1})
	edit("insert a 1 bit before the value", session.Change{Bit: f.Start, Insert: 1, InsertValue: 1})
	edit("drop the value's first bit", session.Change{Bit: f.Start, Skip: 1})
	edit("insert a 0 bit before the field-path op", session.Change{Bit: f.Op.Start, Insert: 1})
	edit("drop the field-path op's first bit", session.Change{Bit: f.Op.Start, Skip: 1})
	if d.Report.End != nil {
		header("Search")
		p.items = append(p.items, pickItem{PickerItem: views.PickerItem{
			Label: "search for the fix", Detail: "every decoder and bit edit near the first suspect, as dembug check does",
		}, search: true})
	}
	p.cursor = p.next(0, 1) // the decoder in use: the list reads from it
	return p
}

// next is the first selectable item from i in direction dir (i itself if
// selectable), or the nearest one the other way.
func (p *picker) next(i, dir int) int {
	for j := i; j >= 0 && j < len(p.items); j += dir {
		if !p.items[j].Header {
			return j
		}
	}
	for j := i; j >= 0 && j < len(p.items); j -= dir {
		if !p.items[j].Header {
			return j
		}
	}
	return 0
}

func (p *picker) move(delta int) {
	dir := 1
	if delta < 0 {
		dir = -1
	}
	p.cursor = p.next(clamp(p.cursor+delta, 0, len(p.items)-1), dir)
}

// request turns the chosen item into a what-if.
func (p *picker) request() session.Request { return p.requestAt(p.cursor, p.scope) }

// requestAt is the what-if of item i under scope sc.
func (p *picker) requestAt(i int, sc scope) session.Request {
	it := p.items[i]
	switch {
	case it.search:
		return session.Request{Search: true, Label: "search"}
	case it.edit != nil:
		return session.Request{Change: *it.edit, Label: fmt.Sprintf("%s of %s (%s)", it.Label, p.name, views.Offset(it.edit.Bit))}
	}
	// A decoder of its own: the record tells where the override landed by
	// pointer, and the decoder in use (or a candidate) is shared.
	dec := *it.dec
	w := session.Change{Decoder: &dec, Occurrence: p.occ}
	label := fmt.Sprintf("%s read as %s", p.name, it.Label)
	switch sc {
	case scopeField:
		w.Occurrence, w.Field = -1, p.schema
		label = fmt.Sprintf("every %s read as %s", p.schema.Name, it.Label)
	case scopeType:
		w.Occurrence, w.Type = -1, p.typ
		label = fmt.Sprintf("every %s field read as %s", p.typ, it.Label)
	}
	return session.Request{Change: w, Label: label}
}

// scopes lists the scopes the field allows, in the order s cycles.
func (p *picker) scopes() []scope {
	out := []scope{scopeRead}
	if p.schema != nil {
		out = append(out, scopeField)
	}
	if p.typ != "" {
		out = append(out, scopeType)
	}
	return out
}

// nextScope moves to the next allowed scope.
func (p *picker) nextScope() {
	ss := p.scopes()
	for i, s := range ss {
		if s == p.scope {
			p.scope = ss[(i+1)%len(ss)]
			return
		}
	}
	p.scope = scopeRead
}

func (p *picker) scopeLine() string {
	box := func(s scope) string {
		if p.scope == s {
			return "[x]"
		}
		return "[ ]"
	}
	parts := []string{box(scopeRead) + " this read only"}
	if p.schema != nil {
		parts = append(parts, box(scopeField)+" every "+p.schema.Name+" read")
	}
	if p.typ != "" {
		parts = append(parts, box(scopeType)+" every "+p.typ+" field")
	}
	return "scope: " + strings.Join(parts, "  ") + "  (s)"
}

// openPicker opens the decoder picker on the selected field.
func (m *Model) openPicker() tea.Cmd {
	d := m.cur()
	fs := m.curFields()
	if d == nil || m.sel.Field < 0 || m.sel.Field >= len(fs) {
		m.setNote("d needs a field: select an entity update and one of its fields", true)
		return nil
	}
	m.picker = newPicker(d, m.sel.Upd, m.sel.Field)
	if d.Report.Misaligned {
		return m.checkAlignments()
	}
	return nil
}

// pickerBox draws the picker for the overlay and says where it goes.
func (m *Model) pickerBox(bodyH int) (box string, x, y int) {
	p := m.picker
	w := min(m.w, max(40, min(84, m.w-8)))
	intro := []string{
		fmt.Sprintf("%s in %s", p.name, p.entity),
		"now: " + p.cur,
		p.scopeLine(),
	}
	if p.checking {
		intro = append(intro, "trying each on this read for one that aligns…")
	}
	h := min(bodyH, len(p.items)+len(intro)+4)
	items := make([]views.PickerItem, len(p.items))
	for i := range p.items {
		items[i] = p.items[i].PickerItem
	}
	box = views.Picker(views.PickerInput{
		Title: "Decode " + p.name + " differently", Intro: intro, Items: items, Selected: p.cursor,
		Footer: "↑↓ choose · enter try · s scope · esc cancel", Width: w, Height: h, Theme: m.theme,
	})
	return box, (m.w - w) / 2, max(0, (bodyH-h)/2)
}

func (m *Model) onPickerKey(msg tea.KeyPressMsg) tea.Cmd {
	k, p := m.keys, m.picker
	switch {
	case key.Matches(msg, k.Back, k.Quit):
		// q closes the picker as it closes help and L (ctrl+c still quits).
		m.picker = nil
	case key.Matches(msg, k.Up):
		p.move(-1)
	case key.Matches(msg, k.Down):
		p.move(1)
	case key.Matches(msg, k.PageUp):
		p.move(-10)
	case key.Matches(msg, k.PageDown):
		p.move(10)
	case key.Matches(msg, k.Home):
		p.cursor = p.next(0, 1)
	case key.Matches(msg, k.End):
		p.cursor = p.next(len(p.items)-1, -1)
	case key.Matches(msg, k.Scope):
		p.nextScope()
	case key.Matches(msg, k.Expand):
		req := p.request()
		m.picker = nil
		return m.startWhatIf(p.cmd, p.msg, req)
	}
	return nil
}

// --- running and leaving ---------------------------------------------------

// startWhatIf runs a what-if on message msg of command cmd in a command.
func (m *Model) startWhatIf(cmd, msg int, req session.Request) tea.Cmd {
	at := session.Ref{Cmd: cmd, Msg: msg, Upd: -1, Field: -1}
	if m.ix.Msg(at.Cmd, at.Msg) == nil {
		return nil
	}
	m.jobs.start(jobWhatIf)
	file := m.file
	m.wiPending = true
	m.setNote("running the what-if: "+req.Label+"…", false)
	return m.run(jobWhatIf, func() any {
		wi, err := file.WhatIf(at, req)
		return whatIfResult{wi, err}
	})
}

func (m *Model) onWhatIf(msg whatIfResult) {
	m.wiPending = false
	if msg.err != nil {
		m.setNote("what-if: "+msg.err.Error(), true)
		return
	}
	wi := &whatIf{WhatIf: msg.wi}
	if m.sel.Cmd != wi.Cmd || m.sel.Msg != wi.Msg {
		return // the selection moved on meanwhile
	}
	m.wi = wi
	m.wiRowKey = session.None
	m.setNote(wi.outcome(), false)
}

// outcome sums a what-if up in one line.
func (wi *whatIf) outcome() string {
	s := "what-if: "
	if wi.Aligns() {
		s += "the message aligns"
	} else {
		s += wi.misalignedWord()
	}
	// Counted as the markers and the inspector count them.
	now, _ := markedStrength(&wi.Rep)
	was, _ := markedStrength(&wi.OrigRep)
	s += fmt.Sprintf(" · %s (were %d) · x original/what-if · esc leaves", views.Count(now, "strong anomaly|strong anomalies"), was)
	return s
}

func (m *Model) leaveWhatIf() {
	m.wi, m.wiPending = nil, false
	m.jobs.start(jobWhatIf)
}

// wiHere returns the what-if when it is the selected message's.
func (m *Model) wiHere() *whatIf {
	if m.wi != nil && m.wi.Cmd == m.sel.Cmd && m.wi.Msg == m.sel.Msg {
		return m.wi
	}
	return nil
}

// --- the diff ----------------------------------------------------------------

// diffRows draws the pairs of update u for views.DiffTable.
func (wi *whatIf) diffRows(u int, pairs []session.Pair) []views.DiffRow {
	rows := make([]views.DiffRow, len(pairs))
	wu := wi.UpdateOf(u)
	for i, p := range pairs {
		r := &rows[i]
		of, wf := wi.Fields(u, p)
		if of != nil {
			r.Orig = of.Value.TextAs(of.Decoder)
			r.OrigSev = severity(wi.OrigRep.FieldAnomalies(wi.Orig.Updates[u].FirstField, p.O))
		} else {
			r.NoOrig = true
		}
		if wf != nil {
			r.WhatIf = wf.Value.TextAs(wf.Decoder)
			r.WhatIfSev = severity(wi.Rep.FieldAnomalies(wi.Rec.Updates[wu].FirstField, p.W))
		} else {
			r.NoWhatIf = true
		}
		r.Changed = of == nil || wf == nil || !of.Value.Equal(wf.Value)
		shown := wf
		if wi.showOrig || shown == nil {
			shown = of
		}
		if wi.showOrig && of == nil {
			shown = wf
		}
		r.Path, r.Name = shown.Path.String(), shown.Name
		if (wi.showOrig && of != nil) || (!wi.showOrig && wf != nil) {
			r.Decoder, r.Offset, r.Bits = shown.Decoder.Short(), views.Offset(shown.Start), shown.Bits
		}
	}
	return rows
}

// wiRowShown is the selected diff row and the pairs of the selected
// update, as derive stored them (-1 and none before it has).
func (m *Model) wiRowShown(wi *whatIf) (int, []session.Pair) {
	if m.wiPairsFor != wi || m.wiPairsUpd != m.sel.Upd || m.wiRowKey != m.sel {
		return -1, nil
	}
	return m.wiRowSel, m.wiPairs
}

// wiRow is the selected diff row: it follows the selected original field
// until the user moves within the diff (derive and the keys keep it).
func (m *Model) wiRow(wi *whatIf) (int, []session.Pair) {
	key := m.sel
	if m.wiPairsFor != wi || m.wiPairsUpd != m.sel.Upd {
		m.wiPairsFor, m.wiPairsUpd, m.wiPairs = wi, m.sel.Upd, wi.Pairs(m.sel.Upd)
	}
	if key != m.wiRowKey {
		m.wiRowKey, m.wiRowSel = key, -1
		for i, p := range m.wiPairs {
			if p.O == m.sel.Field && p.O >= 0 {
				m.wiRowSel = i
				break
			}
		}
		if m.wiRowSel < 0 && len(m.wiPairs) > 0 {
			m.wiRowSel = 0
		}
	}
	return m.wiRowSel, m.wiPairs
}

// moveDiffRow moves the selection within the diff; the original field
// follows when the row has one.
func (m *Model) moveDiffRow(wi *whatIf, delta int) {
	row, pairs := m.wiRow(wi)
	if len(pairs) == 0 {
		return
	}
	row = clamp(row+delta, 0, len(pairs)-1)
	if p := pairs[row]; p.O >= 0 {
		m.sel.Field = p.O
	}
	m.wiRowKey, m.wiRowSel = m.sel, row
	m.inspScroll = 0
}

// shownMsg is the decode the fields, bitstream and inspector panes draw:
// the loaded message, or under a what-if the side x selects.
type shownMsg struct {
	rec    *provenance.Message
	data   []byte
	rep    *diagnose.Report
	upd    int // update in rec, -1 when that decode has none for the selection
	field  int // field within the update, -1 for none
	whatIf bool
}

func (m *Model) shown() (shownMsg, bool) {
	d := m.cur()
	if d == nil {
		return shownMsg{}, false
	}
	wi := m.wiHere()
	if wi == nil {
		return shownMsg{rec: d.Rec, data: d.Data, rep: &d.Report, upd: m.sel.Upd, field: m.sel.Field}, true
	}
	row, pairs := m.wiRowShown(wi)
	s := shownMsg{upd: -1, field: -1}
	if wi.showOrig {
		s.rec, s.data, s.rep, s.upd = wi.Orig, wi.OrigData, &wi.OrigRep, m.sel.Upd
		if row >= 0 && row < len(pairs) {
			s.field = pairs[row].O
		}
	} else {
		s.rec, s.data, s.rep, s.upd, s.whatIf = wi.Rec, wi.Data, &wi.Rep, wi.UpdateOf(m.sel.Upd), true
		if row >= 0 && row < len(pairs) {
			s.field = pairs[row].W
		}
	}
	if s.upd < 0 || s.upd >= len(s.rec.Updates) {
		s.upd, s.field = -1, -1
	}
	return s, true
}

// paneDetail is the decode the entity and schema panes show, and the update
// and field selected in it: while a what-if of this message is on screen,
// the side it shows (x toggles), with the field of the diff row selected.
func (m *Model) paneDetail() (d *session.Detail, upd, field int, whatIf bool) {
	d = m.cur()
	wi := m.wiHere()
	if d == nil || wi == nil {
		return d, m.sel.Upd, m.sel.Field, false
	}
	sh, _ := m.shown()
	if wi.showOrig || wi.Detail == nil {
		return d, sh.upd, sh.field, false
	}
	return wi.Detail, sh.upd, sh.field, true
}

// whatIfSection sums the what-if up for the inspector.
func (wi *whatIf) section(u int, pairs []session.Pair) views.InspectorSection {
	l := []views.InspectorLine{{Label: "change", Text: wi.Label, Style: views.LineMath}}
	if wi.Note != "" {
		l = append(l, views.InspectorLine{Label: "note", Text: wi.Note, Style: views.LineWarn})
	}
	if wi.Change.Decoder != nil {
		l = append(l, views.InspectorLine{Label: "applied", Text: fmt.Sprintf("to %s of the message", views.Count(wi.Matched, "field"))})
	}
	if wi.Aligns() {
		l = append(l, views.InspectorLine{Label: "result", Text: fmt.Sprintf("the message aligns: decoding ends at %s of %s", views.Offset(wi.Res.EndBit), views.Offset(wi.Res.DataBits))})
	} else {
		why := ""
		if err := cmp.Or(wi.Rec.Err, wi.Res.Err); err != nil {
			why = err.Error()
		}
		l = append(l, views.InspectorLine{Label: "result", Text: wi.misalignedWord() + ": " + why, Style: views.LineError})
	}
	was := "aligned"
	switch {
	case wi.OrigRep.Misaligned && wi.OrigRep.End != nil:
		was = "misaligned: " + string(wi.OrigRep.End.Rule)
	case wi.OrigRep.Misaligned:
		was = "misaligned: " + wi.Orig.Err.Error()
	}
	l = append(l, views.InspectorLine{Label: "was", Text: was, Style: views.LineDim})
	ns, nw := markedStrength(&wi.Rep)
	os, ow := markedStrength(&wi.OrigRep)
	st := views.LinePlain
	if ns > 0 {
		st = views.LineWarn
	}
	l = append(l, views.InspectorLine{Label: "anomalies", Text: fmt.Sprintf("%d strong, %d weak in the what-if; the original had %d strong, %d weak", ns, nw, os, ow), Style: st})
	changed := wi.Changed(u, pairs)
	l = append(l, views.InspectorLine{Label: "values", Text: fmt.Sprintf("%d of %s of this update changed; updates %d (were %d)", changed, views.Count(len(pairs), "field"), len(wi.Rec.Updates), len(wi.Orig.Updates))})
	side := "the what-if decode · x shows the original · esc leaves"
	if wi.showOrig {
		side = "the original decode · x shows the what-if · esc leaves"
	}
	l = append(l, views.InspectorLine{Label: "showing", Text: side, Style: views.LineDim})
	return views.InspectorSection{Title: "What-if", Lines: l}
}

// sideName names the decode the panes show.
func (wi *whatIf) sideName() string {
	if wi.showOrig {
		return "original"
	}
	return "what-if"
}
