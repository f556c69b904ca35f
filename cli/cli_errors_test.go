package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// Asking for what a file does not have is an error that says so, never
// empty output and exit 0.
func TestTraceSaysWhyNothingPrints(t *testing.T) {
	path, _ := testreplays.Read(t, "dota2")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--tick", "99999"}, "past the end"},
		{[]string{"--tick", "-5"}, "-1 for the signon"},
		{[]string{"--tick", "100", "--entity", "9999"}, "entity 9999 is not updated at tick 100"},
		{[]string{"--tick", "100", "--entity", "99999"}, "--entity 99999: entity indexes run 0…16383"},
		{[]string{"--tick", "100", "--entity", "-3"}, "--entity -3: entity indexes run 0…16383"},
	} {
		out, _, err := runDembug(append([]string{"trace", path}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || out != "" {
			t.Errorf("trace %v: err %v, %d bytes out; want an error saying %q", c.args, err, len(out), c.want)
		}
	}
	if out, _, err := runDembug("trace", path, "--tick", "100"); err != nil || out == "" {
		t.Errorf("trace of a real tick: err %v, %d bytes", err, len(out))
	}
}

// entities and strings refuse a tick no demo command has (a negative one
// printed the file's end), as trace does.
func TestStateAtANegativeTickIsRefused(t *testing.T) {
	path, _ := testreplays.Read(t, "dota2")
	for _, cmd := range []string{"entities", "strings"} {
		for _, tick := range []string{"-5", "-1", "4294967396"} {
			out, _, err := runDembug(cmd, path, "--tick", tick)
			want := "--tick " + tick + ": a demo tick is from 0 to 2147483647 (leave --tick out"
			if err == nil || !strings.Contains(err.Error(), want) || out != "" {
				t.Errorf("%s --tick %s: err %v, %d bytes out; want an error saying %q", cmd, tick, err, len(out), want)
			}
		}
		if out, _, err := runDembug(cmd, path, "--tick", "0"); err != nil || out == "" {
			t.Errorf("%s --tick 0: err %v, %d bytes", cmd, err, len(out))
		}
		if help, _, _ := runDembug(cmd, "--help"); strings.Contains(help, "(default -1)") {
			t.Errorf("%s --help offers -1 as --tick's default:\n%s", cmd, help)
		}
	}
}

func TestCheckOfAMissingFileHasNoSummary(t *testing.T) {
	out, stderr, err := runDembug("check", "/nosuch/file.dem")
	if err == nil || out != "" || !strings.Contains(stderr, "cannot read") {
		t.Fatalf("err %v, stdout %q, stderr %q", err, out, stderr)
	}
}

func TestTypoNamesTheCommand(t *testing.T) {
	_, _, err := runDembug("chek", "f.dem")
	if err == nil || !strings.Contains(err.Error(), `did you mean check`) {
		t.Fatalf("dembug chek f.dem: %v", err)
	}
	if out, _, err := runDembug("--version"); err != nil || !strings.Contains(out, "dembug version") {
		t.Fatalf("--version: %q %v", out, err)
	}
}

// A schema compared with itself has no change (CBasePlayerPawn's two
// m_vecX included) and exits 0; two builds differ and exit 1, as diff does.
func TestSchemaDiffExitAndSelf(t *testing.T) {
	dir := testreplays.Require(t)
	for _, f := range []string{"dota2/auto-20240102-2233.dem", "cs2/14011.dem", "deadlock/deadlock_hltv_10524.dem"} {
		p := dir + "/" + f
		out, _, err := runDembug("schema", "--diff", p, p)
		if err != nil || !strings.Contains(out, ": 0 changes") {
			t.Errorf("%s against itself: %v\n%s", f, err, lastLine(out))
		}
	}
	out, _, err := runDembug("schema", "--diff", dir+"/cs2/14011.dem", dir+"/cs2/14160.dem")
	if err == nil || strings.Contains(out, ": 0 changes") {
		t.Errorf("two builds: err %v, %s", err, lastLine(out))
	}
}

func lastLine(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return l[len(l)-1]
}

// A file that is not a demo is an error on the command line, not a
// debugger opened on nothing.
func TestNotADemoDoesNotOpenTheDebugger(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("these are not the bits you are looking for\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opened := false
	defer func(f func(string, []byte, schema.Aliases) error) { OpenTUI = f }(OpenTUI)
	OpenTUI = func(string, []byte, schema.Aliases) error { opened = true; return nil }
	_, _, err := runDembug(path)
	if opened || err == nil || !strings.Contains(err.Error(), "not a Source 2 demo") {
		t.Fatalf("opened %v, err %v", opened, err)
	}
}

// The debugger's background decodes may still read the file after it
// returns (quit during the grading pass): the file must stay readable, as
// a read of an unmapped page is a fatal fault with a stack trace, not a
// panic (it was, one quit in eight on a full-length replay).
func TestFileStaysReadableAfterTheDebuggerReturns(t *testing.T) {
	path, _ := testreplays.Read(t, "dota2")
	var kept []byte
	defer func(f func(string, []byte, schema.Aliases) error) { OpenTUI = f }(OpenTUI)
	OpenTUI = func(_ string, data []byte, _ schema.Aliases) error { kept = data; return nil }
	if _, _, err := runDembug(path); err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, b := range kept { // faults here if the file was unmapped
		sum += int(b)
	}
	if len(kept) == 0 || sum == 0 {
		t.Fatalf("the debugger got %d bytes", len(kept))
	}
}

// A tick with no packet-entities message names the nearest ticks that have
// one, found by decoding the file: between two, and before the first.
func TestTraceNamesTheNearestTicks(t *testing.T) {
	path, data := testreplays.Read(t, "dota2")
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	has := map[int64]bool{}
	var ticks []int64
	r.Hooks.Entities = func(loc replay.Location, _ *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
		if tk := int64(loc.Tick); !has[tk] {
			has[tk] = true
			ticks = append(ticks, tk)
		}
	}
	if err := r.Run(nil); err != nil {
		t.Fatal(err)
	}
	gap := -1
	for i := 1; i < len(ticks) && gap < 0; i++ {
		if ticks[i] > ticks[i-1]+1 && ticks[i-1] >= 0 {
			gap = i
		}
	}
	if gap < 0 {
		t.Fatalf("no gap between the ticks of packet-entities messages: %v", ticks[:min(len(ticks), 20)])
	}
	want := fmt.Sprintf("no packet-entities message at tick %d: the nearest are at ticks %d and %d", ticks[gap-1]+1, ticks[gap-1], ticks[gap])
	if _, _, err := runDembug("trace", path, "--tick", fmt.Sprint(ticks[gap-1]+1)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("trace in a gap: %v, want %q", err, want)
	}
	capture := filepath.Join(testreplays.Dir(), "deadlock", "broadcast-2025-02-27")
	if _, err := os.Stat(capture); err != nil {
		t.Skipf("no broadcast capture: %v", err)
	}
	if _, _, err := runDembug("trace", capture, "--tick", "64"); err == nil || !strings.Contains(err.Error(), "no packet-entities message at tick 64: the first is at tick ") {
		t.Errorf("trace before a capture's first tick: %v", err)
	}
}

// entities and strings at a tick past the end print the state at the end,
// and say so.
func TestStatePastTheEndIsSaid(t *testing.T) {
	path, _ := testreplays.Read(t, "cs2")
	for _, cmd := range []string{"entities", "strings"} {
		out, stderr, err := runDembug(cmd, path, "--tick", "99999")
		if err != nil || out == "" || !strings.Contains(stderr, "tick 99999 is past the end: this is the state at the file's last tick") {
			t.Errorf("%s --tick 99999: err %v, %d bytes out, stderr %q", cmd, err, len(out), stderr)
		}
		if _, stderr, err := runDembug(cmd, path, "--tick", "20"); err != nil || stderr != "" {
			t.Errorf("%s --tick 20: err %v, stderr %q", cmd, err, stderr)
		}
	}
}

// At a tick before a capture's first game tick (it joins thousands of
// ticks in), entities and strings print the state the signon leaves, and
// say so.
func TestStateBeforeTheGameIsSaid(t *testing.T) {
	capture := filepath.Join(testreplays.Require(t), "deadlock", "broadcast-2025-02-27")
	if _, err := os.Stat(capture); err != nil {
		t.Skipf("no broadcast capture: %v", err)
	}
	for _, cmd := range []string{"entities", "strings"} {
		_, stderr, err := runDembug(cmd, capture, "--tick", "64")
		if err != nil || !strings.Contains(stderr, "tick 64 is before the game's first tick, ") || !strings.Contains(stderr, "this is the state the signon leaves") {
			t.Errorf("%s --tick 64: err %v, stderr %q", cmd, err, stderr)
		}
	}
}
