package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/budget"
	"github.com/dembug/dembug/internal/testreplays"
)

// sharedCapture copies the shared Deadlock broadcast capture into a folder
// of the test's own (tests that write into it or break it must not touch
// the shared one), skipping the test where it is absent.
func sharedCapture(t *testing.T) string {
	t.Helper()
	src := filepath.Join(testreplays.Require(t), "deadlock", "broadcast-2025-02-27")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("no broadcast capture: %v", err)
	}
	dst := filepath.Join(t.TempDir(), "capture")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// readTree reads every file under dir, by its path inside dir.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// cut refuses to write over any file a capture is read from, named through
// the capture's folder or through one of its files, and leaves the capture
// as it was.
func TestCutRefusesACaptureFileAsOutput(t *testing.T) {
	capture := sharedCapture(t)
	before := readTree(t, capture)
	for _, in := range []string{capture, filepath.Join(capture, "0", "start.bin")} {
		for _, out := range []string{"sync.json", "36/delta.bin", "0/start.bin", "35/full.bin"} {
			_, _, err := runDembug("cut", in, "--from", "15000", "--to", "15300", "-o", filepath.Join(capture, out))
			if err == nil || !strings.Contains(err.Error(), "a file of its capture") {
				t.Errorf("cut %s -o %s: %v; want a refusal", in, out, err)
			}
		}
	}
	after := readTree(t, capture)
	if len(after) != len(before) {
		t.Fatalf("the capture holds %d files, %d before", len(after), len(before))
	}
	for name, b := range before {
		if after[name] != b {
			t.Errorf("%s changed", name)
		}
	}
	// A file of its own beside the fragments is no file of the capture.
	out := filepath.Join(capture, "window.dem")
	if _, stderr, err := runDembug("cut", capture, "--from", "15000", "--to", "15300", "-o", out); err != nil {
		t.Fatalf("cut into the capture's folder under a name of its own: %v: %s", err, stderr)
	}
}

// appendToFile appends b to the file at path.
func appendToFile(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// A capture that ends with command 0 at tick 0 (the end of a broadcast)
// has the last tick it played, in check and in strings' note past the end.
func TestCaptureEndingAtTickZeroKeepsItsLastTick(t *testing.T) {
	capture := sharedCapture(t)
	out, _, _ := runDembug("check", "--json", capture)
	var before CheckResult
	if err := json.Unmarshal([]byte(out), &before); err != nil || before.LastTick <= 0 {
		t.Fatalf("check --json: %v: %s", err, out)
	}
	appendToFile(t, filepath.Join(capture, "40", "delta.bin"), []byte{0, 0, 0, 0, 0, 0}) // command 0, tick 0, the zero byte
	out, _, _ = runDembug("check", "--json", capture)
	var after CheckResult
	if err := json.Unmarshal([]byte(out), &after); err != nil || after.LastTick != before.LastTick || after.Commands != before.Commands+1 {
		t.Fatalf("with command 0 at tick 0 at its end: last tick %d, %d commands; before it, %d and %d (%v)", after.LastTick, after.Commands, before.LastTick, before.Commands, err)
	}
	_, stderr, _ := runDembug("strings", capture, "--tick", "99999")
	if want := fmt.Sprintf("the state at the file's last tick, %d", before.LastTick); !strings.Contains(stderr, want) {
		t.Errorf("strings --tick 99999: %q, want %q", stderr, want)
	}
}

// A capture whose fragments are all emptied, or one fragment of which
// starts with zeroed bytes (read as command 0, the end of the broadcast),
// fails check with the file named; it exited 0, the rest unread.
func TestCorruptCaptureFailsCheck(t *testing.T) {
	emptied := sharedCapture(t)
	for name := range readTree(t, emptied) {
		if name != "sync.json" {
			if err := os.Truncate(filepath.Join(emptied, name), 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	zeroed := sharedCapture(t)
	path := filepath.Join(zeroed, "36", "delta.bin")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	clear(b[:64])
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{
		emptied: "fragment files are all empty",
		zeroed:  "36/delta.bin byte 0",
	} {
		for _, args := range [][]string{{"check", dir}, {"check", "--json", dir}} {
			out, stderr, err := runDembug(args...)
			if err == nil || !strings.Contains(out+stderr, want) || strings.Contains(out+stderr, "#-1") {
				t.Errorf("%v: err %v, want an error saying %q:\n%s%s", args, err, want, out, stderr)
			}
		}
	}
}

// The memory budget of a capture counts the bytes of the fragment files it
// reads, as it counts a replay file's: a folder counted as 16 MiB failed
// large captures now and then.
func TestBudgetCountsACaptureFolder(t *testing.T) {
	capture := sharedCapture(t)
	// Larger than the 16 MiB a folder was counted as: one fragment grown.
	if err := os.Truncate(filepath.Join(capture, "40", "delta.bin"), 40<<20); err != nil {
		t.Fatal(err)
	}
	var want int64
	for name, b := range readTree(t, capture) {
		if name != "sync.json" {
			want += int64(len(b))
		}
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer budget.Set(0, 0)
	for _, arg := range []string{capture, filepath.Join(capture, "0", "start.bin")} {
		setBudget([]string{arg})
		if got := budget.Limit(); got != 128<<20+8*want {
			t.Errorf("%s: budget %d MiB, want %d MiB (128 MiB and 8 times the capture's %d bytes)", arg, got>>20, (128<<20+8*want)>>20, want)
		}
	}
}
