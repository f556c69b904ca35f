package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/session"
)

// TestDrawWhileIndexing draws the screen after every message and while
// each command runs, as a tea.Program does, while the index pass runs on its own goroutine with
// short steps: DEM_SendTables is selected as soon as the index has it (its
// inspector counts the schema the pass read), then the first
// svc_CreateStringTable (its entries read off the loop), then n steps into
// the first entity update and on. Under -race (.ci/run) nothing the screen reads may
// be written by the pass meanwhile; without it, the test still asks that
// the schema shows before the pass ends.
func TestDrawWhileIndexing(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	m := New("auto-20240102-2233.dem", data, Options{NoColor: true, IndexBudget: time.Millisecond})
	queue := []tea.Cmd{m.Init()}
	deliver := func(msg tea.Msg) {
		_, next := m.Update(msg)
		queue = append(queue, next)
		_ = m.View()
	}
	deliver(tea.WindowSizeMsg{Width: 160, Height: 48})
	var sawSchema, sawTable, steps int
	// Until every step is taken (on a fast machine without -race the pass
	// may end first: the steps are then drawn after it).
	for round := 0; round < 5000 && (len(queue) > 0 && !m.ix.Done || steps < 20); round++ {
		var c tea.Cmd
		if len(queue) > 0 {
			c, queue = queue[0], queue[1:]
		}
		switch msg := drawWhile(m, c).(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			deliver(msg)
		}
		switch i := sendTablesAt(m.ix); {
		case sawSchema == 0 && i >= 0 && m.sel.Cmd != i:
			queue = append(queue, m.reveal(refCmd(i)), m.derive())
			_ = m.View()
		case sawSchema == 0 && i >= 0:
			if strings.Contains(m.View().Content, "serializers,") {
				sawSchema = 1
			}
		case sawTable == 0:
			// A string table's entries, read off the loop while Update
			// appends to the index.
			if at, ok := tableMessage(m.ix); ok && m.sel != at {
				queue = append(queue, m.reveal(at), m.derive())
			} else if ok && strings.Contains(m.View().Content, "String-table entries") {
				sawTable = 1
			}
		case steps < 20 && m.ix.NumUpdates() > 0:
			steps++
			deliver(keyMsg("n"))
		}
	}
	if m.fatal != "" {
		t.Fatal(m.fatal)
	}
	if sawSchema == 0 {
		t.Error("DEM_SendTables' inspector never counted the schema")
	}
	if sawTable == 0 {
		t.Error("no string table's entries were shown")
	}
	if steps < 20 || m.sel.Upd < 0 {
		t.Errorf("n did not step into the entity updates: %d steps, at %+v", steps, m.sel)
	}
	m.stopIndex()
}

// drawWhile runs c on a goroutine of its own, as a tea.Program does, and
// draws the screen every few hundred microseconds until it returns (a
// program redraws on its own clock, whatever runs).
func drawWhile(m *Model, c tea.Cmd) tea.Msg {
	if c == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- c() }()
	for {
		select {
		case msg := <-done:
			return msg
		default:
			_ = m.View()
			time.Sleep(300 * time.Microsecond)
		}
	}
}

// sendTablesAt is the index of the file's DEM_SendTables command, -1
// before the index has it.
func sendTablesAt(ix *session.Index) int {
	for i := range ix.Commands {
		if ix.Commands[i].Kind.String() == "DEM_SendTables" {
			return i
		}
	}
	return -1
}

// tableMessage is the place of the file's first svc_CreateStringTable.
func tableMessage(ix *session.Index) (session.Ref, bool) {
	for i := range ix.Commands {
		for j, msg := range ix.Commands[i].Msgs() {
			if msg.Name == "svc_CreateStringTable" {
				return session.Ref{Cmd: i, Msg: j, Upd: -1, Field: -1}, true
			}
		}
	}
	return session.None, false
}

// refCmd is the place of command i itself.
func refCmd(i int) session.Ref { return session.Ref{Cmd: i, Msg: -1, Upd: -1, Field: -1} }
