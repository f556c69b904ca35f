package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/session"
)

// onDone applies the result of work off the loop (jobs.go): dropped unless
// it is fresh, the one rule for every kind; otherwise handed to its
// handler, which knows nothing of stamps.
func (m *Model) onDone(d done) tea.Cmd {
	if !m.jobs.fresh(d.kind, d.at) {
		return nil // superseded: started again, left, or of a file reopened since
	}
	switch v := d.v.(type) {
	case *session.Chunk:
		return m.onIndex(v)
	case detailResult:
		m.onDetail(v)
		return m.resumeGrading()
	case *session.GradeChunk:
		return m.onGrade(v)
	case gradeResume:
		return m.onGradeResume()
	case session.ScanStep:
		if d.kind == jobCount {
			return m.onCount(v)
		}
		return m.onScan(v)
	case *suspectFound:
		m.onSuspect(v)
	case alignResult:
		m.onAlign(v)
	case whatIfResult:
		m.onWhatIf(v)
	case walkResult:
		m.onWalk(v)
	case *inference:
		return m.onInfer(v)
	case parsersResult:
		m.onParsers(v)
	case promoteResult:
		m.onPromote(v)
	case cutResult:
		m.onCut(v)
		return m.resumeGrading()
	case cutTickResult:
		return m.onCutTick()
	case tableResult:
		m.onTable(v)
	}
	return nil
}
