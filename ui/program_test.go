package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestProgramSmoke runs the root model in a real tea.Program through
// teatest/v2 (commands run asynchronously, the renderer draws to a buffer):
// open the Dota replay, press n, quit. The golden screen tests use the
// synchronous harness instead, whose screens are deterministic.
func TestProgramSmoke(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	m := New("auto-20240102-2233.dem", data, Options{NoColor: true, IndexBudget: time.Hour})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 48))
	wait := func(s string) {
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	wait("FileHeader")
	tm.Send(tea.KeyPressMsg{Code: 'n', Text: "n"})
	wait("m_flSimulationTime") // the decode finished and the fields are drawn
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	fm, ok := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	if !ok {
		t.Fatal("final model is not *Model")
	}
	if fm.fatal != "" {
		t.Fatal(fm.fatal)
	}
	if fm.sel.Upd != 0 || fm.ix.FlatOf(fm.sel) != 0 {
		t.Fatalf("after n the selection is %+v", fm.sel)
	}
	if s := fm.View().Content; !strings.Contains(s, "m_flSimulationTime") {
		t.Fatalf("final screen lacks the first field:\n%s", s)
	}
}
