package ui

import (
	"sort"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
)

// The suspect of the file's first misaligned message is the one dembug
// check names: the read whose other decoder or bit edit makes the message
// align (diagnose's search), found off the loop once the index is done.
// Until it arrives (or when the search finds nothing) the suspect is the
// first field with a strong anomaly, as the grading pass says.

// located is the search's suspect of one message.
type located struct {
	gen              uint64
	cmd, msg         int
	upd, field       int // field within the update
	name, why        string
	applied, nothing bool
	header           string // what the header check says of the message (novel.go)
}

// locateCmd finds check's suspect of the first misaligned message. As
// check, with names decoder choice does not know it waits for the
// inference (onInfer: its breaking read, or the search when it found
// nothing); without, it runs the search.
func (m *Model) locateCmd() tea.Cmd {
	if s := m.in.Schema(); s != nil && len(s.Unknowns()) > 0 {
		return nil
	}
	return m.searchSuspect()
}

// firstMisaligned is the first misaligned packet-entities message.
func (m *Model) firstMisaligned() (session.Ref, session.Location, bool) {
	for ci := range m.ix.Commands {
		for j, msg := range m.ix.Commands[ci].Msgs {
			if msg.PE != nil && msg.PE.Err != nil {
				at := session.Ref{Cmd: ci, Msg: j, Upd: -1, Field: -1}
				loc, ok := m.ix.Location(at)
				return at, loc, ok
			}
		}
	}
	return session.None, session.Location{}, false
}

// breakSuspect makes inference's breaking read (in the message, not a
// baseline) the suspect, as check does: the record says which field it
// is.
func (m *Model) breakSuspect(b *infer.Suspect, why string) tea.Cmd {
	at, loc, ok := m.firstMisaligned()
	if !ok || b.InBaseline {
		return nil
	}
	m.located = &located{gen: m.gen, cmd: at.Cmd, msg: at.Msg, nothing: true}
	gen, data, aliases := m.gen, m.data, m.opts.Aliases
	return safe(func() tea.Msg {
		out := &located{gen: gen, cmd: at.Cmd, msg: at.Msg, nothing: true}
		c, err := diagnose.CaptureAtWith(data, loc, aliases)
		if err == nil && c != nil {
			out.header = headerText(c)
		}
		if err != nil || c == nil || b.Update < 0 || b.Update >= len(c.Record.Updates) {
			return out
		}
		u := &c.Record.Updates[b.Update]
		for fi := 0; fi < u.NumFields; fi++ {
			if f := &c.Record.Fields[u.FirstField+fi]; f.Start == b.Bit && f.Name == b.FieldName {
				out.upd, out.field, out.name, out.why, out.nothing = b.Update, fi, f.Name, why, false
			}
		}
		return out
	})
}

// searchSuspect searches the first misaligned message for the read whose
// other decoder or bit edit makes it align.
func (m *Model) searchSuspect() tea.Cmd {
	if m.located != nil {
		return nil
	}
	at, loc, ok := m.firstMisaligned()
	if !ok {
		return nil
	}
	m.located = &located{gen: m.gen, cmd: at.Cmd, msg: at.Msg, nothing: true}
	gen, data, aliases := m.gen, m.data, m.opts.Aliases
	return safe(func() tea.Msg {
		out := &located{gen: gen, cmd: at.Cmd, msg: at.Msg, nothing: true}
		c, err := diagnose.CaptureAtWith(data, loc, aliases)
		if err != nil || c == nil {
			return out
		}
		out.header = headerText(c)
		fix, err := c.Locate()
		if err != nil || fix.Field < 0 {
			return out
		}
		i := fix.Field // a decoder change: the original record's field
		if fix.WhatIf.Decoder == nil {
			// A bit edit: Field is the repaired record's; here, the
			// original read at the edit's bit (the path op or value
			// that holds it, or the last one before it).
			i = -1
			for j := range c.Record.Fields {
				if f := &c.Record.Fields[j]; f.Op.Start <= fix.WhatIf.Bit || f.Start <= fix.WhatIf.Bit {
					i = j
				}
			}
		}
		if i < 0 || i >= len(c.Record.Fields) {
			return out
		}
		f := &c.Record.Fields[i]
		out.upd, out.field = f.Update, i-c.Record.Updates[f.Update].FirstField
		why := "the message aligns when this read changes: " + fix.Explain
		if fix.WhatIf.Decoder == nil {
			why = "the message aligns with a bit edit at " + bitio.Offset(fix.WhatIf.Bit) + ", in this read: " + fix.Explain
		}
		out.name, out.why, out.nothing = f.Name, why, false
		return out
	})
}

func (m *Model) onLocate(l *located) {
	if l.gen != m.gen {
		return
	}
	m.located = l
	m.cache.inspKey = paneKey{} // the header check shows at once
	m.applyLocated()
}

// applyLocated makes the search's suspect the message's suspect and its
// a/A stop, once the grading pass has graded the message.
func (m *Model) applyLocated() {
	l := m.located
	if l == nil || l.nothing || l.applied || !m.ix.GradeDone {
		return
	}
	msg := m.ix.Msg(l.cmd, l.msg)
	if msg == nil || msg.PE == nil || l.upd >= len(msg.PE.Updates) {
		return
	}
	l.applied = true
	pe := msg.PE
	first, n := int32(pe.First), int32(len(pe.Updates))
	var stops []session.AnomalyRef
	for _, st := range m.ix.Anoms {
		if st.Rule == "" && st.K >= first && st.K < first+n {
			continue // the grading pass's suspect of this message
		}
		stops = append(stops, st)
	}
	stops = append(stops, session.AnomalyRef{K: first + int32(l.upd), Field: int32(l.field), Name: l.name})
	sort.SliceStable(stops, func(i, j int) bool {
		a, b := stops[i], stops[j]
		return a.K < b.K || a.K == b.K && a.Field < b.Field
	})
	m.ix.Anoms = stops
	pe.SuspectUpd, pe.SuspectField, pe.SuspectWhy, pe.SuspectName = int32(l.upd), int32(l.field), l.why, l.name
	m.cache.inspKey = paneKey{}
}

// withLocated is rep with the search's suspect as its first suspect when
// rep is the diagnosis of the message the search ran on.
func (m *Model) withLocated(cmd, msg int, rec *provenance.Message, rep *diagnose.Report) *diagnose.Report {
	l := m.located
	if l == nil || !l.applied || rep == nil || rec == nil || cmd != l.cmd || msg != l.msg || l.upd >= len(rec.Updates) {
		return rep
	}
	u := &rec.Updates[l.upd]
	i := u.FirstField + l.field
	if l.field >= u.NumFields || i >= len(rec.Fields) {
		return rep
	}
	f := &rec.Fields[i]
	out := *rep
	out.First = &diagnose.Suspect{Update: l.upd, Field: i, Entity: u.Index, Class: u.Class, Name: f.Name, Bit: f.Start,
		Decoder: f.Decoder.Describe(), Reason: l.why, Score: 1}
	return &out
}
