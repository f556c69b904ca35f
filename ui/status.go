package ui

import (
	"fmt"
	"strings"
)

// locationShort is location in fewer cells, for a status line that cannot
// hold the whole breadcrumb beside its keys: the message's name goes (the
// timeline shows it) and counts are spelt n/of.
func (m *Model) locationShort() string {
	s := m.sel
	c := m.ix.Cmd(s.Cmd)
	if s.IsEnd() || c == nil {
		return m.location()
	}
	tick := "signon"
	if c.Tick >= 0 {
		tick = fmt.Sprintf("tick %d", c.Tick)
	}
	parts := []string{tick, fmt.Sprintf("#%d", c.Index)}
	if msg := m.ix.Msg(s.Cmd, s.Msg); msg != nil && msg.PE != nil && s.Upd >= 0 {
		parts = append(parts, fmt.Sprintf("upd %d/%d", s.Upd, len(msg.PE.Updates)))
		if u := m.ix.Update(s.Cmd, s.Msg, s.Upd); u != nil && s.Field >= 0 {
			parts = append(parts, fmt.Sprintf("field %d/%d", s.Field, u.Fields()))
		}
	} else if msg != nil {
		parts = append(parts, msg.Name)
	}
	if wi := m.wiHere(); wi != nil {
		parts = append(parts, "what-if")
	}
	return strings.Join(parts, " › ")
}
