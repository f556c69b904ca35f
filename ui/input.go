package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/views"
)

// --- input ---------------------------------------------------------------

func (m *Model) setNote(s string, isErr bool) { m.note, m.noteErr = s, isErr }

func (m *Model) layout() layout {
	return computeLayout(m.w, max(0, m.h-1), m.focus, m.lastA, m.lastB)
}

// tlHeight is the number of timeline rows shown.
func (m *Model) tlHeight() int {
	l := m.layout()
	if l.visible[paneTimeline] {
		return max(1, l.rects[paneTimeline].h-3)
	}
	return max(1, m.h-4)
}

// follow scrolls the timeline so the cursor stays in view.
func (m *Model) follow() {
	h := m.tlHeight()
	if m.cursor < m.tlTop {
		m.tlTop = m.cursor
	} else if m.cursor >= m.tlTop+h {
		m.tlTop = m.cursor - h + 1
	}
	m.tlTop = max(0, min(m.tlTop, m.rows.Len()-h))
}

func (m *Model) moveCursor(to int) tea.Cmd {
	if m.rows.Len() == 0 {
		return nil
	}
	to = clamp(to, 0, m.rows.Len()-1)
	if to == m.cursor {
		return nil
	}
	m.cursor = to
	m.follow()
	return m.selFromRow()
}

func (m *Model) pageSize(p pane) int {
	l := m.layout()
	if l.visible[p] {
		return max(1, l.rects[p].h-3)
	}
	return 10
}

func (m *Model) cycleFocus(dir int) {
	m.focus = pane((int(m.focus) + dir + int(numPanes)) % int(numPanes))
	if groupA(m.focus) {
		m.lastA = m.focus
	}
	if groupB(m.focus) {
		m.lastB = m.focus
	}
	m.follow()
}

func (m *Model) toggleRow() tea.Cmd {
	if m.cursor < 0 || m.cursor >= m.rows.Len() {
		return nil
	}
	r := m.rows.At(m.cursor)
	if r.kind == views.RowUpdate || isEnd(r.kind) {
		return nil
	}
	k := expKey{r.cmd, r.msg}
	if m.expanded(k) {
		m.userExp[k] = false // false, not deleted: a filter's events stay hidden too
		delete(m.autoExp, k)
	} else {
		m.userExp[k] = true
	}
	m.rebuild()
	m.follow()
	return nil
}

func (m *Model) expandable(r tlRow) bool {
	switch r.kind {
	case views.RowCommand:
		return len(m.ix.Commands[r.cmd].Msgs()) > 0
	case views.RowMessage:
		pe := m.ix.Commands[r.cmd].Msgs()[r.msg].PE
		return pe != nil && len(pe.Updates) > 0
	}
	return false
}

func (m *Model) timelineLeft() tea.Cmd {
	if m.cursor < 0 || m.cursor >= m.rows.Len() {
		return nil
	}
	r := m.rows.At(m.cursor)
	if r.kind != views.RowUpdate && !isEnd(r.kind) && m.expanded(expKey{r.cmd, r.msg}) {
		return m.toggleRow()
	}
	// Go to the parent row.
	for i := m.cursor - 1; i >= 0; i-- {
		p := m.rows.At(i)
		if (r.kind == views.RowUpdate && p.kind == views.RowMessage) || (r.kind == views.RowMessage && p.kind == views.RowCommand) {
			return m.moveCursor(i)
		}
	}
	return nil
}

