package ui

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dembug/dembug/cli"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/brokendemo"
	"github.com/dembug/dembug/session"
)

// markWindow goes to tick from, marks it, goes to tick to and marks it.
func markWindow(hs *harness, from, to string) {
	hs.keys("g")
	hs.typ(from)
	hs.keys("enter", "v", "g")
	hs.typ(to)
	hs.keys("enter", "v")
}

// The window marked with v … v is bracketed down the timeline's edge and
// named in its title; before the second v it runs to the cursor; v again
// (or esc) clears it.
func TestScreenCutWindow(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	hs.keys("g")
	hs.typ("400")
	hs.keys("enter", "v")
	lo, hi, ok := hs.m.cutWindow()
	if !ok || lo != hi || lo < 400 {
		t.Fatalf("after one v the window is %d–%d (%v)", lo, hi, ok)
	}
	hs.keys("]", "]")
	if _, hi2, _ := hs.m.cutWindow(); hi2 <= hi {
		t.Fatalf("before the second v the window does not follow the cursor: %d–%d", lo, hi2)
	}
	hs.keys("v")
	lo, hi, _ = hs.m.cutWindow()
	hs.keys("]") // the marked end stays where it was marked
	if lo2, hi2, _ := hs.m.cutWindow(); lo2 != lo || hi2 != hi {
		t.Fatalf("the window moved with the cursor after its end was marked: %d–%d, then %d–%d", lo, hi, lo2, hi2)
	}
	hs.keys("k", "k", "k", "k")
	s := hs.screen()
	title, tl := hs.m.timelinePane(60, 400)
	if !strings.Contains(title, "window 400–") || !strings.Contains(tl, "┌") || !strings.Contains(tl, "└") {
		t.Errorf("the window is not drawn: %s\n%s", title, tl)
	}
	requireGolden(t, s)
	hs.keys("v")
	if _, tl := hs.m.timelinePane(60, 400); hs.m.cut.marked || strings.Contains(tl, "┌") {
		t.Error("a third v does not clear the window")
	}
	markWindow(hs, "500", "450") // marked backwards: the same window
	if lo, hi, _ := hs.m.cutWindow(); lo > 450 || hi < 500 || lo >= hi {
		t.Errorf("a window marked backwards is %d–%d", lo, hi)
	}
	hs.keys("esc")
	if hs.m.cut.marked {
		t.Error("esc does not clear the window")
	}
	hs.keys("w")
	if hs.m.prompt != promptNone || !hs.m.noteErr {
		t.Errorf("w without a window: prompt %d, note %q", hs.m.prompt, hs.m.note)
	}
	hs.keys("home", "v")
	if hs.m.cut.marked || !hs.m.noteErr {
		t.Errorf("v on the signon: marked %v, note %q", hs.m.cut.marked, hs.m.note)
	}
}

// w writes the window marked as a replay of its own: it decodes whole and
// aligned, its entities at ticks inside the window are the original's (as
// `dembug entities --tick` prints them), and the box shows what it holds
// and the command line that writes it again.
func TestCutWritesTheWindow(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // the cut goes to the current folder
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	markWindow(hs, "400", "500")
	lo, hi, _ := hs.m.cutWindow()
	hs.keys("w")
	want := session.DefaultCutPath("auto-20240102-2233.dem", lo, hi)
	if hs.m.prompt != promptCut || hs.m.input != want {
		t.Fatalf("w: prompt %d with %q, want the cut prompt with %q", hs.m.prompt, hs.m.input, want)
	}
	if s := hs.screen(); !strings.Contains(s, "write ticks 400–") {
		t.Errorf("the prompt does not name the window:\n%s", s)
	}
	hs.keys("enter") // the harness runs the cut to its end
	d := hs.m.cut.done
	if d == nil || hs.m.cut.running != nil {
		t.Fatalf("no cut written: note %q", hs.m.note)
	}
	if d.Out != want || d.First < lo || d.Last > hi || d.Command != "dembug cut auto-20240102-2233.dem --from "+fmt.Sprint(lo)+" --to "+fmt.Sprint(hi)+" -o "+want {
		t.Errorf("cut %+v", d)
	}
	cutData, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Open(cutData)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(nil); err != nil || r.FirstMisaligned != nil {
		t.Fatalf("the cut decodes with %v, misaligned %v", err, r.FirstMisaligned)
	}
	for _, tick := range []int32{d.First, (d.First + d.Last) / 2, d.Last} {
		orig, got := entitiesAt(t, data, tick), entitiesAt(t, cutData, tick)
		if orig != got || strings.Count(orig, "\n") < 100 {
			t.Errorf("tick %d: the cut's %d entities are not the original's %d", tick, strings.Count(got, "\n"), strings.Count(orig, "\n"))
		}
	}
	d.Elapsed = 0 // (the time it took varies)
	s := hs.screen()
	for _, w := range []string{"Cut written", "wrote " + want, "the same from the shell", d.Command} {
		if !strings.Contains(s, w) {
			t.Errorf("the box lacks %q:\n%s", w, s)
		}
	}
	if err := os.Chdir(wd); err != nil { // the golden files are found from there
		t.Fatal(err)
	}
	requireGolden(t, s)
	hs.keys("esc")
	if hs.m.cut.done != nil || !hs.m.cut.ended {
		t.Error("esc does not close the box, or the window went with it")
	}
	// The command line stays in view once the box is closed.
	lines := strings.Split(hs.screen(), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "from the shell: "+d.Command+" ") {
		t.Errorf("after esc the status line is %q", last)
	}
}

