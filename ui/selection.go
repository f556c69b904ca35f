package ui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// --- selection -----------------------------------------------------------

// expanded reports whether a row shows its children: expanded by the
// user or to show the selection, or a packet holding an event the filter
// keeps (eventfilter.go).
func (m *Model) expanded(k expKey) bool {
	return m.userExp[k] || m.autoExp[k] || k.msg == -1 && m.eventsShown(int(k.cmd))
}

// rebuild lists the visible timeline rows and puts the cursor back on the
// selection.
func (m *Model) rebuild() {
	ix := m.ix
	rows := &m.rows
	rows.reset()
	// The expanded commands, in order: a few, against hundreds of
	// thousands of commands in a long replay.
	var exp []int32
	for _, ks := range []map[expKey]bool{m.userExp, m.autoExp} {
		for k, on := range ks {
			if on && k.msg == -1 {
				exp = append(exp, k.cmd)
			}
		}
	}
	slices.Sort(exp)
	for ci := range ix.Commands {
		if m.filter != nil && !m.filterCmd[ci] {
			continue
		}
		c := &ix.Commands[ci]
		rows.add(tlRow{views.RowCommand, int32(ci), -1, -1})
		for len(exp) > 0 && exp[0] < int32(ci) {
			exp = exp[1:]
		}
		// (events show under a filter only: no call per command of a long
		// replay without one)
		if (len(exp) == 0 || exp[0] != int32(ci)) && (m.filter == nil || !m.eventsShown(ci)) {
			continue
		}
		for mi := range c.Msgs() {
			pe := c.Msgs()[mi].PE
			if m.filter != nil && !m.keepsMessage(ci, mi) {
				continue
			}
			rows.add(tlRow{views.RowMessage, int32(ci), int32(mi), -1})
			if pe == nil || !m.expanded(expKey{int32(ci), int32(mi)}) {
				continue
			}
			for ui := range pe.Updates {
				if m.filter != nil && !m.filterUpd[pe.First+ui] {
					continue
				}
				rows.add(tlRow{views.RowUpdate, int32(ci), int32(mi), int32(ui)})
			}
		}
	}
	m.appendEnd()
	m.cursor = m.rowOf(m.sel)
}

// appendRows adds the rows of the commands from on, just indexed: during
// the index pass nothing else changes the rows (a filter waits for the
// pass to end; a new command is never expanded), so the timeline grows
// without being listed again (a 100 MB replay has 204,018 commands).
func (m *Model) appendRows(from int) {
	if last, ok := m.rows.Last(); m.filter != nil || from == 0 || !ok || isEnd(last.kind) || from > len(m.ix.Commands) {
		m.rebuild()
		return
	}
	for ci := from; ci < len(m.ix.Commands); ci++ {
		if m.expanded(expKey{int32(ci), -1}) {
			m.rebuild()
			return
		}
		m.rows.add(tlRow{views.RowCommand, int32(ci), -1, -1})
	}
	m.appendEnd()
	m.cursor = m.rowOf(m.sel)
}

// appendEnd adds the row after the last command, if there is one: where
// decoding stopped, or the note about how the file ends (not under a
// filter).
func (m *Model) appendEnd() {
	if m.ix.Err != nil {
		m.rows.add(tlRow{views.RowError, -1, -1, -1})
	} else if m.ix.EndNote != "" && m.filter == nil {
		m.rows.add(tlRow{views.RowNote, -1, -1, -1})
	}
}

// isEnd reports whether a row is the one after the last command: where
// decoding stopped, or a note about how the file ends.
func isEnd(k views.RowKind) bool { return k == views.RowError || k == views.RowNote }

func (m *Model) anyFiltered(first, n int) bool {
	for k := first; k < first+n && k < len(m.filterUpd); k++ {
		if m.filterUpd[k] {
			return true
		}
	}
	return false
}

