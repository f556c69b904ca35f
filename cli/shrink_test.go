package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/shrink"
	"github.com/dembug/dembug/engine/writer"
)

func sampleFile(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "sample.dem")
	if err := os.WriteFile(path, writer.Generate(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// A test that fails on any replay shrinks the sample to a valid file with
// one command of the game, and the report says what remains, how the test
// failed (its last line, OUT named where it named the candidate) and how
// to open it.
func TestShrinkCommand(t *testing.T) {
	dir, in := sampleFile(t)
	out := filepath.Join(dir, "small.dem")
	stdout, stderr, err := runDembug("shrink", in, "--test", "echo checking; echo broke reading {}; exit 3", "--match", "broke", "-o", out, "-j", "2")
	if err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	for _, want := range []string{"1-minimal", "ticks ", "1 commands", "full frame at tick", "the test fails on it: broke reading " + out, "g "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile(in)
	if len(data) >= len(orig) {
		t.Fatalf("%d bytes of %d", len(data), len(orig))
	}
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(nil); err != nil || r.Stats.Misaligned != 0 {
		t.Fatalf("the shrunk file does not decode: %v, %d misaligned", err, r.Stats.Misaligned)
	}
	if !strings.Contains(stderr, "shrink: ") && !strings.Contains(stdout, "after ") {
		t.Errorf("no progress and no summary: %q", stderr)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Bad input: a test that passes on FILE (or whose output does not match)
// is nothing to shrink, exit 2; a command that cannot run is said so, exit
// 2; --test without {} is refused. No OUT is written.
func TestShrinkRefuses(t *testing.T) {
	dir, in := sampleFile(t)
	out := filepath.Join(dir, "small.dem")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--test", "true {}"}, 2, "nothing to shrink: the test passes on"},
		{[]string{"--test", "echo fine; false {}", "--match", "broke"}, 2, "does not match --match"},
		{[]string{"--test", "/no/such/parser-43 {}"}, 2, "the test cannot run"},
		{[]string{"--test", "false"}, -1, "has no {}"},
		{[]string{"--test", "false {}", "--match", "("}, -1, "--match"},
		{[]string{"--test", "false {}", "--budget", "0s"}, -1, "--budget"},
		{[]string{"--test", "false {}", "-j", "0"}, -1, "-j 0"},
	}
	for _, c := range cases {
		_, stderr, err := runDembug(append([]string{"shrink", in, "-o", out}, c.args...)...)
		msg := stderr
		if err != nil {
			msg += err.Error()
		}
		if exitCode(err) != c.code || !strings.Contains(msg, c.want) {
			t.Errorf("%q: exit %d, %q; want exit %d and %q", c.args, exitCode(err), msg, c.code, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%q wrote %s", c.args, out)
		}
	}
}

// A test that fails once and then passes is named flaky when the original
// is tested again at the end.
func TestShrinkFlakyTest(t *testing.T) {
	dir, in := sampleFile(t)
	out := filepath.Join(dir, "small.dem")
	mark := filepath.Join(dir, "ran")
	test := "if [ -e " + mark + " ]; then exit 0; fi; touch " + mark + "; exit 1 # {}"
	_, stderr, err := runDembug("shrink", in, "--test", test, "-o", out)
	if exitCode(err) != 1 || !strings.Contains(stderr, "flaky") {
		t.Fatalf("exit %d, %q: want exit 1 naming the test flaky", exitCode(err), stderr)
	}
}

// A test that crashes (a parser ended by SIGSEGV) fails; one that does
// not end on FILE within the budget is said so, exit 2.
func TestShrinkCrashesAndHangs(t *testing.T) {
	dir, in := sampleFile(t)
	out := filepath.Join(dir, "small.dem")
	stdout, stderr, err := runDembug("shrink", in, "--test", "kill -SEGV $$ # {}", "-o", out)
	if err != nil || !strings.Contains(stdout, "1-minimal") {
		t.Fatalf("a crashing test: exit %d, %q %q", exitCode(err), stdout, stderr)
	}
	os.Remove(out)
	_, stderr, err = runDembug("shrink", in, "--test", "sleep 30 # {}", "--budget", "1s", "-o", out)
	if exitCode(err) != 2 || !strings.Contains(stderr, "did not end") {
		t.Fatalf("a hanging test: exit %d, %q", exitCode(err), stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a hanging test wrote OUT")
	}
}

// SIGTERM mid-search writes the smallest failing file so far, whole, and
// exits 143; no candidate is left behind.
func TestShrinkSIGTERM(t *testing.T) {
	dir, in := sampleFile(t)
	out := filepath.Join(dir, "small.dem")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	type result struct {
		stdout string
		err    error
	}
	done := make(chan result)
	go func() {
		stdout, _, err := runDembug("shrink", in, "--test", "sleep 0.5; exit 1 # {}", "-o", out, "-j", "1")
		done <- result{stdout, err}
	}()
	// The handler is in place before the test first runs on FILE (0.5 s).
	time.Sleep(1500 * time.Millisecond)
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var r result
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("shrink did not stop on SIGTERM")
	}
	if exitCode(r.err) != 143 || !strings.Contains(r.stdout, "interrupted") {
		t.Fatalf("exit %d, %q", exitCode(r.err), r.stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if rr, err := replay.Open(data); err != nil || rr.Run(nil) != nil {
		t.Fatalf("the file written on SIGTERM does not decode")
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}

// Not a replay at all: an error naming the file, and no OUT.
func TestShrinkNotADemo(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "notes.txt")
	os.WriteFile(in, []byte("not a demo file\n"), 0o644)
	out := filepath.Join(dir, "small.dem")
	_, _, err := runDembug("shrink", in, "--test", "false {}", "-o", out)
	if err == nil || !strings.Contains(err.Error(), in) {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("OUT written")
	}
}

// The progress: a bar redrawn in place on a terminal, whole lines
// otherwise, each with the stage, the tests, the sizes and the time left.
func TestShrinkProgress(t *testing.T) {
	for _, tty := range []bool{true, false} {
		var b strings.Builder
		p := newShrinkProgress(&b, tty, time.Now(), 10*time.Minute, 100<<20)
		p.update(shrink.Progress{Stage: "entities", Tests: 12, Size: 400 << 10, Smallest: 300 << 10})
		p.draw()
		s := b.String()
		for _, want := range []string{"entities", "12 tests", "400 KB", "300 KB", "100 MB", "left"} {
			if !strings.Contains(s, want) {
				t.Errorf("tty %v: %q lacks %q", tty, s, want)
			}
		}
		if tty != strings.HasPrefix(s, "\r") || tty != strings.Contains(s, "[#") || tty == strings.HasSuffix(s, "\n") {
			t.Errorf("tty %v: %q", tty, s)
		}
	}
}