// A cut that cannot be written says why on one line and leaves no file.
func TestCutUnwritable(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	dir := t.TempDir()
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	markWindow(hs, "400", "500")
	hs.keys("w")
	out := filepath.Join(dir, "missing", "c.dem")
	hs.m.input = out
	hs.keys("enter")
	if hs.m.cut.done != nil || !hs.m.noteErr || !strings.Contains(hs.m.note, "cannot write") || strings.Contains(hs.m.note, "\n") {
		t.Fatalf("note %q (error %v), box %v", hs.m.note, hs.m.noteErr, hs.m.cut.done != nil)
	}
	status := strings.Split(hs.screen(), "\n")
	if last := status[len(status)-1]; !strings.HasPrefix(last, "✗ cut of ticks 400–") {
		t.Errorf("status line %q", last)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}

// A cut written while the file is reopened under other aliases (I, P) is
// still reported: it is on disk. The marks stay too.
func TestCutOutlivesAReopen(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	dir := t.TempDir()
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	markWindow(hs, "400", "420")
	hs.keys("w")
	cmd := hs.m.startCut(filepath.Join(dir, "c.dem"))
	hs.m.prompt = promptNone
	a, err := schema.ParseAliases([]string{"PlayerID_t=int32"}, game.Dota2)
	if err != nil {
		t.Fatal(err)
	}
	hs.m.reopen(hs.m.file.WithAliases(a))
	hs.run(hs.m.Init())
	if lo, hi, ok := hs.m.cutWindow(); !ok || lo < 400 || hi > 420 {
		t.Errorf("after the reopen the window is %d–%d (%v)", lo, hi, ok)
	}
	hs.run(cmd)
	if d := hs.m.cut.done; d == nil || hs.m.cut.running != nil || strings.Contains(d.Command, "--as") {
		t.Fatalf("the cut started before the reopen is not reported as written under the old aliases: %+v, note %q", d, hs.m.note)
	}
	// A cut started now is read under the aliases in force, and says so.
	hs.keys("esc")
	hs.run(hs.m.startCut(filepath.Join(dir, "d.dem")))
	if d := hs.m.cut.done; d == nil || !strings.Contains(d.Command, " --as PlayerID_t=int32 ") {
		t.Errorf("the cut under the aliases in force: %+v, note %q", d, hs.m.note)
	}
}

// The cut runs off the loop in a real program: the status line says it
// is being written, then the box shows it.
func TestProgramCut(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	t.Chdir(t.TempDir())
	m := New("auto-20240102-2233.dem", data, Options{NoColor: true, IndexBudget: time.Hour}) // indexed before the first screen
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 48))
	wait := func(s string) {
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	wait("FileHeader")
	send := func(ks ...string) {
		for _, k := range ks {
			tm.Send(keyMsg(k))
		}
	}
	// (The keys are handled in order; the screen is drawn as a diff, so
	// only text new to it, the box's title, is waited for.)
	send("g", "4", "0", "0", "enter", "v", "g", "5", "0", "0", "enter", "v", "w", "enter")
	wait("Cut written")
	send("esc", "q")
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	if fm.fatal != "" || fm.cut.running != nil {
		t.Fatalf("fatal %q, running %v", fm.fatal, fm.cut.running)
	}
	if lo, hi, _ := fm.cutWindow(); lo != 400 || hi != 500 {
		t.Errorf("window %d–%d, want 400–500", lo, hi)
	}
	if st, err := os.Stat("auto-20240102-2233-400-500.dem"); err != nil || st.Size() < 1000 {
		t.Fatalf("the cut is not written: %v", err)
	}
}

// A window that misaligns is cut up to and with its first misaligned
// message, and the box says so.
func TestCutMisaligned(t *testing.T) {
	data, _ := brokendemo.DroppedPathBit()
	dir := t.TempDir()
	hs := newHarness(t, "dropped.dem", data, 160, 48)
	hs.keys("n", "v", "end", "v", "w")
	hs.m.input = filepath.Join(dir, "c.dem")
	hs.keys("enter")
	d := hs.m.cut.done
	if d == nil {
		t.Fatalf("no cut: %q", hs.m.note)
	}
	if d.Stopped == "" || d.Last != 2 {
		t.Errorf("the cut of a window that misaligns at tick 2 ends at tick %d, stopped %q", d.Last, d.Stopped)
	}
	if s := hs.screen(); !strings.Contains(s, "✗ the window misaligns") {
		t.Errorf("the box does not say the window misaligns:\n%s", s)
	}
}

// entitiesAt is `dembug entities --tick` of data: every live entity after
// the commands up to tick.
func entitiesAt(t *testing.T, data []byte, tick int32) string {
	t.Helper()
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	inGame := false
	for {
		if next, ok := r.NextTick(); ok && inGame && next > tick {
			break
		}
		c, err := r.Step()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		inGame = inGame || c.Kind == container.SyncTick || c.Kind == container.Packet || c.Kind == container.FullPacket
	}
	var b bytes.Buffer
	if err := cli.WriteEntities(&b, r.Entities); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
