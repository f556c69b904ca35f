package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// peWireRows completes a svc_PacketEntities message's wire tree: its
// entity_data row says where the entity data starts (the bit of the
// packet, the file byte) and that enter opens it into the update walk.
func (m *Model) peWireRows(c *session.Command, msg *session.Message, rows []session.WireRow) []session.WireRow {
	if msg == nil || msg.PE == nil {
		return rows
	}
	for i := range rows {
		r := &rows[i]
		if r.Depth != 0 || r.Field != 7 {
			continue
		}
		where := ""
		if ed, ok, err := m.file.EntityDataAt(c, msg.Index); err == nil && ok {
			where = "; " + ed.Where()
		}
		r.Value = fmt.Sprintf("%s%s; %s: enter opens the first", r.Value, where, views.Count(len(msg.PE.Updates), "update"))
	}
	return rows
}

// peWire reports whether the wire tree shown is a packet-entities
// message's (the bitstream pane keeps its entity data).
func (m *Model) peWire() bool {
	_, _, msg, ok := m.wireTarget()
	return ok && msg != nil && msg.PE != nil
}

// wireOpen acts on the wire tree's selected row for enter (and →): a
// packet-entities message's entity_data opens into the update walk at the
// message's first update, as → on the message does in the timeline.
func (m *Model) wireOpen(right bool) (tea.Cmd, bool) {
	if _, ok := m.wireShown(); !ok || m.wireSel < 0 || m.wireSel >= len(m.cache.wire) {
		return nil, false
	}
	l := m.cache.wire[m.wireSel]
	key, _, msg, _ := m.wireTarget()
	if msg != nil && msg.PE != nil && l.Depth == 0 && l.Field == 7 {
		if len(msg.PE.Updates) == 0 {
			m.setNote("this message has no entity updates", false)
			return nil, true
		}
		return m.reveal(session.Ref{Cmd: key.Cmd, Msg: key.Msg, Upd: 0, Field: -1}), true
	}
	return m.sendTablesOpen(l, right)
}
