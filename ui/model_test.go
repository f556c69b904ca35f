package ui

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// selectUpdate selects field f of flat update k and loads its message.
func (hs *harness) selectUpdate(k, f int) {
	hs.run(hs.m.jump(k))
	hs.m.sel.Field = f
}

// bitMarks parses the NoColor bit section of the bitstream pane: which bits
// (absolute, within the entity data) carry '^' (value) and '~' (path).
func bitMarks(t *testing.T, out string) (value, path map[uint]bool, firstByte int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "bits ") || i == 0 || i+1 >= len(lines) {
			continue
		}
		byteLine := strings.Fields(lines[i-1])
		if len(byteLine) < 2 || byteLine[0] != "byte" {
			t.Fatalf("no byte line above the bit row:\n%s", out)
		}
		fb, err := strconv.ParseUint(strings.TrimPrefix(byteLine[1], "0x"), 16, 64)
		if err != nil {
			t.Fatalf("byte line %q: %v", lines[i-1], err)
		}
		cols := map[int]uint{}
		n := uint(fb) * 8
		for col, c := range []rune(l) {
			if col >= len("bits") && (c == '0' || c == '1') {
				cols[col] = n
				n++
			}
		}
		value, path = map[uint]bool{}, map[uint]bool{}
		for col, c := range []rune(lines[i+1]) {
			bit, ok := cols[col]
			switch {
			case c == '^' && ok:
				value[bit] = true
			case c == '~' && ok:
				path[bit] = true
			case (c == '^' || c == '~') && !ok:
				t.Fatalf("marker at column %d is not under a bit:\n%s", col, out)
			}
		}
		return value, path, int(fb)
	}
	t.Fatalf("no bit row:\n%s", out)
	return nil, nil, 0
}

// The highlighted bits are exactly the selected field's value bits, and
// its path op's bits, at bit granularity, across real updates.
func TestBitstreamMarksMatchFields(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "dota", data, 160, 48)
	checked := 0
	for k := 0; k < hs.m.ix.NumUpdates(); k += 97 {
		hs.selectUpdate(k, 0)
		fs := hs.m.curFields()
		for f := 0; f < len(fs) && f < 8; f++ {
			hs.m.sel.Field = f
			_, out := hs.m.bitsPane(78, 17)
			value, path, first := bitMarks(t, out)
			lo, hi := uint(first)*8, uint(first)*8+7*8 // the row shows 7 bytes at this width
			fd := fs[f]
			for b := lo; b < hi; b++ {
				inValue := b >= fd.Start && b < fd.Start+fd.Bits
				inPath := b >= fd.Op.Start && b < fd.Op.Start+fd.Op.Bits
				if value[b] != inValue || path[b] != inPath {
					t.Fatalf("update %d field %d (%s, value %d+%d, path op %d+%d): bit %d marked value=%v path=%v:\n%s",
						k, f, fd.Name, fd.Start, fd.Bits, fd.Op.Start, fd.Op.Bits, b, value[b], path[b], out)
				}
			}
			if fd.Bits > 0 && !value[fd.Start] {
				t.Fatalf("update %d field %d: first value bit %d not in view:\n%s", k, f, fd.Start, out)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d fields checked", checked)
	}
}

func TestNextAndPreviousAreInverse(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "dota", data, 120, 40)
	var seq []session.Ref
	for range 900 { // crosses from the full frame into delta messages
		hs.keys("n")
		seq = append(seq, hs.m.sel)
	}
	for i := len(seq) - 2; i >= 0; i -= 37 {
		for hs.m.sel != seq[i] {
			before := hs.m.sel
			hs.keys("N")
			if hs.m.sel == before {
				t.Fatalf("N stuck at %+v", before)
			}
		}
		if d := hs.m.cur(); d == nil || d.Cmd != seq[i].Cmd {
			t.Fatalf("after N the loaded message is %+v, want command %d", d, seq[i].Cmd)
		}
	}
	// Every update in between was visited in order.
	for i := 1; i < len(seq); i++ {
		a := hs.m.ix.FlatOf(seq[i-1])
		b := hs.m.ix.FlatOf(seq[i])
		if b != a+1 {
			t.Fatalf("n went from update %d to %d", a, b)
		}
	}
}

