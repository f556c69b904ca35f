package ui

import (
	"fmt"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/views"
)

// What-ifs: d on a field opens a picker of other decoders and bit edits;
// the choice re-decodes the message from a snapshot of the entity table
// taken just before it (package diagnose's Case) in a tea.Cmd, and the
// panes show the result beside the original until esc.

// pickItem is one choice of the decoder picker.
type pickItem struct {
	views.PickerItem
	dec    *decoder.Decoder // read the field (or its type) with this decoder
	edit   *entity.WhatIf   // or edit the entity data's bits
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
}

// scope is how far a decoder choice reaches.
type scope uint8

const (
	scopeRead  scope = iota // this one read of the field
	scopeField              // every read of this schema field in the message
	scopeType               // every field of the same type
)

// whatIf is a finished what-if decode of one message.
type whatIf struct {
	cmd, msg int // the message (positions in the index)
	w        entity.WhatIf
	label    string // what was changed, in words
	fix      string // for a search: the engine's explanation
	note     string // how the request had to be adapted, if it was

	orig     *provenance.Message
	origRep  diagnose.Report
	origData []byte
	rec      *provenance.Message
	rep      diagnose.Report
	res      entity.Result
	data     []byte  // the entity data the what-if decoded (edited for a bit edit)
	matched  int     // fields the decoder override applied to
	detail   *Detail // the what-if decode as the entity and schema panes show it

	showOrig bool // x: the panes show the original decode
}

// whatIfRequest is what to run.
type whatIfRequest struct {
	w      entity.WhatIf
	label  string
	search bool
}

type whatIfMsg struct {
	gen uint64
	wi  *whatIf
	err error
}

// caseCache keeps the captured message of the last what-if, so trying
// another decoder on it is a single re-decode. Commands run on other
// goroutines: the mutex serialises them (a Try snapshots the shared table).
type caseCache struct {
	aliases schema.Aliases
	mu      sync.Mutex
	key     [2]int
	c       *diagnose.Case
}

func (cc *caseCache) run(data []byte, cmd, msg int, loc replay.Location, req whatIfRequest) (*whatIf, error) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.c == nil || cc.key != [2]int{cmd, msg} {
		c, err := diagnose.CaptureAtWith(data, loc, cc.aliases)
		if err != nil {
			return nil, err
		}
		cc.c, cc.key = c, [2]int{cmd, msg}
	}
	c := cc.c
	wi := &whatIf{cmd: cmd, msg: msg, w: req.w, label: req.label, orig: c.Record, origRep: c.Report, origData: c.Msg.EntityData}
	if req.search {
		fix, err := c.Locate()
		if err != nil {
			return nil, err
		}
		wi.w, wi.fix, wi.label = fix.WhatIf, fix.Explain, "search: "+fix.Explain
	}
	var after *entity.Table
	wi.res, wi.rec, wi.rep, after = c.TryTable(wi.w)
	if w := wi.w; w.Decoder != nil && w.Occurrence >= 0 && w.Occurrence < len(c.Record.Fields) && !landed(wi.rec, w) {
		// The table numbers every field it decodes in the message, the
		// instance baselines of classes first created in it included, so
		// in such a message an occurrence can miss the record's field.
		// Every read of the schema field is the closest hypothesis.
		if sf := c.Record.Fields[w.Occurrence].Schema; sf != nil {
			wi.w = entity.WhatIf{Occurrence: -1, Field: sf, Decoder: w.Decoder}
			wi.res, wi.rec, wi.rep, after = c.TryTable(wi.w)
			wi.note = fmt.Sprintf("this message decodes instance baselines, which the what-if's field count includes, so one read cannot be singled out: applied to every %s read", sf.Name)
			wi.label += " (every read)"
		}
	}
	wi.data = wi.w.Edit(c.Msg.EntityData)
	wi.detail = &Detail{Cmd: cmd, Msg: msg, Rec: wi.rec, Data: wi.data, Report: wi.rep, Snaps: snapsAfter(wi.rec, after)}
	if wi.w.Decoder != nil {
		for i := range wi.rec.Fields {
			if wi.rec.Fields[i].Decoder == wi.w.Decoder {
				wi.matched++
			}
		}
	}
	return wi, nil
}

