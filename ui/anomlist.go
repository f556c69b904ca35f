package ui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// The grouped list of anomalies (L): every anomaly of the file so far,
// strong and weak, one row per rule and severity ("164 × denormal float,
// weak") with the fields it fell on; m mutes a rule or a field, enter goes
// to the first occurrence. Muted anomalies mark no field and are no stop
// of a/A.

// anomList is the open list's state.
type anomList struct {
	sel int
}

// listRow is one row of the list, with where enter goes.
type listRow struct {
	views.AnomalyListRow
	rule  diagnose.Rule
	field string // a field row's name; "" for a group row
	first int    // index into Index.Findings of the first occurrence
	// verdict is a values verdict's row's: enter searches for the first
	// read of its type.
	verdict *session.Verdict
}

// MaxListFields bounds the field rows under a group.
const MaxListFields = 8

// findingName is the field name of a finding.
func (m *Model) findingName(f session.FieldAnomaly) string {
	if f.At.Field < 0 {
		return ""
	}
	return f.Name
}

// listRows groups the index's findings (muted ones too, marked, so that
// they can be unmuted), and counts them.
func (m *Model) listRows() (rows []listRow, all, strong int) {
	var all0 diagnose.Tally
	type fk struct {
		rule   diagnose.Rule
		strong bool
		name   string
	}
	firsts := map[fk]int{}
	for i, f := range m.ix.Findings {
		name := m.findingName(f)
		score := 0.0
		if f.Strong {
			score = 1
		}
		k := fk{f.Rule, f.Strong, name}
		if _, ok := firsts[k]; !ok {
			firsts[k] = i
		}
		r := f.At
		u := m.ix.Update(r.Cmd, r.Msg, r.Upd)
		all0.Add(diagnose.Anomaly{Rule: f.Rule, Score: score}, diagnose.Where{Tick: m.ix.Commands[r.Cmd].Tick, Entity: int32(u.Entity), Class: m.ix.ClassName(u), Field: name, Key: i})
	}
	all, strong = all0.Count()
	for _, g := range all0.Groups() {
		strong := g.Severity == diagnose.SevStrong
		e := g.Example
		text := fmt.Sprintf("%d × %s (%s) · first at tick %d, #%d %s", g.Count, g.Rule, g.Severity, e.Tick, e.Entity, e.Class)
		rows = append(rows, listRow{
			AnomalyListRow: views.AnomalyListRow{Group: true, Sev: views.Severity(g.Severity), Muted: m.mute.Muted(g.Rule, ""), Text: text},
			rule:           g.Rule, first: e.Key,
		})
		for i, fc := range g.Fields {
			if i == MaxListFields {
				rows = append(rows, listRow{AnomalyListRow: views.AnomalyListRow{Text: fmt.Sprintf("… %d more fields", len(g.Fields)-i)}, rule: g.Rule, first: e.Key})
				break
			}
			rows = append(rows, listRow{
				AnomalyListRow: views.AnomalyListRow{Sev: views.Severity(g.Severity), Muted: m.mute.Muted(g.Rule, fc.Name), Text: fmt.Sprintf("%d × %s", fc.Count, fc.Name)},
				rule:           g.Rule, field: fc.Name, first: firsts[fk{g.Rule, strong, fc.Name}],
			})
		}
	}
	rows = append(rows, m.valueRows()...)
	return rows, all, strong
}

// listBody draws the open list.
func (m *Model) listBody(w, h int) (string, string) {
	rows, all, strong := m.listRows()
	m.list.sel = clamp(m.list.sel, 0, max(0, len(rows)-1))
	vr := make([]views.AnomalyListRow, len(rows))
	for i := range rows {
		vr[i] = rows[i].AnomalyListRow
	}
	title := fmt.Sprintf("Anomalies · %d (%d strong)%s · enter go to · m mute/unmute · esc closes", all, strong, m.verdictsTitle())
	if !m.ix.Done {
		title += " · still indexing"
	} else if !m.ix.GradeDone {
		title += " · still grading"
	}
	if len(vr) == 0 {
		// "so far" only while the grading pass runs.
		empty := " no anomalies in the file"
		if !m.ix.Done || !m.ix.GradeDone {
			empty += " so far (still grading)"
		}
		return title, views.Block(m.theme.Dim.Render(empty), w, h)
	}
	return title, views.AnomalyList(vr, m.list.sel, w, h, m.theme)
}

// onListKey handles the keys of the open list.
func (m *Model) onListKey(msg tea.KeyPressMsg) tea.Cmd {
	rows, _, _ := m.listRows()
	switch msg.String() {
	case "esc", "q", "L":
		m.list = nil
	case "up", "k":
		m.list.sel = max(0, m.list.sel-1)
	case "down", "j":
		m.list.sel = min(len(rows)-1, m.list.sel+1)
	case "pgup":
		m.list.sel = max(0, m.list.sel-10)
	case "pgdown":
		m.list.sel = min(len(rows)-1, m.list.sel+10)
	case "m":
		if m.list.sel < len(rows) && rows[m.list.sel].first >= 0 {
			r := rows[m.list.sel]
			switch {
			case r.Group:
				on := !m.mute.Muted(r.rule, "")
				m.mute.MuteRule(r.rule, on)
				m.setNote(muteNote("rule "+string(r.rule), on), false)
			case r.field != "":
				on := !m.mute.Muted(r.rule, r.field) || m.mute.Muted(r.rule, "")
				m.mute.MuteField(r.field, on)
				m.setNote(muteNote("field "+r.field, on), false)
			}
			m.cache.fieldsKey.drop()
		}
	case "enter":
		if m.list.sel < len(rows) && rows[m.list.sel].verdict != nil {
			// A verdict's type: its first read an update makes, searched
			// from the start.
			ne := rows[m.list.sel].verdict
			m.list = nil
			m.cancelScan()
			q := "type " + ne.Name
			return m.startScanAfter(q, session.NewFieldsMatcher(q, ne.FieldNames), session.Ref{Cmd: 0, Msg: -1, Upd: -1, Field: -1})
		} else if m.list.sel < len(rows) && rows[m.list.sel].first < 0 {
			m.setNote(rows[m.list.sel].Text, false) // the group row: I applies them
		} else if m.list.sel < len(rows) {
			f := m.ix.Findings[rows[m.list.sel].first]
			m.list = nil
			m.jumps.force = true
			return m.reveal(f.At)
		}
	}
	return nil
}

func muteNote(what string, on bool) string {
	if on {
		return "muted " + what + ": no marks, no a/A stops"
	}
	return "unmuted " + what
}

// muteSelectedField (M) mutes or unmutes the selected field's name.
func (m *Model) muteSelectedField() {
	d := m.cur()
	if d == nil || m.sel.Upd < 0 || m.sel.Upd >= len(d.Rec.Updates) || m.sel.Field < 0 {
		m.setNote("select a field to mute its anomalies", false)
		return
	}
	fs := d.Rec.UpdateFields(m.sel.Upd)
	if m.sel.Field >= len(fs) {
		return
	}
	name := fs[m.sel.Field].Name
	on := !slices.Contains(m.mute.MutedFields(), name)
	m.mute.MuteField(name, on)
	m.cache.fieldsKey.drop()
	m.setNote(muteNote("field "+name, on), false)
}

// unmuted leaves a field's muted anomalies out.
func (m *Model) unmuted(as []diagnose.Anomaly, name string) []diagnose.Anomaly {
	var out []diagnose.Anomaly
	for _, a := range as {
		if !m.mute.Muted(a.Rule, name) {
			out = append(out, a)
		}
	}
	return out
}