func TestPacketsEntityFilterAndExpand(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "dota", data, 160, 48)
	ix := hs.m.ix

	hs.keys("]")
	if c := ix.Cmd(hs.m.sel.Cmd); c == nil || !c.Kind.HasPackets() {
		t.Fatalf("] selected %+v", hs.m.sel)
	}
	first := hs.m.sel.Cmd
	hs.keys("]", "]", "[")
	if c := ix.Cmd(hs.m.sel.Cmd); c == nil || !c.Kind.HasPackets() || hs.m.sel.Cmd <= first {
		t.Fatalf("] ] [ selected %+v", hs.m.sel)
	}

	// e: the next update of entity 1.
	hs.keys("e")
	hs.typ("1")
	hs.keys("enter")
	if u := ix.Update(hs.m.sel.Cmd, hs.m.sel.Msg, hs.m.sel.Upd); u == nil || u.Entity != 1 {
		t.Fatalf("e 1 selected %+v", hs.m.sel)
	}

	// f: only updates touching m_iHealth remain, and n stays among them.
	hs.keys("f")
	hs.typ("m_iHealth")
	hs.keys("enter")
	if hs.m.filter == nil {
		t.Fatalf("no filter: %s", hs.m.note)
	}
	matches := func() bool { // the selected update, as decoded, touches m_iHealth
		for _, f := range hs.m.curFields() {
			if strings.Contains(strings.ToLower(f.Name), "m_ihealth") {
				return true
			}
		}
		return false
	}
	for range 20 {
		hs.keys("n")
		if !matches() {
			t.Fatalf("n under a filter reached %+v, which does not match", hs.m.sel)
		}
	}
	for _, r := range hs.m.rows.rows() {
		if r.kind == views.RowUpdate && !hs.m.filterUpd[ix.FlatOf(session.Ref{Cmd: int(r.cmd), Msg: int(r.msg), Upd: int(r.upd)})] {
			t.Fatalf("filtered timeline shows a non-matching update %+v", r)
		}
	}
	hs.keys("esc")
	if hs.m.filter != nil {
		t.Fatal("esc did not clear the filter")
	}

	// enter on a collapsed packet expands it; again collapses it.
	hs.keys("home")
	for hs.m.cursor < hs.m.rows.Len() && !hs.m.expandable(hs.m.rows.At(hs.m.cursor)) {
		hs.keys("j")
	}
	n := hs.m.rows.Len()
	hs.keys("enter")
	if hs.m.rows.Len() <= n {
		t.Fatal("enter did not expand")
	}
	hs.keys("enter")
	if hs.m.rows.Len() != n {
		t.Fatal("enter did not collapse")
	}

	// The mouse wheel over the timeline moves its cursor a row, as in
	// the fields pane.
	cur := hs.m.cursor
	hs.send(tea.MouseWheelMsg{X: 2, Y: 5, Button: tea.MouseWheelDown})
	if hs.m.cursor != cur+1 {
		t.Fatalf("wheel: cursor %d → %d", cur, hs.m.cursor)
	}
}

// Results of superseded decodes are dropped.
func TestStaleResultsAreDropped(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "dota", data, 120, 40)
	ix := hs.m.ix
	a, b := ix.Ref(0), ix.Ref(ix.NumUpdates()-1)
	cmdA := hs.m.reveal(session.Ref{Cmd: int(a.Cmd), Msg: int(a.Msg), Upd: int(a.Upd), Field: 0})
	cmdB := hs.m.reveal(session.Ref{Cmd: int(b.Cmd), Msg: int(b.Msg), Upd: int(b.Upd), Field: 0})
	if cmdA == nil || cmdB == nil {
		t.Skip("messages already loaded")
	}
	msgB := cmdB()
	msgA := cmdA()
	hs.m.Update(msgB)
	hs.m.Update(msgA) // late, stale: must not replace B
	if d := hs.m.cur(); d == nil || d.Cmd != int(b.Cmd) {
		t.Fatalf("detail is %+v, want command %d", hs.m.detail, b.Cmd)
	}
	// A stale index chunk is ignored too.
	rows := hs.m.rows.Len()
	hs.m.Update(done{kind: jobFile, at: hs.m.jobs.reopened().now(jobFile), v: &session.Chunk{Commands: []session.Command{{Index: 999}}}})
	if hs.m.rows.Len() != rows || len(ix.Commands) == 999 {
		t.Fatal("stale index chunk applied")
	}
}

// Every size renders exactly w×h, and resizing leaves nothing behind:
// the screen after a resize equals a fresh one at that size.
func TestLayoutsFitAndReflow(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "dota", data, 160, 48)
	hs.keys("n", "n", "tab", "j")
	for _, w := range []int{20, 40, 59, 60, 80, 99, 100, 120, 149, 150, 160, 220} {
		for _, h := range []int{6, 12, 16, 20, 24, 28, 40, 48, 60} {
			hs.send(tea.WindowSizeMsg{Width: w, Height: h})
			out := hs.screen()
			lines := strings.Split(out, "\n")
			if len(lines) != h {
				t.Fatalf("%dx%d: %d lines", w, h, len(lines))
			}
			for i, l := range lines {
				if n := views.Width(l); n != w {
					t.Fatalf("%dx%d: line %d is %d wide: %q", w, h, i, n, l)
				}
			}
		}
	}
	hs.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	fresh := newHarness(t, "dota", data, 80, 24)
	fresh.keys("n", "n", "tab", "j")
	if a, b := hs.screen(), fresh.screen(); a != b {
		t.Fatalf("screen after resizing differs from a fresh one:\n%s\n---\n%s", a, b)
	}
}

