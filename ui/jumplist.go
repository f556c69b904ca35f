package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/session"
)

// jumpList is where the selection was before each jump (g, /, e, a, c, L,
// and n or ] when they leave the packet), as vim's and less's: ctrl+o goes
// back over it, ctrl+i (or ctrl+n) forward again.
type jumpList struct {
	back, fwd []session.Ref
	// force records the next reveal as a jump even within one packet: set
	// by the keys whose moves are jumps wherever they land.
	force bool
	// moving is set while ctrl+o or ctrl+i reveals, which must not record.
	moving bool
}

// maxJumps bounds the list (vim keeps 100).
const maxJumps = 100

// record notes a jump from from to to, before it is made.
func (j *jumpList) record(from, to session.Ref) {
	force := j.force
	j.force = false
	if j.moving || from == session.None || from.Cmd < 0 {
		return
	}
	same := from.Cmd == to.Cmd && from.Msg == to.Msg && from.Upd == to.Upd
	if same || (!force && from.Cmd == to.Cmd) {
		return
	}
	j.fwd = nil
	if n := len(j.back); n > 0 && j.back[n-1] == from {
		return
	}
	j.back = append(j.back, from)
	if len(j.back) > maxJumps {
		j.back = j.back[1:]
	}
}

// jumpBack (ctrl+o) returns to where the last jump came from; jumpForward
// (ctrl+i) undoes that.
func (m *Model) jumpBack() tea.Cmd { return m.jumpMove(&m.jumps.back, &m.jumps.fwd, "back") }

func (m *Model) jumpForward() tea.Cmd { return m.jumpMove(&m.jumps.fwd, &m.jumps.back, "forward") }

func (m *Model) jumpMove(from, to *[]session.Ref, dir string) tea.Cmd {
	n := len(*from)
	if n == 0 {
		if dir == "back" {
			m.setNote("no jump to go back to (g, /, e, a, c and n across packets are jumps)", false)
		} else {
			m.setNote("no jump to go forward to (ctrl+o goes back)", false)
		}
		return nil
	}
	target := (*from)[n-1]
	*from = (*from)[:n-1]
	*to = append(*to, m.sel)
	m.jumps.moving = true
	defer func() { m.jumps.moving = false }()
	cmd := m.reveal(target)
	where := "tick ?"
	if c := m.ix.Cmd(target.Cmd); c != nil {
		where = fmt.Sprintf("%s, #%d", tickWord(c.Tick), c.Index)
	}
	m.setNote(fmt.Sprintf("jump %s to %s (%d back, %d forward)", dir, where, len(m.jumps.back), len(m.jumps.fwd)), false)
	return cmd
}
