package ui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
)

// The suspect of the file's first misaligned message is the one dembug
// check names: session.File.FirstSuspect, asked of the open file off the
// loop once the index is done (after the inference when the schema has
// names decoder choice does not know). Until it arrives, and when it is
// the diagnosis's own first suspect (nothing aligns the message), the
// suspect is the grading pass's: the same read.

// suspectFound is the first suspect as the TUI holds it.
type suspectFound struct {
	cmd, msg int
	s        *session.Suspect // nil until found, or when the message could not be decoded again
	why      string           // the inspector's reason, when the TUI selects it
	applied  bool
}

// selects reports whether the TUI makes the suspect the message's: a read
// of the message (not a baseline) that a what-if or the inference names.
func (l *suspectFound) selects() bool {
	return l != nil && l.s != nil && l.s.Basis != session.ByDiagnosis && l.s.At.Upd >= 0 && l.s.At.Field >= 0
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
func (m *Model) firstMisaligned() (session.Ref, bool) {
	for ci := range m.ix.Commands {
		for j, msg := range m.ix.Commands[ci].Msgs() {
			if msg.PE != nil && msg.PE.Err != nil {
				return session.Ref{Cmd: ci, Msg: j, Upd: -1, Field: -1}, true
			}
		}
	}
	return session.None, false
}

// firstSuspectCmd asks the file for the first suspect of the first
// misaligned message, given what the inference found (nil for nothing).
func (m *Model) firstSuspectCmd(inf *session.Inference) tea.Cmd {
	if m.suspect != nil {
		return nil
	}
	at, ok := m.firstMisaligned()
	if !ok {
		return nil
	}
	file := m.file
	m.suspect = &suspectFound{cmd: at.Cmd, msg: at.Msg}
	return m.run(jobFile, func() any {
		s := file.FirstSuspect(at, inf)
		return &suspectFound{cmd: at.Cmd, msg: at.Msg, s: s, why: s.Why()}
	})
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
	if msg == nil || msg.PE == nil || s.At.Upd >= len(msg.PE.Updates) {
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
	stops = append(stops, session.AnomalyRef{At: session.Ref{Cmd: l.cmd, Msg: l.msg, Upd: s.At.Upd, Field: s.At.Field}, Name: s.Name})
	slices.SortStableFunc(stops, func(a, b session.AnomalyRef) int { return a.At.Compare(b.At) })
	m.ix.Anoms = stops
	pe.Suspect = s
	m.cache.inspKey.drop() // the stop and the suspect it shows
}

// withSuspect is rep with the first suspect as its first suspect when rep
// is the diagnosis of the message it was found in.
func (m *Model) withSuspect(cmd, msg int, rec *provenance.Message, rep *diagnose.Report) *diagnose.Report {
	l := m.suspect
	if l == nil || !l.applied || rep == nil || rec == nil || cmd != l.cmd || msg != l.msg || l.s.At.Upd >= len(rec.Updates) {
		return rep
	}
	s := l.s
	u := &rec.Updates[s.At.Upd]
	i := u.FirstField + s.At.Field
	if s.At.Field >= u.NumFields || i >= len(rec.Fields) {
		return rep
	}
	f := &rec.Fields[i]
	out := *rep
	out.First = &diagnose.Suspect{Update: s.At.Upd, Field: i, Entity: u.Index, Class: u.Class, Name: f.Name, Bit: f.Start,
		Decoder: f.Decoder.Describe(), Reason: l.why, Score: 1}
	return &out
}
