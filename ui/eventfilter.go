package ui

import (
	"fmt"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// Game events by name in the timeline (issue 47). The index holds every
// game event with its name (session.Index.Events), so nothing here scans
// the file: the filter (f) keeps, besides the updates its scan finds, the
// events whose name the query matches, and shows them under their packets;
// n/N and g under it stop at them; / with an event's exact name goes to
// the next event of that name at once.

// place orders the timeline's rows in the file: a command, the inner
// index of a message (-1: the command itself), an update (-1: the
// message itself).
type place struct{ cmd, inner, upd int }

func (p place) before(o place) bool {
	if p.cmd != o.cmd {
		return p.cmd < o.cmd
	}
	if p.inner != o.inner {
		return p.inner < o.inner
	}
	return p.upd < o.upd
}

// placeOf is where a Ref's row is in the file.
func (m *Model) placeOf(s session.Ref) place {
	p := place{s.Cmd, -1, -1}
	if msg := m.ix.Msg(s.Cmd, s.Msg); msg != nil {
		p.inner, p.upd = msg.Index, s.Upd
	}
	return p
}

func eventPlace(e *session.EventInfo) place { return place{int(e.Cmd), int(e.Inner), -1} }

// eventRef is the timeline's place of an event: its message, no update.
func (m *Model) eventRef(e *session.EventInfo) session.Ref {
	return m.ix.EventRef(e)
}

// keepsEvent reports whether the filter keeps a game event: its name
// matches the filter's query.
func (m *Model) keepsEvent(e *session.EventInfo) bool { return keeps(m.filter, e) }

// keeps reports whether mt (nil: no filter) matches event e's name.
func keeps(mt *session.Matcher, e *session.EventInfo) bool {
	return mt != nil && e != nil && e.Err == nil && mt.EventName(e.Label)
}

// eventsIn are the indexed events of command ci.
func (m *Model) eventsIn(ci int) []session.EventInfo {
	evs := m.ix.Events
	lo := sort.Search(len(evs), func(i int) bool { return int(evs[i].Cmd) >= ci })
	hi := lo
	for hi < len(evs) && int(evs[hi].Cmd) == ci {
		hi++
	}
	return evs[lo:hi]
}

// eventsShown reports whether the filter keeps an event of command ci:
// such a packet shows its events without being expanded (until it is
// collapsed).
func (m *Model) eventsShown(ci int) bool {
	if m.filter == nil {
		return false
	}
	if on, set := m.userExp[expKey{int32(ci), -1}]; set && !on {
		return false
	}
	evs := m.eventsIn(ci)
	for i := range evs {
		if m.keepsEvent(&evs[i]) {
			return true
		}
	}
	return false
}

// keepsMessage reports whether the filter shows message j of command ci:
// a packet-entities message with an update it keeps, or an event it keeps.
func (m *Model) keepsMessage(ci, j int) bool {
	msg := m.ix.Msg(ci, j)
	if msg == nil {
		return false
	}
	if pe := msg.PE; pe != nil && m.anyFiltered(pe.First, len(pe.Updates)) {
		return true
	}
	return m.keepsEvent(m.ix.Event(ci, msg.Index))
}

// filterEvents marks the commands holding the events a filter of mt keeps
// and counts them, with their names (in the order they first occur).
func (m *Model) filterEvents(mt *session.Matcher, cmds []bool) (n int, names []string) {
	seen := map[string]bool{}
	for i := range m.ix.Events {
		e := &m.ix.Events[i]
		if !keeps(mt, e) || int(e.Cmd) >= len(cmds) {
			continue
		}
		cmds[e.Cmd] = true
		n++
		if !seen[e.Label] {
			seen[e.Label] = true
			names = append(names, e.Label)
		}
	}
	return n, names
}

// filterNote is the note a filter set says: what it keeps.
func filterNote(q string, updates, events int, names []string) string {
	var kept []string
	if updates > 0 || events == 0 {
		kept = append(kept, views.Count(updates, "update"))
	}
	if events > 0 {
		const most = 3
		shown := names
		if len(shown) > most {
			shown = append(shown[:most:most], "…")
		}
		kept = append(kept, fmt.Sprintf("%s (%s)", views.Count(events, "game event"), strings.Join(shown, ", ")))
	}
	return fmt.Sprintf("filter %q: %s", q, strings.Join(kept, ", "))
}

// definedUnsent names the events the file's event list defines whose name
// q matches but that the file never sends ("" for none, or no list): the
// answer to "is it a parser bug, or is it not in the demo?".
func (m *Model) definedUnsent(mt *session.Matcher) string {
	sent := map[string]bool{}
	for i := range m.ix.Events {
		sent[m.ix.Events[i].Label] = true
	}
	var names []string
	for i := len(m.ix.Events) - 1; i >= 0; i-- {
		l := m.ix.Events[i].List
		if l == nil {
			continue
		}
		for _, d := range l.Descriptors {
			if !sent[d.Name] && mt.EventName(d.Name) {
				names = append(names, d.Name)
			}
		}
		break // the list in force at the end
	}
	if len(names) == 0 {
		return ""
	}
	if len(names) > 3 {
		names = append(names[:3:3], "…")
	}
	return fmt.Sprintf("; the event list defines %s, but the file sends none", strings.Join(names, ", "))
}

// nextKeptEvent is the first event the filter keeps after (dir > 0) or
// before (dir < 0) p, or nil.
func (m *Model) nextKeptEvent(p place, dir int) *session.EventInfo {
	evs := m.ix.Events
	if m.filter == nil {
		return nil
	}
	if dir > 0 {
		i := sort.Search(len(evs), func(i int) bool { return p.before(eventPlace(&evs[i])) })
		for ; i < len(evs); i++ {
			if m.keepsEvent(&evs[i]) {
				return &evs[i]
			}
		}
		return nil
	}
	i := sort.Search(len(evs), func(i int) bool { return !eventPlace(&evs[i]).before(p) }) - 1
	for ; i >= 0; i-- {
		if m.keepsEvent(&evs[i]) {
			return &evs[i]
		}
	}
	return nil
}

// nearerEvent reports whether event e comes before update k (k outside
// the file: none) going dir from the selection.
func (m *Model) nearerEvent(e *session.EventInfo, k, dir int) bool {
	if e == nil {
		return false
	}
	if k < 0 || k >= m.ix.NumUpdates() {
		return true
	}
	u := m.placeOf(m.ix.Ref(k))
	if dir > 0 {
		return eventPlace(e).before(u)
	}
	return u.before(eventPlace(e))
}

// firstKept goes to the first update or event the filter keeps at or after
// command ci (from k, the command's first update); false when there is
// none.
func (m *Model) firstKept(ci, k int) (tea.Cmd, bool) {
	for ; k < len(m.filterUpd) && !m.filterUpd[k]; k++ {
	}
	e := m.nextKeptEvent(place{ci, -1, -2}, 1)
	if m.nearerEvent(e, k, 1) {
		return m.reveal(m.eventRef(e)), true
	}
	if k < len(m.filterUpd) {
		return m.jump(k), true
	}
	return nil, false
}

// searchEvent goes to the next game event named q exactly (as the file's
// event list spells it, case aside) after the selection, wrapping: false
// when no event of the file has that name, and the search is a scan of
// field and class names.
func (m *Model) searchEvent(q string) (tea.Cmd, bool) {
	var all []*session.EventInfo
	for i := range m.ix.Events {
		if e := &m.ix.Events[i]; e.Err == nil && strings.EqualFold(e.Label, q) {
			all = append(all, e)
		}
	}
	if len(all) == 0 {
		return nil, false
	}
	at := m.placeOf(m.sel)
	if m.sel.IsEnd() {
		at = place{len(m.ix.Commands), -1, -1}
	}
	nth := sort.Search(len(all), func(i int) bool { return at.before(eventPlace(all[i])) })
	wrap := ""
	if nth == len(all) {
		nth, wrap = 0, " (wrapped to the start)"
	}
	e := all[nth]
	if m.filter != nil && !m.keepsEvent(e) {
		m.clearFilter() // its rows would hide the event
		wrap += "; filter cleared to show it"
	}
	m.jumps.force = true
	cmd := m.reveal(m.eventRef(e))
	m.setNote(fmt.Sprintf("%s: event %d of %d, at tick %d%s (/ enter for the next)", e.Label, nth+1, len(all), m.ix.Commands[e.Cmd].Tick, wrap), false)
	return cmd, true
}