// rowOf finds the row showing s (or its nearest visible ancestor).
func (m *Model) rowOf(s session.Ref) int {
	if s.IsEnd() {
		if last, ok := m.rows.Last(); ok && isEnd(last.kind) {
			return m.rows.Len() - 1
		}
	}
	best := -1
	lo := m.rows.firstAtOrAfter(int32(s.Cmd))
	for i := lo; i < m.rows.Len() && m.rows.At(i).cmd == int32(s.Cmd); i++ {
		r := m.rows.At(i)
		switch {
		case r.msg == -1:
			best = i
		case r.msg == int32(s.Msg) && r.upd == -1:
			best = i
		case r.msg == int32(s.Msg) && r.upd == int32(s.Upd):
			return i
		}
	}
	if best < 0 && m.rows.Len() > 0 {
		best = min(max(0, lo), m.rows.Len()-1)
	}
	return best
}

// selFromRow makes the cursor row the selection.
func (m *Model) selFromRow() tea.Cmd {
	if m.cursor < 0 || m.cursor >= m.rows.Len() {
		return nil
	}
	r := m.rows.At(m.cursor)
	if isEnd(r.kind) {
		m.setSel(session.End)
		return nil
	}
	s := session.Ref{Cmd: int(r.cmd), Msg: int(r.msg), Upd: int(r.upd), Field: -1}
	if s.Upd >= 0 {
		if s.Cmd == m.sel.Cmd && s.Msg == m.sel.Msg && s.Upd == m.sel.Upd {
			s.Field = m.sel.Field
		} else if u := m.ix.Update(s.Cmd, s.Msg, s.Upd); u != nil && u.Fields() > 0 {
			s.Field = 0
		}
	}
	m.setSel(s)
	return m.ensureDetail()
}

func (m *Model) setSel(s session.Ref) {
	if s.Cmd != m.sel.Cmd || s.Msg != m.sel.Msg || s.Upd != m.sel.Upd {
		m.entScroll, m.schScroll = 0, 0
	}
	if (m.wi != nil || m.wiPending) && (s.Cmd != m.sel.Cmd || s.Msg != m.sel.Msg) {
		m.leaveWhatIf() // a what-if belongs to one message
	}
	if s != m.sel {
		m.inspScroll = 0
	}
	m.sel = s
}

// reveal selects s, expanding its packet and message in the timeline.
func (m *Model) reveal(s session.Ref) tea.Cmd {
	m.jumps.record(m.sel, s)
	m.autoExp = map[expKey]bool{}
	if s.Cmd >= 0 {
		m.autoExp[expKey{int32(s.Cmd), -1}] = true
		if s.Msg >= 0 {
			m.autoExp[expKey{int32(s.Cmd), int32(s.Msg)}] = true
		}
	}
	if m.filter != nil && s.Upd >= 0 {
		if k := m.ix.FlatOf(s); k < 0 || !m.filterUpd[k] {
			m.clearFilter()
			m.setNote("filter cleared to show the target", false)
		}
	}
	m.setSel(s)
	m.rebuild()
	m.follow()
	return m.ensureDetail()
}

// jump selects update k of the flat update list: its first field, or
// under a filter the field the filter found.
func (m *Model) jump(k int) tea.Cmd {
	s := m.ix.Ref(k)
	if u := m.ix.Update(s.Cmd, s.Msg, s.Upd); u != nil && u.Fields() > 0 {
		s.Field = 0
		if m.filter != nil && k < len(m.filterField) {
			s.Field = int(m.filterField[k])
		}
	}
	return m.reveal(s)
}

// flatPos is the flat index of the selected update, or where the next one
// would be (as a half position: the index of the first update after the
// selection, minus a half, expressed as (k, exact)).
func (m *Model) flatPos() (k int, exact bool) {
	if m.sel.Upd >= 0 {
		if f := m.ix.FlatOf(m.sel); f >= 0 {
			return f, true
		}
	}
	if m.sel.IsEnd() || m.sel.Cmd >= len(m.ix.Commands) {
		return m.ix.NumUpdates(), false
	}
	if m.sel.Cmd < 0 {
		return 0, false
	}
	c := &m.ix.Commands[m.sel.Cmd]
	k = c.First
	if m.sel.Msg >= 0 {
		for j := 0; j < m.sel.Msg && j < len(c.Msgs()); j++ {
			if pe := c.Msgs()[j].PE; pe != nil {
				k = pe.First + len(pe.Updates)
			}
		}
	}
	return k, false
}

