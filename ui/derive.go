package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// derive brings what the panes show up to date with the model after every
// message Update handles: the wire tree of a selected command body or
// inner message, a selected string-table message's entries (read off the
// loop: derive returns the command, Update runs it), the what-if diff's
// pairs and selected row, and every pane's rows and sections
// (derivePanes). The View reads what derive stored and changes nothing;
// each result is kept with the key it was derived from and derived again
// when that key changes.
func (m *Model) derive() tea.Cmd {
	m.deriveWire()
	table := m.deriveTable()
	m.deriveFraming()
	if wi := m.wiHere(); wi != nil {
		key, of, upd := m.wiRowKey, m.wiPairsFor, m.wiPairsUpd
		m.wiRow(wi)
		if key != m.wiRowKey || of != m.wiPairsFor || upd != m.wiPairsUpd {
			m.cache.inspKey.drop() // made, if at all, before the pairs were
		}
	}
	m.derivePanes()
	return table
}

// wireTarget is the selected command body or inner message whose wire
// tree the fields pane shows: not a string-table message with its bit
// walk (a packet-entities message's entity_data opens into its updates,
// wirepe.go).
func (m *Model) wireTarget() (key session.Ref, c *session.Command, msg *session.Message, ok bool) {
	if m.walkHere() != nil {
		return key, nil, nil, false
	}
	s := m.sel
	if s.IsEnd() || s.Cmd < 0 || s.Upd >= 0 {
		return key, nil, nil, false
	}
	if c = m.ix.Cmd(s.Cmd); c == nil {
		return key, nil, nil, false
	}
	idx := -1
	if msg = m.ix.Msg(s.Cmd, s.Msg); msg != nil {
		idx = s.Msg
	}
	return session.Ref{Cmd: s.Cmd, Msg: idx, Upd: -1, Field: -1}, c, msg, true
}

// deriveWire reads the wire tree of the selection when it changed.
func (m *Model) deriveWire() {
	key, c, msg, ok := m.wireTarget()
	if !ok || m.cache.wireKey.is(key) {
		return
	}
	name, idx := c.Kind.String(), key.Msg
	if msg != nil {
		name = msg.Name
	}
	m.cache.wireKey.set(key)
	m.cache.wire, m.cache.wireNote, m.wireSel = nil, "", 0
	body, err := m.file.Body(c, idx)
	m.wireBody = body
	var rows []session.WireRow
	if bare, ok := m.file.CaptureRows(c.Kind, idx, body); ok && err == nil {
		rows = bare
	} else if err == nil {
		rows, err = session.WireRows(name, body)
	}
	if err == nil {
		rows = m.sendTablesRows(c, msg, body, rows)
	}
	if err != nil {
		m.cache.wireNote = err.Error()
	}
	if msg != nil {
		rows = session.EventWireRows(rows, m.ix.Event(key.Cmd, msg.Index))
		rows = m.peWireRows(c, msg, rows)
	}
	for _, r := range rows {
		m.cache.wire = append(m.cache.wire, views.WireLine{Depth: r.Depth, Field: r.Field, Name: r.Name, Type: r.Type, Offset: r.Offset, Len: r.Len, Value: r.Value})
	}
	if msg != nil {
		name += fmt.Sprintf(" · %d bytes", msg.Size)
	} else {
		name += fmt.Sprintf(" · %d bytes", len(body))
	}
	m.wireTitle = name
}
