package cut

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
)

// WriteFile writes a cut to path through a temporary file in the same
// folder, renamed into place: a failed write leaves no partial file, and
// neither does an interrupt or a kill (SIGINT, SIGTERM) while it writes.
func WriteFile(path string, data []byte) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("cannot write %s: it is a folder; name the file to write in it, such as %s", path, filepath.Join(path, "cut.dem"))
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), tempPattern(filepath.Base(path)))
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, pathErr(err))
	}
	stop := removeOnSignal(tmp.Name())
	defer stop()
	if testHookWriting != nil {
		testHookWriting(tmp.Name())
	}
	// CreateTemp makes the file private; a cut is a fixture to share.
	werr := tmp.Chmod(0o644)
	if werr == nil {
		_, werr = tmp.Write(data)
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write %s: %v", path, pathErr(werr))
	}
	return nil
}

// maxNameBytes is the longest file name most file systems take (NAME_MAX).
const maxNameBytes = 255

// tempPattern is the temporary file's name pattern for a cut named base:
// hidden, beside it, named after it where that fits in a file name (the
// random part takes up to 10 bytes), else after dembug: a legal name of
// 254 bytes must not be refused for its temporary one.
func tempPattern(base string) string {
	if p := "." + base + ".*"; len(p)-1+10 <= maxNameBytes {
		return p
	}
	return ".dembug-cut.*"
}

// testHookWriting, when set, is called with the temporary file's name once
// it exists (a test interrupts the write there).
var testHookWriting func(tmp string)

// removeOnSignal removes the file at tmp should SIGINT or SIGTERM come
// before the returned stop is called, then lets the signal take its course
// (raised again: the default ends the process with the signal's status; a
// program that handles the signal itself, as the debugger does, still gets
// it, and the write then fails on the file gone).
func removeOnSignal(tmp string) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	var once sync.Once
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		select {
		case <-done:
		case sig := <-sigs:
			os.Remove(tmp)
			signal.Stop(sigs)
			if p, err := os.FindProcess(os.Getpid()); err != nil || p.Signal(sig) != nil {
				os.Exit(1)
			}
		}
	}()
	return func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
		})
		<-exited
	}
}

// pathErr is the reason of a file error, without the path it repeats.
func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