// landed reports whether a one-read decoder override reached the field
// it names: the record's field at that position was read with it.
func landed(rec *provenance.Message, w entity.WhatIf) bool {
	return w.Occurrence < len(rec.Fields) && rec.Fields[w.Occurrence].Decoder == w.Decoder
}

// aligns reports whether the what-if decode consumed the data exactly.
func (wi *whatIf) aligns() bool { return !wi.res.Misaligned && wi.res.Err == nil && wi.rec.Err == "" }

// --- the picker ------------------------------------------------------------

// preview decodes the field's bits with another decoder: how many bits it
// reads and the value.
func preview(data []byte, at uint, d *decoder.Decoder) string {
	var r bitio.Reader
	r.Reset(data)
	r.Seek(at)
	v := d.Decode(&r)
	if r.Overflowed() {
		return "reads past the end of the data"
	}
	s := v.String()
	if r := []rune(s); len(r) > 40 {
		s = string(r[:39]) + "…"
	}
	n := r.Pos() - at
	unit := "bits"
	if n == 1 {
		unit = "bit"
	}
	return fmt.Sprintf("%d %s → %s", n, unit, s)
}

// decoderLabel describes a decoder compactly: as Describe, without the
// schema's side of a quantized float.
func decoderLabel(d *decoder.Decoder) string {
	switch {
	case d.Family == decoder.FamQuantized && d.Q != nil:
		s := fmt.Sprintf("quantized float: %d bits, %s … %s", d.Q.Bits, g(float64(d.Q.Low)), g(float64(d.Q.High)))
		if d.Q.Flags != 0 {
			s += ", " + decoder.FlagNames(d.Q.Flags)
		}
		return s
	case d.Family == decoder.FamVector && d.Elem != nil:
		return fmt.Sprintf("vector of %d × %s", d.Components, decoderLabel(d.Elem))
	}
	return d.Describe()
}

// baseType is the type name "every field of this type" matches, as
// entity.WhatIf.Type does: the element type of a variable array.
func baseType(f *provenance.Field) string {
	s := f.Schema
	if s == nil {
		return ""
	}
	if s.Model == schema.VariableArray && s.Type.Generic != nil && f.Decoder == s.Elem {
		return s.Type.Generic.Base
	}
	return s.Type.Base
}

// quantVariants are the field's quantized float with other bit counts and
// without its flags: the same range, the schema read differently.
func quantVariants(q *decoder.Quantized, s *schema.Field) []*decoder.Decoder {
	low, lowSet, high, highSet := q.SchemaLow, true, q.SchemaHigh, true
	flags := q.SchemaFlags
	if s != nil {
		low, lowSet, high, highSet = s.Low, s.LowSet, s.High, s.HighSet
	}
	var out []*decoder.Decoder
	add := func(bits, flags int32) {
		nq, err := decoder.NewQuantized(bits, flags, low, lowSet, high, highSet)
		if err == nil {
			out = append(out, &decoder.Decoder{Family: decoder.FamQuantized, Q: &nq})
		}
	}
	for _, d := range []int32{-2, -1, 1, 2} {
		add(q.SchemaBits+d, flags)
	}
	if flags != 0 {
		add(q.SchemaBits, 0)
	}
	return out
}

