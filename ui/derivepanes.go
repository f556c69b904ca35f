package ui

import (
	"fmt"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// derivePanes makes what the fields, bitstream, entity and inspector panes
// draw for the selection, after each Update (derive): the View only reads
// it. Each is kept under its key (memo.go) and made again when the key
// changes or the data is dropped.
func (m *Model) derivePanes() {
	m.deriveFields()
	m.deriveSpans()
	m.deriveEntity()
	m.deriveSchema()
	m.deriveInspector() // inspector.go
}

// deriveSchema makes the schema pane's rows: the serializer of the
// entity the update shown wrote, the selected field's path open.
func (m *Model) deriveSchema() {
	d, upd, field, _ := m.paneDetail()
	if d == nil || upd < 0 || upd >= len(d.Snaps) || d.Snaps[upd].Ser == nil {
		return
	}
	key := schKey{d, upd, field}
	if m.cache.schKey.is(key) {
		return
	}
	snap := &d.Snaps[upd]
	var sel *session.Path
	if fs := d.Rec.UpdateFields(upd); field >= 0 && field < len(fs) {
		p := fs[field].Path
		sel = &p
	}
	m.cache.schKey.set(key)
	m.cache.schRows = schemaRows(snap.Ser, snap.After, sel)
	m.cache.schHeader = fmt.Sprintf("%s · %s (%d with nested)", snap.Ser.Name, views.Count(len(snap.Ser.Fields), "field"), countFields(snap.Ser, 0))
}

// deriveFields makes the fields pane's rows of the selected update.
func (m *Model) deriveFields() {
	d := m.cur()
	if d == nil || m.sel.Upd < 0 || m.sel.Upd >= len(d.Rec.Updates) || m.wiHere() != nil {
		return
	}
	key := fieldsKey{d, m.sel.Update()}
	if m.cache.fieldsKey.is(key) {
		return
	}
	m.cache.fieldsKey.set(key)
	fs := d.Rec.UpdateFields(m.sel.Upd)
	m.cache.fields = fieldRows(fs, &d.Report, d.Rec.Updates[m.sel.Upd].FirstField, m.unmuted)
	m.markVerdicts(m.cache.fields, fs)
}

// deriveSpans marks the bitstream's spans of the update shown (the file's
// decode or the what-if's).
func (m *Model) deriveSpans() {
	sh, ok := m.shown()
	if !ok || sh.upd < 0 || sh.upd >= len(sh.rec.Updates) {
		return
	}
	key := spansKey{sh.rec, sh.upd}
	if m.cache.spansKey.is(key) {
		return
	}
	m.cache.spansKey.set(key)
	m.cache.spans, m.cache.valueSpan, m.cache.header = updateSpans(sh.rec, sh.upd)
}

// entityKey is the entity pane's key for update upd of d, after or before
// it.
func (m *Model) entityKey(d *session.Detail, upd int) entKey {
	return entKey{d, session.Ref{Cmd: m.sel.Cmd, Msg: m.sel.Msg, Upd: upd, Field: -1}, m.before}
}

// deriveEntity makes the entity pane's rows: the state of the entity the
// update shown wrote, after it or before it (b).
func (m *Model) deriveEntity() {
	d, upd, _, _ := m.paneDetail()
	if d == nil || upd < 0 || upd >= len(d.Snaps) || d.Snaps[upd].After == nil {
		return
	}
	key := m.entityKey(d, upd)
	if m.cache.entKey.is(key) {
		return
	}
	snap := &d.Snaps[upd]
	state := snap.After
	if m.before {
		state = d.Before(upd)
	}
	written := map[session.Path]bool{}
	for _, f := range d.Rec.UpdateFields(upd) {
		written[normPath(f.Path)] = true
	}
	m.cache.entKey.set(key)
	m.cache.entRows, m.cache.entAt = entityRows(snap.Ser, state, written)
}
