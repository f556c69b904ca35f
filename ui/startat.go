package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// startAt goes, once, to the first entity update at or after the tick
// the debugger was opened at (--tick), as soon as the index holds one
// (or says the file ends before it).
func (m *Model) startAt() tea.Cmd {
	if !m.opts.HasStartTick || m.startedAt {
		return nil
	}
	t := m.opts.StartTick
	i := m.ix.CommandAtTick(t)
	switch {
	case i >= 0 && m.ix.Commands[i].First < m.ix.NumUpdates():
		m.startedAt, m.prefetched = true, true // that load is the one to make
		return m.jump(m.ix.Commands[i].First)
	case m.ix.Done:
		m.startedAt = true
		m.setNote(fmt.Sprintf("--tick %d: %s", t, m.pastLastTick(int(t))), true)
	}
	return nil
}