// familyVariants are decoders of the field's own family (or a close one)
// with other parameters.
func familyVariants(f *provenance.Field) []*decoder.Decoder {
	d := f.Decoder
	if d == nil {
		return nil
	}
	var out []*decoder.Decoder
	switch d.Family {
	case decoder.FamQuantized:
		if d.Q != nil {
			out = quantVariants(d.Q, f.Schema)
		}
	case decoder.FamVector:
		if d.Elem != nil && d.Elem.Family == decoder.FamQuantized && d.Elem.Q != nil {
			for _, e := range quantVariants(d.Elem.Q, f.Schema) {
				out = append(out, &decoder.Decoder{Family: decoder.FamVector, Components: d.Components, Elem: e})
			}
		}
		for _, n := range []uint8{2, 3, 4} {
			if n != d.Components && d.Elem != nil {
				out = append(out, &decoder.Decoder{Family: decoder.FamVector, Components: n, Elem: d.Elem})
			}
		}
		if d.Elem != nil && d.Elem.Family != decoder.FamCoord {
			out = append(out, &decoder.Decoder{Family: decoder.FamVector, Components: d.Components, Elem: &decoder.Decoder{Family: decoder.FamCoord}})
		}
	case decoder.FamQAngleBits, decoder.FamQAnglePitchYaw:
		for _, b := range []int{-2, -1, 1, 2} {
			if n := int(d.Bits) + b; n >= 1 && n <= 32 {
				out = append(out, &decoder.Decoder{Family: d.Family, Bits: uint8(n)})
			}
		}
		out = append(out, &decoder.Decoder{Family: decoder.FamQAnglePrecise})
	case decoder.FamUnsigned, decoder.FamDefault, decoder.FamUnsigned64, decoder.FamSigned, decoder.FamSigned64,
		decoder.FamUnsignedMinusOne, decoder.FamHandle:
		for _, fam := range []decoder.Family{decoder.FamSigned, decoder.FamSigned64, decoder.FamUnsignedMinusOne, decoder.FamHandle} {
			out = append(out, &decoder.Decoder{Family: fam})
		}
	case decoder.FamNoScale, decoder.FamCoord, decoder.FamSimTime, decoder.FamRuneTime:
		if s := f.Schema; s != nil && s.BitCountSet && s.BitCount > 0 && s.BitCount < 32 {
			if q, err := decoder.NewQuantized(s.BitCount, s.EncodeFlags, s.Low, s.LowSet, s.High, s.HighSet); err == nil {
				out = append(out, &decoder.Decoder{Family: decoder.FamQuantized, Q: &q})
			}
		}
	case decoder.FamString:
		out = append(out, &decoder.Decoder{Family: decoder.FamBinaryBlock})
	}
	return out
}

