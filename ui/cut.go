package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// A tick window marked on the timeline (v at its first tick, v at its
// last) and written as a replay of its own (w: session.File.Cut, the
// `dembug cut` of the open file under its aliases), with the command line
// that writes it again.

// cutState is the window marked, the cut being written and the report of
// the last one written. It outlives a reopen under other aliases: the
// marks are ticks of the same bytes, and a cut written is on disk.
type cutState struct {
	marked, ended bool  // v marked the window's first tick; v marked its last
	start, end    int32 // the ticks marked, in the order marked
	running       *cutRun
	done          *session.CutDone // the report shown, nil when closed
}

// cutRun is the cut being written off the loop.
type cutRun struct {
	from, to int32
	out      string
	gen      stamp
	started  time.Time
	ticks    int // cutTickResults seen: the spinner's frame
}

// cutTickResult redraws the status line's word on a cut being written (its
// spinner and time), every cutTick while it runs.
type cutTickResult struct{}

const cutTick = 250 * time.Millisecond

// cutResult is a cut written, or why it was not.
type cutResult struct {
	done *session.CutDone
	err  error
}

// rowTick is the tick of the command a timeline row belongs to; false for
// the end's rows and the signon's commands (no tick yet).
func (m *Model) rowTick(r tlRow) (int32, bool) {
	switch r.kind {
	case views.RowCommand, views.RowMessage, views.RowUpdate:
		t := m.ix.Commands[r.cmd].Tick
		return t, t >= 0
	}
	return 0, false
}

// cursorTick is the tick the timeline's cursor is at; on the end's rows,
// the last command's.
func (m *Model) cursorTick() (int32, bool) {
	if m.cursor < 0 || m.cursor >= m.rows.Len() {
		return 0, false
	}
	r := m.rows.At(m.cursor)
	if isEnd(r.kind) && len(m.ix.Commands) > 0 {
		t := m.ix.Commands[len(m.ix.Commands)-1].Tick
		return t, t >= 0
	}
	return m.rowTick(r)
}

// cutWindow is the window marked, first tick first: from the first mark
// to the second, or, before the second, to the cursor's tick.
func (m *Model) cutWindow() (lo, hi int32, ok bool) {
	c := &m.cut
	if !c.marked {
		return 0, 0, false
	}
	end := c.start
	if c.ended {
		end = c.end
	} else if t, ok := m.cursorTick(); ok {
		end = t
	}
	return min(c.start, end), max(c.start, end), true
}

// markWindow (v) marks the window's first tick, then its last; on a
// window marked whole it clears the marks.
func (m *Model) markWindow() {
	c := &m.cut
	if c.ended {
		m.clearWindow()
		return
	}
	t, ok := m.cursorTick()
	if !ok {
		m.setNote("the signon has no tick: mark a command of the game (n steps to it)", true)
		return
	}
	if !c.marked {
		c.marked, c.start = true, t
		m.setNote(fmt.Sprintf("window from tick %d: move, then v marks its last tick (w writes it, esc clears it)", t), false)
		return
	}
	c.ended, c.end = true, t
	lo, hi, _ := m.cutWindow()
	m.setNote(fmt.Sprintf("window ticks %d–%d: w writes it as a replay (v or esc clears it)", lo, hi), false)
}

// clearWindow drops the marks.
func (m *Model) clearWindow() {
	m.cut.marked, m.cut.ended = false, false
	m.setNote("window cleared", false)
}

// writeWindow (w) asks where to write the window, with a name beside the
// current folder to start from.
func (m *Model) writeWindow() {
	if r := m.cut.running; r != nil {
		m.setNote(fmt.Sprintf("a cut is being written to %s already", r.out), true)
		return
	}
	lo, hi, ok := m.cutWindow()
	if !ok {
		m.setNote("no window to write: v marks its first tick at the selection, v again its last", true)
		return
	}
	m.prompt, m.input = promptCut, session.DefaultCutPath(m.path, lo, hi)
}

// cutPromptLabel is the prompt's label: the window it writes.
func (m *Model) cutPromptLabel() string {
	lo, hi, _ := m.cutWindow()
	return fmt.Sprintf("write ticks %d–%d to", lo, hi)
}

// startCut writes the window to the file the prompt named (empty: the
// name it offered) off the loop.
func (m *Model) startCut(text string) tea.Cmd {
	lo, hi, ok := m.cutWindow()
	if !ok {
		return nil
	}
	out := strings.TrimSpace(text)
	if out == "" {
		out = session.DefaultCutPath(m.path, lo, hi)
	}
	out = session.ExpandHome(out)
	gen := m.jobs.start(jobCut)
	m.cut.running = &cutRun{from: lo, to: hi, out: out, gen: gen, started: time.Now()}
	m.setNote(fmt.Sprintf("cutting ticks %d–%d to %s…", lo, hi, out), false)
	file, src := m.file, m.path
	return tea.Batch(m.run(jobCut, func() any {
		d, err := file.Cut(src, lo, hi, out)
		return cutResult{done: d, err: err}
	}), m.cutTickCmd())
}