func (m *Model) timelineRight() tea.Cmd {
	if m.cursor < 0 || m.cursor >= m.rows.Len() {
		return nil
	}
	r := m.rows.At(m.cursor)
	if !m.expandable(r) {
		if r.kind == views.RowUpdate {
			m.focus, m.lastA = paneFields, paneFields
		}
		return nil
	}
	if !m.expanded(expKey{r.cmd, r.msg}) {
		return m.toggleRow()
	}
	return m.moveCursor(m.cursor + 1)
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	m.note, m.noteErr = "", false
	m.lastKey = time.Now()
	k := m.keys
	if msg.String() == "ctrl+c" {
		return tea.Quit
	}
	if md := m.openModal(); md != nil {
		return md.onKey(m, msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
	case key.Matches(msg, k.Back):
		if m.scan != nil {
			m.cancelScan()
			m.setNote("search cancelled", false)
			return m.resumeGrading()
		}
		if m.wi != nil || m.wiPending {
			m.leaveWhatIf()
			m.setNote("left the what-if", false)
		} else if m.filter != nil {
			m.clearFilter()
			m.rebuild()
			m.follow()
			m.setNote("filter cleared", false)
		} else if m.cut.marked {
			m.clearWindow()
		}
	case key.Matches(msg, k.JumpBack):
		return m.jumpBack()
	case key.Matches(msg, k.JumpForward) && msg.String() != "tab":
		return m.jumpForward()
	case key.Matches(msg, k.NextPane):
		m.cycleFocus(1)
	case key.Matches(msg, k.PrevPane):
		m.cycleFocus(-1)
	case key.Matches(msg, k.NextUpdate):
		return m.stepUpdate(1)
	case key.Matches(msg, k.PrevUpdate):
		return m.stepUpdate(-1)
	case key.Matches(msg, k.NextPacket):
		return m.stepPacket(1)
	case key.Matches(msg, k.PrevPacket):
		return m.stepPacket(-1)
	case key.Matches(msg, k.GotoTick):
		m.prompt, m.input = promptTick, ""
	case key.Matches(msg, k.Search):
		m.prompt, m.input = promptSearch, "" // enter on an empty prompt: the next match of the last search
	case key.Matches(msg, k.Filter):
		m.prompt, m.input = promptFilter, "" // enter on an empty prompt clears the filter (the label names it)
	case key.Matches(msg, k.Ent):
		m.prompt, m.input = promptEntity, ""
	case key.Matches(msg, k.Before):
		m.before = !m.before
	case key.Matches(msg, k.HeaderFirst):
		m.headerFirst, m.inspScroll = !m.headerFirst, 0
	case key.Matches(msg, k.Parsers):
		m.parsersFirst, m.inspScroll = !m.parsersFirst, 0
		return m.askParsers()
	case key.Matches(msg, k.OpStream):
		m.opsFirst, m.inspScroll = !m.opsFirst, 0
	case key.Matches(msg, k.OpTable):
		m.opTable, m.inspScroll = !m.opTable, 0
	case key.Matches(msg, k.NextAnomaly):
		m.jumps.force = true
		return m.stepAnomaly(1)
	case key.Matches(msg, k.PrevAnomaly):
		m.jumps.force = true
		return m.stepAnomaly(-1)
	case key.Matches(msg, k.ListAnomalies):
		m.list = &anomList{}
	case key.Matches(msg, k.MuteField):
		m.muteSelectedField()
	case key.Matches(msg, k.NextDiff):
		m.jumps.force = true
		return m.stepDifference(1)
	case key.Matches(msg, k.PrevDiff):
		m.jumps.force = true
		return m.stepDifference(-1)
	case key.Matches(msg, k.MarkWindow):
		m.markWindow()
	case key.Matches(msg, k.WriteWindow):
		m.writeWindow()
	case key.Matches(msg, k.ApplyInferred):
		return m.applyInferred()
	case key.Matches(msg, k.Promote):
		return m.promoteWhatIf()
	case key.Matches(msg, k.WhatIf):
		return m.openPicker()
	case key.Matches(msg, k.Toggle):
		if wi := m.wiHere(); wi != nil {
			wi.showOrig = !wi.showOrig
			m.setNote("showing the "+wi.sideName()+" decode", false)
		} else {
			m.setNote("no what-if here: d on a field starts one", false)
		}
	case key.Matches(msg, k.Expand):
		if m.focus == paneTimeline {
			return m.toggleRow()
		}
		if m.focus == paneFields {
			if cmd, ok := m.wireOpen(false); ok {
				return cmd
			}
		}
	default:
		return m.move(msg)
	}
	return nil
}

// move handles the movement keys for the focused pane.
func (m *Model) move(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	page := m.pageSize(m.focus)
	delta := 0
	switch {
	case key.Matches(msg, k.Up):
		delta = -1
	case key.Matches(msg, k.Down):
		delta = 1
	case key.Matches(msg, k.PageUp):
		delta = -page
	case key.Matches(msg, k.PageDown):
		delta = page
	case key.Matches(msg, k.Home):
		delta = -1 << 30
	case key.Matches(msg, k.End):
		delta = 1 << 30
	case key.Matches(msg, k.Left):
		if m.focus == paneTimeline {
			return m.timelineLeft()
		}
		m.moveField(-1)
		return nil
	case key.Matches(msg, k.Right):
		if m.focus == paneTimeline {
			return m.timelineRight()
		}
		if m.focus == paneFields {
			if cmd, ok := m.wireOpen(true); ok {
				return cmd
			}
		}
		m.moveField(1)
		return nil
	default:
		return nil
	}
	return m.scrollPane(m.focus, delta)
}

// scrollPane moves the cursor or scroll position of pane p by delta.
func (m *Model) scrollPane(p pane, delta int) tea.Cmd {
	switch p {
	case paneTimeline:
		if delta <= -1<<30 || delta >= 1<<30 {
			return m.moveCursor(clamp(delta, -1, m.rows.Len()))
		}
		return m.moveCursor(m.cursor + delta)
	case paneFields, paneBits:
		m.moveField(clamp(delta, -1<<20, 1<<20))
	case paneInspector:
		m.inspScroll = clamp(m.inspScroll+delta, 0, 1<<20)
	case paneEntity:
		m.entScroll = clamp(m.entScroll+delta, -1<<20, 1<<20)
	case paneSchema:
		m.schScroll = clamp(m.schScroll+delta, -1<<20, 1<<20)
	}
	return nil
}

func (m *Model) onWheel(msg tea.MouseWheelMsg) tea.Cmd {
	mouse := msg.Mouse()
	delta := 0
	switch mouse.Button {
	case tea.MouseWheelUp:
		delta = -3
	case tea.MouseWheelDown:
		delta = 3
	default:
		return nil
	}
	l := m.layout()
	for p := pane(0); p < numPanes; p++ {
		if !l.visible[p] || !l.rects[p].contains(mouse.X, mouse.Y) {
			continue
		}
		if p == paneTimeline || p == paneFields || p == paneBits {
			// The selection moves, a row a notch, as the arrow keys
			// move it: the same in every pane that has one.
			delta /= 3
		}
		return m.scrollPane(p, delta)
	}
	return nil
}

// onClick focuses the pane under the pointer and, in the timeline and the
// fields pane, selects the row clicked.
func (m *Model) onClick(msg tea.MouseClickMsg) tea.Cmd {
	mouse := msg.Mouse()
	if mouse.Button != tea.MouseLeft || m.openModal() != nil {
		return nil
	}
	l := m.layout()
	for p := pane(0); p < numPanes; p++ {
		r := l.rects[p]
		if !l.visible[p] || !r.contains(mouse.X, mouse.Y) {
			continue
		}
		m.focus = p
		if groupA(p) {
			m.lastA = p
		}
		if groupB(p) {
			m.lastB = p
		}
		row := mouse.Y - r.y - 2 // the border, then a header line
		if row < 0 {
			return nil
		}
		switch p {
		case paneTimeline:
			n := max(0, r.h-3)
			top := clamp(m.tlTop, 0, max(0, m.rows.Len()-n))
			if i := top + row; row < n && i < m.rows.Len() {
				return m.moveCursor(i)
			}
		case paneFields:
			if m.wiHere() != nil {
				return nil
			}
			fs := m.curFields()
			top := views.ScrollTop(len(fs), max(0, r.h-3), m.sel.Field)
			if i := top + row; i < len(fs) {
				m.sel.Field = i
				m.inspScroll = 0
			}
		}
		return nil
	}
	return nil
}

func (m *Model) onPromptKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.prompt = promptNone
		return nil
	case "enter":
		kind, text := m.prompt, m.input
		m.prompt = promptNone
		switch kind {
		case promptTick, promptEntity:
			m.jumps.force = true
			return m.promptNumber(kind, text)
		case promptSearch:
			return m.doSearch(text)
		case promptFilter:
			return m.setFilter(text)
		case promptCut:
			return m.startCut(text)
		}
		return nil
	case "backspace":
		if r := []rune(m.input); len(r) > 0 {
			m.input = string(r[:len(r)-1])
		}
		return nil
	case "ctrl+u":
		m.input = ""
		return nil
	}
	if msg.Text != "" {
		m.input += msg.Text
	}
	return nil
}
