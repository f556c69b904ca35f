//go:build unix

package cut

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// signalChildEnv makes the test binary the child TestSignalLeavesNoPartialCut
// runs: it writes a cut into the folder named and is signalled mid-write.
const signalChildEnv = "DEMBUG_TEST_CUT_SIGNAL_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(signalChildEnv); dir != "" {
		sig := syscall.SIGTERM
		if os.Getenv("DEMBUG_TEST_CUT_SIGNAL") == "INT" {
			sig = syscall.SIGINT
		}
		testHookWriting = func(string) {
			syscall.Kill(os.Getpid(), sig)
			time.Sleep(10 * time.Second) // the signal ends the process before this does
		}
		WriteFile(filepath.Join(dir, "window.dem"), make([]byte, 1<<20))
		os.Exit(3) // not reached when the signal ends the process
	}
	os.Exit(m.Run())
}

// A cut interrupted while it writes (Ctrl-C, or a kill) leaves neither the
// cut nor its hidden temporary file, and the process still ends by the
// signal.
func TestSignalLeavesNoPartialCut(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"INT", "TERM"} {
		dir := t.TempDir()
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), signalChildEnv+"="+dir, "DEMBUG_TEST_CUT_SIGNAL="+name)
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("SIG%s: the child ended with %v", name, err)
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Errorf("SIG%s: the child ended with %v, not by the signal", name, err)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("SIG%s: left behind: %v", name, left)
		}
	}
}

// Any name a file may have is written, 255 bytes long included (its
// temporary name must fit too), and a folder named as the cut is refused
// as a folder, not with "file exists".
func TestWriteFileNames(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{5, 200, 244, 254, 255} {
		name := strings.Repeat("a", n-4) + ".dem"
		if err := WriteFile(filepath.Join(dir, name), []byte("cut")); err != nil {
			t.Errorf("a name of %d bytes: %v", n, err)
		}
	}
	if err := WriteFile(filepath.Join(dir, strings.Repeat("a", 256)), []byte("cut")); err == nil {
		t.Errorf("a name of 256 bytes written")
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(sub, []byte("cut")); err == nil || !strings.Contains(err.Error(), "it is a folder") {
		t.Errorf("a folder named as the cut: %v", err)
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 6 {
		t.Errorf("%d files in the folder, want the 5 cuts and the folder: %v", len(left), left)
	}
}