func (m *Model) cutTickCmd() tea.Cmd {
	return m.runAfter(jobCut, cutTick, func() any { return cutTickResult{} })
}

// onCutTick redraws the cut's progress and asks for the next tick while
// it runs.
func (m *Model) onCutTick() tea.Cmd {
	r := m.cut.running
	if r == nil {
		return nil
	}
	r.ticks++
	return m.cutTickCmd()
}

// onCut shows the cut written, or its error on one line.
func (m *Model) onCut(msg cutResult) {
	r := m.cut.running
	m.cut.running = nil
	if msg.err != nil {
		m.setNote(fmt.Sprintf("cut of ticks %d–%d not written: %s", r.from, r.to, oneLine(msg.err.Error())), true)
		return
	}
	m.cut.done = msg.done
	d := msg.done
	note := fmt.Sprintf("wrote %s: ticks %d–%d, %s", d.Out, d.First, d.Last, views.SizeText(d.Size))
	if d.Stopped != "" || d.Ended != "" {
		note += fmt.Sprintf(" · the window ends early, at tick %d", d.Last)
	}
	m.setNote(note, d.Stopped != "" || d.Ended != "")
}

// oneLine is s on one line (an error's lines joined).
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cutStatus is what the status line says of a cut being written ("" for
// none).
func (m *Model) cutStatus(wide bool) string {
	r := m.cut.running
	switch {
	case r == nil:
		return ""
	case wide:
		return fmt.Sprintf("%s cutting ticks %d–%d… %.1f s · ", spinner[r.ticks%len(spinner)], r.from, r.to, time.Since(r.started).Seconds())
	}
	return spinner[r.ticks%len(spinner)] + " cutting… · "
}

// windowTitle is the timeline title's word on the window marked.
func (m *Model) windowTitle() string {
	lo, hi, ok := m.cutWindow()
	if !ok {
		return ""
	}
	return fmt.Sprintf(" · window %d–%d", lo, hi)
}

// markWindowRows marks the rows of vr (the timeline's rows from top on)
// that lie inside the window: a bracket from its first row to its last.
func (m *Model) markWindowRows(vr []views.TimelineRow, top int) {
	lo, hi, ok := m.cutWindow()
	if !ok {
		return
	}
	in := func(i int) bool {
		if i < 0 || i >= m.rows.Len() {
			return false
		}
		t, ok := m.rowTick(m.rows.At(i))
		return ok && t >= lo && t <= hi
	}
	for i := range vr {
		at := top + i
		if !in(at) {
			continue
		}
		first, last := !in(at-1), !in(at+1)
		switch {
		case first && last:
			vr[i].Window = views.WindowOnly
		case first:
			vr[i].Window = views.WindowFirst
		case last:
			vr[i].Window = views.WindowLast
		default:
			vr[i].Window = views.WindowIn
		}
	}
}

// cutModal is the report of a cut written, over the panes.
type cutModal struct{}

func (cutModal) open(m *Model) bool { return m.cut.done != nil }

func (cutModal) onKey(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	if k := m.keys; key.Matches(msg, k.Back, k.Quit, k.Expand) {
		// The command line the box showed stays on the status line.
		m.setNote("from the shell: "+m.cut.done.Command, false)
		m.cut.done = nil
	}
	return nil
}

func (cutModal) view(m *Model, bodyH int) string {
	d := m.cut.done
	// Inside the screen's edges (at 43 columns a 40-column box covered the
	// panes' borders), and no wider than reads well.
	w := max(1, min(m.w-4, max(40, min(100, m.w-8))))
	in := views.CutReportInput{
		Out: d.Out, Command: d.Command, First: d.First, Last: d.Last, StateTick: d.StateTick,
		Commands: d.Commands, Entities: d.Entities, Tables: d.Tables, Framing: d.Framing, Size: d.Size, InSize: d.InSize,
		Carried: d.Carried, Past: d.Past, Notes: d.Notes, Seconds: d.Elapsed.Seconds(),
		Footer: "enter or esc closes", Width: w, Theme: m.theme,
	}
	for _, p := range []string{d.Stopped, d.Ended} {
		if p != "" {
			in.Problems = append(in.Problems, p)
		}
	}
	in.Height = min(bodyH, views.CutReportLines(in))
	return views.Overlay(m.panesBody(bodyH), views.CutReport(in), (m.w-w)/2, max(0, (bodyH-in.Height)/2))
}

func (cutModal) status(*Model) (string, string, string) {
	return "", "enter or esc closes", "esc closes"
}