func TestTabShowsEveryPaneWhenSmall(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "dota", data, 80, 24)
	hs.keys("n")
	seen := map[pane]bool{}
	for range numPanes {
		l := hs.m.layout()
		if !l.visible[hs.m.focus] {
			t.Fatalf("focused pane %s is not shown at 80x24", hs.m.focus)
		}
		for p := pane(0); p < numPanes; p++ {
			if l.visible[p] {
				seen[p] = true
			}
		}
		hs.keys("tab")
	}
	if len(seen) != int(numPanes) {
		t.Fatalf("tab shows only %v", seen)
	}
}

// Bad input never crashes and shows where decoding stopped.
func TestTruncatedFile(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	cut := data[:len(data)*3/4]
	hs := newHarness(t, "cut.dem", cut, 160, 48)
	ix := hs.m.ix
	if !ix.Done || ix.Err == nil {
		t.Fatalf("truncated file: done %v err %+v", ix.Done, ix.Err)
	}
	if ix.NumUpdates() == 0 {
		t.Fatal("nothing decoded before the break")
	}
	if last := hs.m.rows.At(hs.m.rows.Len() - 1); last.kind != views.RowError {
		t.Fatal("timeline does not end with the error row")
	}
	hs.keys("end")
	s := hs.screen()
	for _, want := range []string{"✗ stopped at byte", "Decoding stopped", "truncated"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	// Everything before the break is browsable.
	hs.keys("N")
	if hs.m.cur() == nil || hs.m.loadErr != "" {
		t.Fatalf("last update before the break does not load: %s", hs.m.loadErr)
	}
	if hs.m.fatal != "" {
		t.Fatal(hs.m.fatal)
	}
	requireGolden(t, s)
}

func TestCorruptInputsNeverCrash(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	inputs := map[string][]byte{
		"empty":       nil,
		"short":       []byte("PBDEMS2"),
		"bad magic":   append([]byte("NOTADEMO"), data[8:4096]...),
		"header only": data[:16],
	}
	for _, at := range []int{20, 200, 5000, 70000, 150000, 300000, 500000} {
		b := append([]byte(nil), data...)
		for i := at; i < at+64 && i < len(b); i++ {
			b[i] ^= byte(i*131 + 7)
		}
		inputs[fmt.Sprintf("flipped at %d", at)] = b
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			hs := newHarness(t, name, in, 120, 40)
			hs.keys("n", "n", "]", "end", "N", "tab", "j", "G", "?", "?")
			s := hs.screen()
			if hs.m.fatal != "" {
				t.Fatalf("internal error: %s", hs.m.fatal)
			}
			if n := len(strings.Split(s, "\n")); n != 40 {
				t.Fatalf("%d lines", n)
			}
			if hs.m.ix.Err == nil && len(in) < 100 {
				t.Fatalf("no error shown for %q", name)
			}
		})
	}
}

// Every key of the key map is in the help screen and in docs/tui.md.
func TestEveryKeyIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/tui.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range DefaultKeyMap().HelpGroups() {
		for _, k := range g.Keys {
			for _, part := range strings.Fields(k.Keys) {
				if !strings.Contains(string(doc), "`"+part+"`") {
					t.Errorf("docs/tui.md does not list key `%s` (%s)", part, k.Desc)
				}
			}
		}
	}
}

func TestNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	if !noColor() {
		t.Fatal("NO_COLOR=1 not honoured")
	}
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm-256color")
	if noColor() {
		t.Fatal("empty NO_COLOR must not disable colour")
	}
	// A dumb terminal shows no colour: the text markers must be drawn.
	t.Setenv("TERM", "dumb")
	if !noColor() {
		t.Fatal("TERM=dumb draws with colour, without the text markers")
	}
	t.Setenv("TERM", "xterm-256color")
	// The colour theme paints; NoColor does not.
	_, data := loadReplay(t, dotaReplay)
	m := New("dota", data, Options{})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if s := m.Render(); !strings.Contains(s, "\x1b[") {
		t.Fatal("colour theme draws no colour")
	}
}

// The timeline grown chunk by chunk during the index pass lists the same
// rows as one listed afresh, on the Dota 2 replay indexed in small chunks.
func TestRowsGrownByChunks(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := &harness{tb: t, m: New("dota.dem", data, Options{NoColor: true, IndexBudget: time.Nanosecond})}
	hs.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	hs.run(hs.m.Init())
	if !hs.m.ix.Done || len(hs.m.ix.Commands) < 100 {
		t.Fatalf("index: done %v, %d commands", hs.m.ix.Done, len(hs.m.ix.Commands))
	}
	grown := hs.m.rows.rows()
	hs.m.rebuild()
	if len(grown) != hs.m.rows.Len() {
		t.Fatalf("%d rows grown, %d listed", len(grown), hs.m.rows.Len())
	}
	for i := range grown {
		if grown[i] != hs.m.rows.At(i) {
			t.Fatalf("row %d: grown %+v, listed %+v", i, grown[i], hs.m.rows.At(i))
		}
	}
}