func (m *Model) stepUpdate(dir int) tea.Cmd {
	n := m.ix.NumUpdates()
	if n == 0 {
		m.setNote("no entity update yet", false)
		return nil
	}
	k, exact := m.flatPos()
	if dir > 0 && exact {
		k++
	}
	if dir < 0 {
		k--
	}
	for k >= 0 && k < n && m.filter != nil && !m.filterUpd[k] {
		k += dir
	}
	if e := m.nextKeptEvent(m.placeOf(m.sel), dir); m.nearerEvent(e, k, dir) {
		return m.reveal(m.eventRef(e))
	}
	if k < 0 || k >= n {
		if dir > 0 {
			m.setNote("last entity update", false)
		} else {
			m.setNote("first entity update", false)
		}
		return nil
	}
	return m.jump(k)
}

func (m *Model) stepPacket(dir int) tea.Cmd {
	c := m.sel.Cmd
	if m.sel.IsEnd() {
		c = len(m.ix.Commands)
	}
	for i := c + dir; i >= 0 && i < len(m.ix.Commands); i += dir {
		if m.ix.Commands[i].Kind.HasPackets() && (m.filter == nil || m.filterCmd[i]) {
			return m.reveal(session.Ref{Cmd: i, Msg: -1, Upd: -1, Field: -1})
		}
	}
	m.setNote("no more packets", false)
	return nil
}

// gotoTick selects the first update at or after tick t, or the first
// command there when no update follows: binary searches over the commands.
func (m *Model) gotoTick(t int) tea.Cmd {
	i := m.ix.CommandAtTick(int32(t))
	if i < 0 {
		m.setNote(m.pastLastTick(t), true)
		return nil
	}
	if k := m.ix.Commands[i].First; k < m.ix.NumUpdates() {
		return m.jump(k)
	}
	return m.reveal(session.Ref{Cmd: i, Msg: -1, Upd: -1, Field: -1})
}

// gotoEntity selects the next update of entity e after the selection,
// wrapping: a walk over the index's compact updates.
func (m *Model) gotoEntity(e int) tea.Cmd {
	k, exact := m.flatPos()
	if !exact {
		k--
	}
	// One walk: the entity's first update after the selection, its first
	// in the file (where the search wraps to), and how many it has before
	// and in all.
	after, first, before, total := -1, -1, 0, 0
	for ci := range m.ix.Commands {
		c := &m.ix.Commands[ci]
		for j := range c.Msgs() {
			pe := c.Msgs()[j].PE
			if pe == nil {
				continue
			}
			for u := range pe.Updates {
				if int(pe.Updates[u].Entity) != e {
					continue
				}
				fk := pe.First + u
				total++
				if first < 0 {
					first = fk
				}
				if fk <= k {
					before++
				} else if after < 0 {
					after = fk
				}
			}
		}
	}
	switch {
	case total == 0 && (e < 0 || e >= session.MaxEntities):
		m.setNote(fmt.Sprintf("no entity %d: entity indexes run 0…%d", e, session.MaxEntities-1), true)
		return nil
	case total == 0:
		m.setNote(fmt.Sprintf("entity %d is never updated", e), true)
		return nil
	}
	found, nth, wrap := after, before+1, ""
	if after < 0 {
		found, nth, wrap = first, 1, " (wrapped to the start)"
	}
	cmd := m.jump(found)
	m.setNote(fmt.Sprintf("entity %d: update %d of %d%s", e, nth, total, wrap), false)
	return cmd
}

// doSearch starts a search for the next update after the selection whose
// class or a field name matches q; it runs off the loop (background.go).
func (m *Model) doSearch(q string) tea.Cmd {
	q = strings.TrimSpace(q)
	if q == "" {
		q = m.lastSearch // "/" enter on the empty prompt: the next match
	}
	if q == "" {
		return nil
	}
	m.lastSearch = q
	m.cancelScan()
	if cmd, ok := m.searchEvent(q); ok {
		return cmd
	}
	return m.startScan(q, false)
}

