package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

func TestCutCommand(t *testing.T) {
	orig, _ := testreplays.Read(t, "dota2")
	out := filepath.Join(t.TempDir(), "window.dem")
	stdout, stderr, err := runDembug("cut", orig, "--from", "400", "--to", "500", "-o", out)
	if err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	if !strings.Contains(stdout, "ticks 400–500") || !strings.Contains(stdout, "a full frame of") {
		t.Fatalf("summary: %q", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(out); st.Mode().Perm()&0o044 == 0 {
		t.Errorf("the cut is private (%v): a fixture is to share", st.Mode())
	}
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(nil); err != nil || r.Stats.Misaligned != 0 || r.Stats.LastTick != 500 {
		t.Fatalf("the cut: %v, %d misaligned, last tick %d", err, r.Stats.Misaligned, r.Stats.LastTick)
	}
	want, _, _ := runDembug("entities", "--tick", "450", orig)
	got, _, _ := runDembug("entities", "--tick", "450", out)
	if want == "" || got != want {
		t.Fatalf("entities at tick 450 differ: %d bytes against the original's %d", len(got), len(want))
	}
}

// Each refusal is one line, an error, and leaves no file behind.
func TestCutCommandRefuses(t *testing.T) {
	orig, _ := testreplays.Read(t, "dota2")
	dir := t.TempDir()
	out := filepath.Join(dir, "x.dem")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "900", "-o", out}, "past the file's end"},
		{[]string{"--from", "500", "--to", "400", "-o", out}, "before --from"},
		{[]string{"--from", "400", "-o", filepath.Join(dir, "no", "such", "x.dem")}, "cannot write"},
		{[]string{"--from", "400", "-o", orig}, "is the file being cut"},
		{[]string{"--from", "400"}, "needs -o"},
		{[]string{"-o", out}, "needs --from"},
		{[]string{"--from", "-4294967196", "-o", out}, "--from -4294967196: a demo tick is from 0 to 2147483647"},
		{[]string{"--from", "4294967396", "-o", out}, "--from 4294967396: a demo tick is from 0 to 2147483647"},
		{[]string{"--from", "-1", "-o", out}, "--from -1: a demo tick"},
		{[]string{"--from", "400", "--to", "-5", "-o", out}, "--to -5: a demo tick is from 0 to 2147483647 (leave --to out"},
		{[]string{"--from", "400", "--to", "-1", "-o", out}, "--to -1: a demo tick"},
	} {
		_, _, err := runDembug(append([]string{"cut", orig}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("cut %v: %v; want one line saying %q", c.args, err, c.want)
		}
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 0 {
		t.Fatalf("files left behind: %v", left)
	}
}

// Without --to the window runs to the file's end (--to has no default a
// user could mistake for a tick: -1 given is refused).
func TestCutWithoutToRunsToTheEnd(t *testing.T) {
	orig, data := testreplays.Read(t, "dota2")
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(nil); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "end.dem")
	stdout, stderr, err := runDembug("cut", orig, "--from", "600", "-o", out)
	if want := fmt.Sprintf("ticks 600–%d", r.Stats.LastTick); err != nil || !strings.Contains(stdout, want) {
		t.Fatalf("cut --from 600: %v, %q (want %q), %s", err, stdout, want, stderr)
	}
	help, _, _ := runDembug("cut", "--help")
	if strings.Contains(help, "(default -1)") {
		t.Errorf("cut --help offers -1 as --to's default:\n%s", help)
	}
}
