package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/session"
)

// Background work, off the UI loop: the grading pass that marks anomalies
// after the index pass, and the scans behind search and filter (field
// names are not in the index: a scan decodes again, from the keyframe
// before the selection). Each runs in steps of about the index budget,
// each step a tea.Cmd whose message starts the next; a newer generation
// drops an older one's messages, which is how esc or a new search cancels.

// scanJob is the search or filter running.
type scanJob struct {
	gen      stamp
	filter   bool
	q        string
	s        *session.Scan
	mt       *session.Matcher
	progress float64
	hits     []session.Ref // a filter's, so far
	started  time.Time
}

// gradeCmd starts the grading pass (once the index pass is done).
func (m *Model) gradeCmd() tea.Cmd {
	if m.grader != nil || m.ix.GradeDone {
		return nil
	}
	m.grader = m.file.Grader()
	m.jobs.start(jobGrade)
	return m.gradeStep()
}

func (m *Model) gradeStep() tea.Cmd {
	g, budget := m.grader, m.opts.IndexBudget
	return m.run(jobGrade, func() any { return g.Step(budget) })
}

// busy reports whether work the user asked for (a decode, a scan, a cut)
// is running.
func (m *Model) busy() bool { return m.loading || m.scan != nil || m.cut.running != nil }

func (m *Model) onGrade(ch *session.GradeChunk) tea.Cmd {
	if ch == nil || m.grader == nil {
		return nil
	}
	m.ix.ApplyGrades(ch)
	if len(ch.Grades) > 0 {
		m.rebuild()
	}
	if ch.Done {
		m.grader = nil
		m.applySuspect()
		return nil
	}
	return m.gradeWhenIdle()
}

// gradeWhenIdle takes the grading pass's next step unless the user is
// moving: grading waits until the keys stop (and a decode or scan ends),
// so that their work has the cores.
func (m *Model) gradeWhenIdle() tea.Cmd {
	if m.busy() {
		m.gradeWaiting = true
		return nil
	}
	if idle := time.Since(m.lastKey); idle < gradeAfterKey {
		return m.runAfter(jobGrade, gradeAfterKey-idle, func() any { return gradeResume{} })
	}
	return m.gradeStep()
}

// gradeAfterKey is how long the grading pass waits after a key.
const gradeAfterKey = 400 * time.Millisecond

// gradeResume is the grading pass's wait after a key, ended.
type gradeResume struct{}

func (m *Model) onGradeResume() tea.Cmd {
	if m.grader == nil {
		return nil
	}
	return m.gradeWhenIdle()
}

// resumeGrading goes on with a grading pass that waited for the user's
// decode.
func (m *Model) resumeGrading() tea.Cmd {
	if !m.gradeWaiting || m.busy() || m.grader == nil {
		return nil
	}
	m.gradeWaiting = false
	return m.onGradeResume()
}

// startScan starts a search (from the selection) or a filter.
func (m *Model) startScan(q string, filter bool) tea.Cmd {
	if filter {
		mt := session.NewMatcher(q)
		j := &scanJob{gen: m.jobs.start(jobScan), filter: true, q: q, mt: mt, started: time.Now()}
		j.s = m.file.Filter(mt, len(m.ix.Commands))
		m.scan = j
		return m.scanStep()
	}
	after := session.Ref{Cmd: m.sel.Cmd, Msg: -1, Upd: -1, Field: -1}
	if m.ix.Msg(m.sel.Cmd, m.sel.Msg) != nil {
		after.Msg, after.Upd = m.sel.Msg, m.sel.Upd
	}
	if m.sel.IsEnd() || m.sel.Cmd < 0 {
		after = session.Ref{Cmd: len(m.ix.Commands), Msg: -1, Upd: -1, Field: -1}
	}
	return m.startScanAfter(q, session.NewMatcher(q), after)
}

// startScanAfter starts a search, named q in notes, for the first update
// after the place after whose class or a field name mt matches.
func (m *Model) startScanAfter(q string, mt *session.Matcher, after session.Ref) tea.Cmd {
	j := &scanJob{gen: m.jobs.start(jobScan), q: q, mt: mt, started: time.Now()}
	j.s = m.file.Search(mt, after, len(m.ix.Commands))
	m.scan = j
	return m.scanStep()
}

func (m *Model) scanStep() tea.Cmd {
	s, budget := m.scan.s, m.opts.IndexBudget
	return m.run(jobScan, func() any { return s.Step(budget) })
}

// cancelScan drops the search or filter running.
func (m *Model) cancelScan() {
	if m.scan != nil {
		m.scan = nil
		m.jobs.start(jobScan)
	}
}

func (m *Model) onScan(st session.ScanStep) tea.Cmd {
	j := m.scan
	if j == nil {
		return nil
	}
	j.progress = st.Progress
	if !j.filter && len(st.Hits) > 0 {
		m.scan = nil
		h := st.Hits[0]
		at := h
		u := m.ix.Update(at.Cmd, at.Msg, at.Upd)
		if u == nil {
			m.setNote(fmt.Sprintf("%q: a match at command #%d, not indexed yet", j.q, at.Cmd), false)
			return m.resumeGrading()
		}
		if u.Fields() == 0 {
			at.Field = -1
		}
		m.jumps.force = true // a search hit is a jump wherever it lands
		cmd := m.reveal(at)
		m.setNote(fmt.Sprintf("%q: at tick %d (/ enter for the next; counting the matches…)", j.q, m.ix.Commands[at.Cmd].Tick), false)
		return tea.Batch(cmd, m.resumeGrading(), m.startCount(j.q, h))
	}
	j.hits = append(j.hits, st.Hits...)
	if !st.Done {
		return m.scanStep()
	}
	m.scan = nil
	if j.filter {
		return tea.Batch(m.applyFilterHits(j), m.resumeGrading())
	}
	m.setNote(m.noMatchNote(j.q, j.mt, fmt.Sprintf("no field or class matches %q", j.q)), true)
	return m.resumeGrading()
}

// scanStatus is the status line's account of the scan running.
func (m *Model) scanStatus() string {
	if m.scan == nil {
		return ""
	}
	what := "searching"
	if m.scan.filter {
		what = "filtering"
	}
	return fmt.Sprintf("%s %q %d%% · esc cancels · ", what, m.scan.q, int(m.scan.progress*100))
}

// scanNarrow is scanStatus for a narrow status line: what runs, how far,
// and the key that stops it.
func (m *Model) scanNarrow() string {
	if m.scan == nil {
		return ""
	}
	what := "searching"
	if m.scan.filter {
		what = "filtering"
	}
	return fmt.Sprintf("%s %d%% · esc cancels", what, int(m.scan.progress*100))
}