// applyFilterHits installs a finished filter scan.
func (m *Model) applyFilterHits(j *scanJob) tea.Cmd {
	n := m.ix.NumUpdates()
	upd, field, cmds := make([]bool, n), make([]uint16, n), make([]bool, len(m.ix.Commands))
	count := 0
	for _, h := range j.hits {
		k := m.ix.FlatOf(h)
		if k < 0 {
			continue
		}
		upd[k], field[k], cmds[h.Cmd] = true, uint16(min(h.Field, 1<<16-1)), true
		count++
	}
	events, names := m.filterEvents(j.mt, cmds)
	if count == 0 && events == 0 {
		m.setNote(m.noMatchNote(j.q, j.mt, fmt.Sprintf("no update touches a field or class, and no game event's name, matching %q", j.q)+m.definedUnsent(j.mt)), true)
		return nil
	}
	m.filter, m.filterText, m.filterUpd, m.filterField, m.filterCmd = j.mt, j.q, upd, field, cmds
	for k, on := range m.userExp {
		if !on {
			delete(m.userExp, k) // collapsed before: the filter's events show
		}
	}
	note := filterNote(j.q, count, events, names)
	if k := m.ix.FlatOf(m.sel); k >= 0 && m.filterUpd[k] || m.sel.Upd < 0 && m.keepsEvent(m.ix.Event(m.sel.Cmd, m.placeOf(m.sel).inner)) {
		m.rebuild()
		m.follow()
		m.setNote(note, false)
		return nil
	}
	cmd, _ := m.firstKept(0, 0)
	m.setNote(note, false)
	return cmd
}

// setFilter starts the scan behind a filter (an empty query clears it).
func (m *Model) setFilter(q string) tea.Cmd {
	q = strings.TrimSpace(q)
	if q == "" {
		m.clearFilter()
		m.rebuild()
		m.follow()
		m.setNote("filter cleared", false)
		return nil
	}
	if !m.ix.Done {
		m.setNote("a filter needs the whole index: still indexing", true)
		return nil
	}
	m.cancelScan()
	return m.startScan(q, true)
}

func (m *Model) clearFilter() {
	m.filter, m.filterText, m.filterUpd, m.filterField, m.filterCmd = nil, "", nil, nil, nil
}

// ensureDetail requests the decode of the selected packet-entities
// message unless it is loaded or on its way.
func (m *Model) ensureDetail() tea.Cmd {
	msg := m.ix.Msg(m.sel.Cmd, m.sel.Msg)
	if msg == nil || msg.PE == nil {
		return m.ensureWalk(msg)
	}
	key := m.sel.Message()
	if m.detail != nil && m.detail.Cmd == key.Cmd && m.detail.Msg == key.Msg {
		return nil
	}
	if m.loading && m.loadKey == key {
		return nil
	}
	gen := m.jobs.start(jobDetail)
	m.dec.Supersede(gen.n)
	m.loading, m.loadKey, m.loadErr = true, key, ""
	dec := m.dec
	return m.run(jobDetail, func() any {
		return withSeekRoom(func() any {
			det, err := dec.Load(gen.n, key)
			return detailResult{det, err}
		})
	})
}

// cur returns the loaded detail when it is the selected message's.
func (m *Model) cur() *session.Detail {
	if m.detail != nil && m.detail.Cmd == m.sel.Cmd && m.detail.Msg == m.sel.Msg {
		return m.detail
	}
	return nil
}

// curFields returns the selected update's recorded fields.
func (m *Model) curFields() []provenance.Field {
	d := m.cur()
	if d == nil || m.sel.Upd < 0 || m.sel.Upd >= len(d.Rec.Updates) {
		return nil
	}
	return d.Rec.UpdateFields(m.sel.Upd)
}

func (m *Model) moveField(delta int) {
	if m.walkMove(delta) {
		return
	}
	if _, ok := m.wireShown(); ok {
		if n := len(m.cache.wire); n > 0 {
			m.wireSel = clamp(m.wireSel+delta, 0, n-1)
		}
		return
	}
	if wi := m.wiHere(); wi != nil {
		m.moveDiffRow(wi, delta)
		return
	}
	fs := m.curFields()
	if len(fs) == 0 {
		return
	}
	f := m.sel.Field + delta
	f = clamp(f, 0, len(fs)-1)
	if f != m.sel.Field {
		m.sel.Field = f
		m.inspScroll = 0
	}
}
