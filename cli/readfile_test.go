//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Devices, pipes and directories are refused at once with a clear message,
// not read until memory runs out (or, for a pipe, waited on).
func TestReadFileRefusesNonRegularFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.dem")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for path, want := range map[string]string{"/dev/zero": "a device", fifo: "a named pipe", t.TempDir(): "a directory"} {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		_, err := readFile(path)
		if err == nil || !strings.Contains(err.Error(), "not a regular file ("+want+")") {
			t.Errorf("%s: %v, want it refused as %s", path, err, want)
		}
	}
}
