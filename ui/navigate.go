package ui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// promptNumber goes where the g or e prompt's text says: a tick or an
// entity index, each 0 or more. An empty e prompt takes the selected
// update's entity (its next update), else repeats the last entity.
func (m *Model) promptNumber(kind promptKind, text string) tea.Cmd {
	text = strings.TrimSpace(text)
	what := "a tick"
	if kind == promptEntity {
		what = "an entity index"
	}
	if text == "" && kind == promptEntity {
		e := m.promptEntityDefault()
		if e < 0 {
			m.setNote("type an entity index (empty takes the selected update's entity)", true)
			return nil
		}
		return m.gotoEntity(e)
	}
	if text == "" {
		return nil
	}
	n, err := strconv.ParseInt(text, 10, 64)
	var ne *strconv.NumError
	switch {
	case errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange), err == nil && n > 1<<31-1:
		limit := "no tick is that late"
		if last := len(m.ix.Commands); kind == promptTick && last > 0 {
			limit = fmt.Sprintf("the last tick is %d", m.ix.Commands[last-1].Tick)
		} else if kind == promptEntity {
			limit = "entity indexes are far smaller"
		}
		m.setNote(fmt.Sprintf("%s is out of range: %s", text, limit), true)
		return nil
	case err != nil:
		m.setNote(fmt.Sprintf("%q is not a number: type %s", text, what), true)
		return nil
	case n < 0:
		m.setNote(fmt.Sprintf("%d is not %s: %s is 0 or more", n, what, strings.TrimPrefix(strings.TrimPrefix(what, "a "), "an ")), true)
		return nil
	}
	if kind == promptTick {
		if m.filter != nil {
			return m.gotoTickFiltered(int(n))
		}
		return m.gotoTick(int(n))
	}
	m.lastEntity = int(n)
	return m.gotoEntity(int(n))
}

// gotoTickFiltered goes to the first update the filter keeps at or after
// tick t, keeping the filter.
func (m *Model) gotoTickFiltered(t int) tea.Cmd {
	i := m.ix.CommandAtTick(int32(t))
	if i < 0 {
		m.setNote(m.pastLastTick(t), true)
		return nil
	}
	if cmd, ok := m.firstKept(i, m.ix.Commands[i].First); ok {
		m.setNote(fmt.Sprintf("filter %q: first match at or after tick %d is at tick %d", m.filterText, t, m.ix.Commands[m.sel.Cmd].Tick), false)
		return cmd
	}
	m.setNote(fmt.Sprintf("filter %q: no match at or after tick %d (esc clears the filter)", m.filterText, t), true)
	return nil
}

// promptEntityDefault is the entity an empty e prompt goes to: the
// selected update's, else the last one typed, else -1.
func (m *Model) promptEntityDefault() int {
	if u := m.ix.Update(m.sel.Cmd, m.sel.Msg, m.sel.Upd); u != nil {
		return int(u.Entity)
	}
	return m.lastEntity
}

// pastLastTick says that no command comes at or after tick t, and where
// the file (or, while the index pass reads, what it has read) ends.
func (m *Model) pastLastTick(t int) string {
	s := fmt.Sprintf("no command at or after tick %d", t)
	if n := len(m.ix.Commands); n > 0 {
		s += fmt.Sprintf(": the last is at tick %d", m.ix.Commands[n-1].Tick)
		if !m.ix.Done {
			s += " so far (the file is still being indexed)"
		}
	}
	return s
}
