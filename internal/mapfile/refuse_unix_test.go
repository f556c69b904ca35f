//go:build unix

package mapfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Devices, pipes and directories are refused at once, not read until
// memory runs out (or, for a pipe, waited on).
func TestOpenRefusesNonRegularFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.dem")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for path, want := range map[string]string{"/dev/zero": "a device", fifo: "a named pipe", t.TempDir(): "a directory"} {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		_, err := Open(path)
		_, errRead := ReadFile(path)
		for _, err := range []error{err, errRead} {
			if err == nil || !strings.Contains(err.Error(), "not a regular file ("+want+")") {
				t.Errorf("%s: %v, want it refused as %s", path, err, want)
			}
		}
	}
}

// A folder of replays, given as one, says how to name them.
func TestAFolderOfReplaysSaysHowToNameThem(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.dem", "b.dem", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := ReadFile(dir)
	if err == nil || !strings.Contains(err.Error(), "holds 2 .dem files: name one, such as "+filepath.Join(dir, "a.dem")+", or check them all with dembug check "+filepath.Join(dir, "*.dem")) {
		t.Errorf("%v", err)
	}
}
