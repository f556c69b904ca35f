package ui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
)

// The suspect of the file's first misaligned message is the one dembug
// check names: session.LocateFirstSuspect, asked of the open file off the
// loop once the index is done (after the inference when the schema has
// names decoder choice does not know). Until it arrives, and when it is
// the diagnosis's own first suspect (nothing aligns the message), the
// suspect is the grading pass's: the same read.

// suspectFound is the first suspect as the TUI holds it.
type suspectFound struct {
	cmd, msg int
	s        *session.FirstSuspect // nil until found, or when the message could not be decoded again
	why      string                // the inspector's reason, when the TUI selects it
	applied  bool
}

// selects reports whether the TUI makes the suspect the message's: a read
// of the message (not a baseline) that a what-if or the inference names.
func (l *suspectFound) selects() bool {
	return l != nil && l.s != nil && l.s.Basis != session.ByDiagnosis && l.s.Update >= 0 && l.s.Field >= 0
}

// header is what the header check says of the message, "" for nothing.
func (l *suspectFound) header() string {
	if l == nil || l.s == nil {
		return ""
	}
	return l.s.Header
}

// locateCmd finds check's suspect of the first misaligned message. As
// check, with names decoder choice does not know it waits for the
// inference (onInfer); without, it asks at once.
func (m *Model) locateCmd() tea.Cmd {
	if s := m.in.Schema(); s != nil && len(s.Unknowns()) > 0 {
		return nil
	}
	return m.firstSuspectCmd(nil)
}

// firstMisaligned is the first misaligned packet-entities message.
func (m *Model) firstMisaligned() (session.Ref, session.Location, bool) {
	for ci := range m.ix.Commands {
		for j, msg := range m.ix.Commands[ci].Msgs() {
			if msg.PE != nil && msg.PE.Err != nil {
				at := session.Ref{Cmd: ci, Msg: j, Upd: -1, Field: -1}
				loc, ok := m.ix.Location(at)
				return at, loc, ok
			}
		}
	}
	return session.None, session.Location{}, false
}

// firstSuspectCmd asks the file for the first suspect of the first
// misaligned message, given what the inference found (nil for nothing).
func (m *Model) firstSuspectCmd(inf *session.Inference) tea.Cmd {
	if m.suspect != nil {
		return nil
	}
	at, loc, ok := m.firstMisaligned()
	if !ok {
		return nil
	}
	file := m.file
	m.suspect = &suspectFound{cmd: at.Cmd, msg: at.Msg}
	return m.run(jobFile, func() any {
		s := file.FirstSuspect(loc, inf)
		return &suspectFound{cmd: at.Cmd, msg: at.Msg, s: s, why: suspectWhy(s)}
	})
}

// suspectWhy is the inspector's reason for a suspect the TUI selects.
func suspectWhy(s *session.FirstSuspect) string {
	switch {
	case s == nil:
		return ""
	case s.Basis == session.ByInference:
		f := s.Inferred
		return fmt.Sprintf("first read of %s %s, which has no decoder rule: it behaves as %s (--as %s=%s)", f.Kind, f.Unknown, f.As, f.Unknown, f.As)
	case s.Basis == session.ByWhatIf && s.BitEdit:
		return "the message aligns with a bit edit at " + bitio.Offset(s.EditBit) + ", in this read: " + s.Explain
	case s.Basis == session.ByWhatIf:
		return "the message aligns when this read changes: " + s.Explain
	}
	return s.Reason
}

func (m *Model) onSuspect(l *suspectFound) {
	m.suspect = l
	m.cache.inspKey.drop() // the header check shows at once
	m.applySuspect()
}

// applySuspect makes the first suspect the message's suspect and its a/A
// stop, once the grading pass has graded the message.
func (m *Model) applySuspect() {
	l := m.suspect
	if !l.selects() || l.applied || !m.ix.GradeDone {
		return
	}
	s := l.s
	msg := m.ix.Msg(l.cmd, l.msg)
	if msg == nil || msg.PE == nil || s.Update >= len(msg.PE.Updates) {
		return
	}
	l.applied = true
	pe := msg.PE
	var stops []session.AnomalyRef
	for _, st := range m.ix.Anoms {
		if st.Rule == "" && st.At.Cmd == l.cmd && st.At.Msg == l.msg {
			continue // the grading pass's suspect of this message
		}
		stops = append(stops, st)
	}
	stops = append(stops, session.AnomalyRef{At: session.Ref{Cmd: l.cmd, Msg: l.msg, Upd: s.Update, Field: s.Field}, Name: s.Name})
	slices.SortStableFunc(stops, func(a, b session.AnomalyRef) int { return a.At.Compare(b.At) })
	m.ix.Anoms = stops
	pe.SuspectUpd, pe.SuspectField, pe.SuspectWhy, pe.SuspectName = int32(s.Update), int32(s.Field), l.why, s.Name
	m.cache.inspKey.drop() // the stop and the suspect it shows
}

// withSuspect is rep with the first suspect as its first suspect when rep
// is the diagnosis of the message it was found in.
func (m *Model) withSuspect(cmd, msg int, rec *provenance.Message, rep *diagnose.Report) *diagnose.Report {
	l := m.suspect
	if l == nil || !l.applied || rep == nil || rec == nil || cmd != l.cmd || msg != l.msg || l.s.Update >= len(rec.Updates) {
		return rep
	}
	s := l.s
	u := &rec.Updates[s.Update]
	i := u.FirstField + s.Field
	if s.Field >= u.NumFields || i >= len(rec.Fields) {
		return rep
	}
	f := &rec.Fields[i]
	out := *rep
	out.First = &diagnose.Suspect{Update: s.Update, Field: i, Entity: u.Index, Class: u.Class, Name: f.Name, Bit: f.Start,
		Decoder: f.Decoder.Describe(), Reason: l.why, Score: 1}
	return &out
}
