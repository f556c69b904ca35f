package ui

import (
	"fmt"
	"sort"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// Anomalies: the diagnostics of package diagnose as the debugger shows
// them — markers in the fields pane and the timeline, the anomaly keys, and
// the inspector's account of each anomaly.

// severity is the marker a field's anomalies earn (diagnose.Grade).
func severity(as []diagnose.Anomaly) views.Severity { return views.Severity(diagnose.Grade(as)) }

// selAt is the selection as a place among anomaly stops (Ref.Compare):
// the end of the file after every stop, a selection beside an update
// before the stops of its message.
func (m *Model) selAt() session.Ref {
	at := m.sel
	switch {
	case at.IsEnd():
		return session.Ref{Cmd: len(m.ix.Commands), Msg: -1, Upd: -1, Field: -1}
	case at.Upd >= 0 && m.ix.Update(at.Cmd, at.Msg, at.Upd) == nil:
		return at.Message()
	}
	return at
}

// stepAnomaly selects the next (dir 1) or previous (dir -1) anomaly stop:
// a field with a strong anomaly, or the first suspicious field of a
// misaligned message, in file order. A binary search over the index's
// stops: it costs nothing however large the file.
func (m *Model) stepAnomaly(dir int) tea.Cmd {
	stops := m.stops()
	at := m.selAt()
	i := sort.Search(len(stops), func(i int) bool { return stops[i].At.Compare(at) >= 0 })
	if dir > 0 {
		if i < len(stops) && stops[i].At == at {
			i++ // on a stop: the one after it
		}
	} else {
		i--
	}
	if i < 0 || i >= len(stops) {
		where := "after"
		if dir < 0 {
			where = "before"
		}
		// a and A stop at strong anomalies only: say so, and where the weak
		// ones are, so an empty answer is not read as a clean file.
		msg := fmt.Sprintf("no strong anomaly %s here (%d in the file", where, len(stops))
		if !m.ix.GradeDone {
			msg += " so far: still grading"
		}
		msg += ")"
		if weak := m.weakFindings(); weak > 0 {
			msg += fmt.Sprintf("; %d weak: L lists them", weak)
		}
		m.setNote(msg, false)
		return nil
	}
	st := stops[i]
	cmd := m.reveal(st.At)
	m.setNote(fmt.Sprintf("anomaly %d of %d%s", i+1, len(stops), m.stopWhy(st)), false)
	return cmd
}

// stops are the index's anomaly stops less the muted ones (a suspect of
// a message with a problem is never muted).
func (m *Model) stops() []session.AnomalyRef {
	if len(m.mute.MutedRules()) == 0 && len(m.mute.MutedFields()) == 0 {
		return m.ix.Anoms
	}
	var out []session.AnomalyRef
	for _, st := range m.ix.Anoms {
		if st.Rule != "" && m.mute.Muted(st.Rule, m.findingName(session.FieldAnomaly{At: st.At, Name: st.Name})) {
			continue
		}
		out = append(out, st)
	}
	return out
}

// stopWhy names what the stop is, for the status line.
func (m *Model) stopWhy(st session.AnomalyRef) string {
	r := st.At
	msg := m.ix.Msg(r.Cmd, r.Msg)
	if msg == nil || msg.PE == nil {
		return ""
	}
	pe := msg.PE
	if s := pe.Suspect; s != nil && s.At.Upd == r.Upd && s.At.Field == r.Field {
		return ": first suspect of a misaligned message"
	}
	if r.Field < 0 || st.Name == "" {
		return ""
	}
	return ": " + st.Name
}

// anomalyLines explains each anomaly: rule and detail (Error style when it
// reaches the threshold, Warning below), then why the rule matters.
func anomalyLines(as []diagnose.Anomaly) []views.InspectorLine {
	var out []views.InspectorLine
	for _, a := range as {
		st, mark := views.LineWarn, "?"
		if a.Score >= diagnose.Threshold {
			st, mark = views.LineError, "!"
		}
		out = append(out, views.InspectorLine{Label: fmt.Sprintf("%s %.1f", mark, a.Score), Text: a.String(), Style: st})
		if ex := diagnose.Explanations[a.Rule]; ex != "" {
			out = append(out, views.InspectorLine{Text: ex, Style: views.LineDim})
		}
	}
	return out
}

// anomalySection is the inspector section for one field's anomalies.
func anomalySection(as []diagnose.Anomaly) []views.InspectorSection {
	if len(as) == 0 {
		return nil
	}
	return []views.InspectorSection{{Title: fmt.Sprintf("Anomalies (%d)", len(as)), Lines: anomalyLines(as)}}
}

// problemSection says what is wrong with a whole message: the
// message-level anomaly (bits left unread, read past the end, a path
// outside the serializer, bad deletions) and the first suspicious field.
func problemSection(rep *diagnose.Report) []views.InspectorSection {
	if rep == nil || rep.End == nil {
		return nil
	}
	l := anomalyLines([]diagnose.Anomaly{*rep.End})
	l[0].Label = "problem"
	if s := rep.First; s != nil {
		text := fmt.Sprintf("entity #%d %s", s.Entity, s.Class)
		if s.Field >= 0 {
			text = fmt.Sprintf("%s (field #%d of the message, %s, at %s) in %s", s.Name, s.Field, s.Decoder, views.Offset(s.Bit), text)
		}
		l = append(l,
			views.InspectorLine{Label: "suspect", Text: text, Style: views.LineMath},
			views.InspectorLine{Label: "because", Text: s.Reason},
			views.InspectorLine{Text: "The shift happened at or before the suspect: d on it or an earlier field tries another decoder or a bit edit.", Style: views.LineDim},
		)
	}
	title := "Message misaligned"
	if !rep.Misaligned {
		title = "Message problem"
	}
	return []views.InspectorSection{{Title: title, Lines: l}}
}

// weakFindings counts the index's weak findings, which a and A pass by.
func (m *Model) weakFindings() int {
	n := 0
	for _, f := range m.ix.Findings {
		if !f.Strong {
			n++
		}
	}
	return n
}