// newPicker lists the choices for field fi of update u of a decoded message.
func newPicker(d *Detail, u, fi int) *picker {
	up := &d.Rec.Updates[u]
	f := &d.Rec.Fields[up.FirstField+fi]
	p := &picker{
		cmd: d.Cmd, msg: d.Msg, upd: u, field: fi, occ: up.FirstField + fi,
		name: f.Name, typ: baseType(f), schema: f.Schema, entity: fmt.Sprintf("#%d %s", up.Index, up.Class),
	}
	cur := ""
	if f.Decoder != nil {
		cur = decoderLabel(f.Decoder)
	}
	p.cur = cur
	seen := map[string]bool{}
	addDec := func(dec *decoder.Decoder) {
		desc := decoderLabel(dec)
		if seen[desc] {
			return
		}
		seen[desc] = true
		p.items = append(p.items, pickItem{PickerItem: views.PickerItem{
			Label: desc, Detail: preview(d.Data, f.Start, dec), Current: desc == cur,
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
	if vs := familyVariants(f); len(vs) > 0 {
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
	edit := func(label string, w entity.WhatIf) {
		w.Occurrence = -1
		p.items = append(p.items, pickItem{PickerItem: views.PickerItem{Label: label, Detail: "at " + bitio.Offset(w.Bit)}, edit: &w})
	}
	edit("insert a 0 bit before the value", entity.WhatIf{Bit: f.Start, Insert: 1})
	edit("insert a 1 bit before the value", entity.WhatIf{Bit: f.Start, Insert: 1, InsertValue: 1})
	edit("drop the value's first bit", entity.WhatIf{Bit: f.Start, Skip: 1})
	edit("insert a 0 bit before the field-path op", entity.WhatIf{Bit: f.Op.Start, Insert: 1})
	edit("drop the field-path op's first bit", entity.WhatIf{Bit: f.Op.Start, Skip: 1})
	if d.Report.End != nil {
		header("Search")
		p.items = append(p.items, pickItem{PickerItem: views.PickerItem{
			Label: "search for the fix", Detail: "every decoder and bit edit near the first suspect, as dembug check does",
		}, search: true})
	}
	p.cursor = p.next(0, 1)
	if p.items[p.cursor].Current {
		p.cursor = p.next(p.cursor+1, 1) // start on the first alternative
	}
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
func (p *picker) request() whatIfRequest {
	it := p.items[p.cursor]
	switch {
	case it.search:
		return whatIfRequest{search: true, label: "search"}
	case it.edit != nil:
		return whatIfRequest{w: *it.edit, label: fmt.Sprintf("%s of %s (%s)", it.Label, p.name, bitio.Offset(it.edit.Bit))}
	}
	// A decoder of its own: the record tells where the override landed by
	// pointer, and the decoder in use (or a candidate) is shared.
	dec := *it.dec
	w := entity.WhatIf{Decoder: &dec, Occurrence: p.occ}
	label := fmt.Sprintf("%s read as %s", p.name, it.Label)
	switch p.scope {
	case scopeField:
		w.Occurrence, w.Field = -1, p.schema
		label = fmt.Sprintf("every %s read as %s", p.schema.Name, it.Label)
	case scopeType:
		w.Occurrence, w.Type = -1, p.typ
		label = fmt.Sprintf("every %s field read as %s", p.typ, it.Label)
	}
	return whatIfRequest{w: w, label: label}
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
func (m *Model) openPicker() {
	d := m.cur()
	fs := m.curFields()
	if d == nil || m.sel.Field < 0 || m.sel.Field >= len(fs) {
		m.setNote("d needs a field: select an entity update and one of its fields", true)
		return
	}
	m.picker = newPicker(d, m.sel.Upd, m.sel.Field)
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
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Back):
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
func (m *Model) startWhatIf(cmd, msg int, req whatIfRequest) tea.Cmd {
	c, mm := m.ix.Cmd(cmd), m.ix.Msg(cmd, msg)
	if c == nil || mm == nil {
		return nil
	}
	loc := replay.Location{Command: c.Index, Offset: c.Offset, Kind: c.Kind, Tick: c.Tick, Message: mm.Index, MsgType: mm.Type}
	m.wiGen++
	gen, cc, data := m.wiGen, m.cases, m.data
	m.wiPending = true
	m.setNote("running the what-if: "+req.label+"…", false)
	return safe(func() tea.Msg {
		wi, err := cc.run(data, cmd, msg, loc, req)
		return whatIfMsg{gen, wi, err}
	})
}

func (m *Model) onWhatIf(msg whatIfMsg) {
	if msg.gen != m.wiGen {
		return // superseded or left
	}
	m.wiPending = false
	if msg.err != nil {
		m.setNote("what-if: "+msg.err.Error(), true)
		return
	}
	wi := msg.wi
	if m.sel.Cmd != wi.cmd || m.sel.Msg != wi.msg {
		return // the selection moved on meanwhile
	}
	m.wi = wi
	m.wiRowKey = [4]int{-1}
	m.setNote(wi.outcome(), false)
}

// outcome sums a what-if up in one line.
func (wi *whatIf) outcome() string {
	s := "what-if: "
	if wi.aligns() {
		s += "the message aligns"
	} else {
		s += "still misaligned"
	}
	now, _ := strength(&wi.rep)
	was, _ := strength(&wi.origRep)
	s += fmt.Sprintf(" · %d strong anomalies (were %d) · x original/what-if · esc leaves", now, was)
	return s
}

// strength counts a report's anomalies at or above diagnose.Threshold
// (the message-level one included) and below it.
func strength(rep *diagnose.Report) (strong, weak int) {
	count := func(a diagnose.Anomaly) {
		if a.Score >= diagnose.Threshold {
			strong++
		} else {
			weak++
		}
	}
	for _, as := range rep.Anomalies {
		for _, a := range as {
			count(a)
		}
	}
	if rep.End != nil {
		count(*rep.End)
	}
	return strong, weak
}

func (m *Model) leaveWhatIf() {
	m.wi, m.wiPending = nil, false
	m.wiGen++
}

// wiHere returns the what-if when it is the selected message's.
func (m *Model) wiHere() *whatIf {
	if m.wi != nil && m.wi.cmd == m.sel.Cmd && m.wi.msg == m.sel.Msg {
		return m.wi
	}
	return nil
}

// --- the diff ----------------------------------------------------------------

// diffPair matches a field of the original decode (o) with the same field
// of the what-if decode (w), by path, in order; -1 when one side lacks it.
type diffPair struct{ o, w int }

func pairFields(o, w []provenance.Field) []diffPair {
	in := func(f *provenance.Field, fs []provenance.Field) bool {
		for i := range fs {
			if fs[i].Path == f.Path {
				return true
			}
		}
		return false
	}
	var out []diffPair
	i, j := 0, 0
	for i < len(o) || j < len(w) {
		switch {
		case i < len(o) && j < len(w) && o[i].Path == w[j].Path:
			out = append(out, diffPair{i, j})
			i, j = i+1, j+1
		case j < len(w) && (i >= len(o) || !in(&w[j], o[i:])):
			out = append(out, diffPair{-1, j})
			j++
		default:
			out = append(out, diffPair{i, -1})
			i++
		}
	}
	return out
}

// wiUpdate is the what-if's decode of original update u: the update at
// the same position when it is the same entity.
func (wi *whatIf) wiUpdate(u int) int {
	if u < 0 || u >= len(wi.rec.Updates) || u >= len(wi.orig.Updates) || wi.rec.Updates[u].Index != wi.orig.Updates[u].Index {
		return -1
	}
	return u
}

func (wi *whatIf) pairs(u int) []diffPair {
	var o, w []provenance.Field
	if u >= 0 && u < len(wi.orig.Updates) {
		o = wi.orig.UpdateFields(u)
	}
	if wu := wi.wiUpdate(u); wu >= 0 {
		w = wi.rec.UpdateFields(wu)
	}
	return pairFields(o, w)
}

// diffRows draws the pairs of update u for views.DiffTable.
func (wi *whatIf) diffRows(u int, pairs []diffPair) []views.DiffRow {
	rows := make([]views.DiffRow, len(pairs))
	wu := wi.wiUpdate(u)
	for i, p := range pairs {
		r := &rows[i]
		var of, wf *provenance.Field
		if p.o >= 0 {
			of = &wi.orig.Fields[wi.orig.Updates[u].FirstField+p.o]
			r.Orig = of.Value.String()
			r.OrigSev = severity(fieldAnomalies(&wi.origRep, wi.orig.Updates[u].FirstField, p.o))
		} else {
			r.NoOrig = true
		}
		if p.w >= 0 {
			wf = &wi.rec.Fields[wi.rec.Updates[wu].FirstField+p.w]
			r.WhatIf = wf.Value.String()
			r.WhatIfSev = severity(fieldAnomalies(&wi.rep, wi.rec.Updates[wu].FirstField, p.w))
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
			r.Decoder, r.Offset, r.Bits = ShortDecoder(shown.Decoder), bitio.Offset(shown.Start), shown.Bits
		}
	}
	return rows
}

// wiRow is the selected diff row: it follows the selected original field
// until the user moves within the diff.
func (m *Model) wiRow(wi *whatIf) (int, []diffPair) {
	key := [4]int{m.sel.Cmd, m.sel.Msg, m.sel.Upd, m.sel.Field}
	if m.wiPairsFor != wi || m.wiPairsUpd != m.sel.Upd {
		m.wiPairsFor, m.wiPairsUpd, m.wiPairs = wi, m.sel.Upd, wi.pairs(m.sel.Upd)
	}
	if key != m.wiRowKey {
		m.wiRowKey, m.wiRowSel = key, -1
		for i, p := range m.wiPairs {
			if p.o == m.sel.Field && p.o >= 0 {
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
	if p := pairs[row]; p.o >= 0 {
		m.sel.Field = p.o
	}
	m.wiRowKey, m.wiRowSel = [4]int{m.sel.Cmd, m.sel.Msg, m.sel.Upd, m.sel.Field}, row
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
	row, pairs := m.wiRow(wi)
	s := shownMsg{upd: -1, field: -1}
	if wi.showOrig {
		s.rec, s.data, s.rep, s.upd = wi.orig, wi.origData, &wi.origRep, m.sel.Upd
		if row >= 0 && row < len(pairs) {
			s.field = pairs[row].o
		}
	} else {
		s.rec, s.data, s.rep, s.upd, s.whatIf = wi.rec, wi.data, &wi.rep, wi.wiUpdate(m.sel.Upd), true
		if row >= 0 && row < len(pairs) {
			s.field = pairs[row].w
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
func (m *Model) paneDetail() (d *Detail, upd, field int, whatIf bool) {
	d = m.cur()
	wi := m.wiHere()
	if d == nil || wi == nil {
		return d, m.sel.Upd, m.sel.Field, false
	}
	sh, _ := m.shown()
	if wi.showOrig || wi.detail == nil {
		return d, sh.upd, sh.field, false
	}
	return wi.detail, sh.upd, sh.field, true
}

// whatIfSection sums the what-if up for the inspector.
func (wi *whatIf) section(u int, pairs []diffPair) views.InspectorSection {
	l := []views.InspectorLine{{Label: "change", Text: wi.label, Style: views.LineMath}}
	if wi.note != "" {
		l = append(l, views.InspectorLine{Label: "note", Text: wi.note, Style: views.LineWarn})
	}
	if wi.w.Decoder != nil {
		l = append(l, views.InspectorLine{Label: "applied", Text: fmt.Sprintf("to %d field(s) of the message", wi.matched)})
	}
	if wi.aligns() {
		l = append(l, views.InspectorLine{Label: "result", Text: fmt.Sprintf("the message aligns: decoding ends at %s of %s", bitio.Offset(wi.res.EndBit), bitio.Offset(wi.res.DataBits))})
	} else {
		why := wi.rec.Err
		if why == "" && wi.res.Err != nil {
			why = wi.res.Err.Error()
		}
		l = append(l, views.InspectorLine{Label: "result", Text: "still misaligned: " + why, Style: views.LineError})
	}
	was := "aligned"
	switch {
	case wi.origRep.Misaligned && wi.origRep.End != nil:
		was = "misaligned: " + string(wi.origRep.End.Rule)
	case wi.origRep.Misaligned:
		was = "misaligned: " + wi.orig.Err
	}
	l = append(l, views.InspectorLine{Label: "was", Text: was, Style: views.LineDim})
	ns, nw := strength(&wi.rep)
	os, ow := strength(&wi.origRep)
	st := views.LinePlain
	if ns > 0 {
		st = views.LineWarn
	}
	l = append(l, views.InspectorLine{Label: "anomalies", Text: fmt.Sprintf("%d strong, %d weak remain (were %d strong, %d weak)", ns, nw, os, ow), Style: st})
	changed := 0
	for _, p := range pairs {
		if p.o < 0 || p.w < 0 {
			changed++
			continue
		}
		of := &wi.orig.Fields[wi.orig.Updates[u].FirstField+p.o]
		wf := &wi.rec.Fields[wi.rec.Updates[wi.wiUpdate(u)].FirstField+p.w]
		if !of.Value.Equal(wf.Value) {
			changed++
		}
	}
	l = append(l, views.InspectorLine{Label: "values", Text: fmt.Sprintf("%d of %d fields of this update changed; updates %d (were %d)", changed, len(pairs), len(wi.rec.Updates), len(wi.orig.Updates))})
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
