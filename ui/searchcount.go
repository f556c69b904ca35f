package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/session"
)

// A search stops at its first match (on a long file the rest may be far
// off); once it is shown, the matches of the whole file are counted in the
// background and the note becomes "match i of N".

// countJob counts the matches of a search that found at.
type countJob struct {
	gen  stamp
	q    string
	s    *session.Scan
	hits []session.Ref
	at   session.Ref
	tick int32
}

// startCount counts the file's matches of q; at is the match shown.
func (m *Model) startCount(q string, at session.Ref) tea.Cmd {
	m.count = &countJob{gen: m.jobs.start(jobCount), q: q, at: at, tick: m.ix.Commands[at.Cmd].Tick,
		s: m.file.Filter(session.NewMatcher(q), len(m.ix.Commands))}
	return m.countStep()
}

func (m *Model) countStep() tea.Cmd {
	s, budget := m.count.s, m.opts.IndexBudget
	return m.run(jobCount, func() any { return s.Step(budget) })
}

func (m *Model) onCount(st session.ScanStep) tea.Cmd {
	j := m.count
	if j == nil {
		return nil
	}
	j.hits = append(j.hits, st.Hits...)
	if !st.Done {
		return m.countStep()
	}
	m.count = nil
	if st.Err != nil {
		return nil
	}
	nth := 0
	for _, h := range j.hits {
		if h.Update().Compare(j.at.Update()) <= 0 {
			nth++
		}
	}
	// Said only while the match is still the selection.
	if m.sel.Update() == j.at.Update() && nth > 0 {
		m.setNote(fmt.Sprintf("%q: match %d of %d, at tick %d (/ enter for the next)", j.q, nth, len(j.hits), j.tick), false)
	}
	return nil
}
