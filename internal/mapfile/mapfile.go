package mapfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// File is an open replay: Data is its whole content.
type File struct {
	Data   []byte
	mapped bool
}

// MaxSize is the largest replay Open takes: an hour-long match is a few
// hundred MB.
const MaxSize = 2 << 30

// Refuse says why a file at path is not read as a replay: only regular
// files are (a device such as /dev/zero, or a pipe, could send without
// end), and only up to MaxSize. Nil when it may be read.
func Refuse(path string, st os.FileInfo) error {
	if st.IsDir() {
		msg := fmt.Sprintf("cannot read %s: not a regular file (a directory) and no broadcast capture (no N/start.bin in it); dembug reads replay files and capture folders", path)
		if dems, _ := filepath.Glob(filepath.Join(path, "*.dem")); len(dems) > 0 {
			// A folder of replays: the shell names them.
			msg += fmt.Sprintf(" (this one holds %d .dem files: name one, such as %s, or check them all with dembug check %s)", len(dems), dems[0], filepath.Join(path, "*.dem"))
		}
		return errors.New(msg)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("cannot read %s: not a regular file (%s); dembug reads replay files", path, fileKind(st.Mode()))
	}
	if st.Size() > MaxSize {
		return fmt.Errorf("cannot read %s: %d bytes, over the %d-byte limit for a replay", path, st.Size(), int64(MaxSize))
	}
	return nil
}

// fileKind names what a non-regular file is.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// Open maps (or reads) the file at path, a regular file of at most
// MaxSize bytes (Refuse), or assembles the broadcast capture in the folder
// at path (capture.go).
func Open(path string) (*File, error) {
	if dir, ok := captureDir(path); ok {
		data, err := readCapture(dir)
		return &File{Data: data}, err
	}
	f, st, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > 0 && st.Size() == int64(int(st.Size())) {
		if data, err := mmap(f, int(st.Size())); err == nil {
			return &File{Data: data, mapped: true}, nil
		}
	}
	data, err := readAll(path, f, st)
	return &File{Data: data}, err
}

// ReadFile reads the file at path whole onto the heap, with Open's
// refusals: for the commands that keep a replay's bytes.
func ReadFile(path string) ([]byte, error) {
	if dir, ok := captureDir(path); ok {
		return readCapture(dir)
	}
	f, st, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(path, f, st)
}

// openRegular opens path once Refuse has passed it, before opening (which
// for a named pipe waits on a writer) and again on the opened file.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	if st, err := os.Stat(path); err == nil {
		if err := Refuse(path, st); err != nil {
			return nil, nil, err
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	st, err := f.Stat()
	if err == nil {
		err = Refuse(path, st)
	} else {
		err = fmt.Errorf("cannot read %s: %v", path, err)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// readAll reads what Stat promised, and no more, should the file grow.
func readAll(path string, f *os.File, st os.FileInfo) ([]byte, error) {
	data := make([]byte, st.Size())
	n, err := io.ReadFull(f, data)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	return data[:n], nil
}

// Mapped reports whether Data is a memory map.
func (f *File) Mapped() bool { return f.mapped }

// Release drops the file's pages from the process's resident set. Data
// stays valid: a page touched again is read back from the page cache.
func (f *File) Release() {
	if f.mapped {
		release(f.Data)
	}
}

// ReleaseEvery calls Release every d until the returned stop is called:
// a sequential pass then keeps about d's worth of the file resident. stop
// returns once no Release runs or will: the file may then be closed (a
// release of pages already unmapped would drop whatever the addresses
// hold by then, the heap's included).
func (f *File) ReleaseEvery(d time.Duration) (stop func()) {
	if !f.mapped {
		return func() {}
	}
	done, exited := make(chan struct{}), make(chan struct{})
	t := time.NewTicker(d)
	go func() {
		defer close(exited)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				f.Release()
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		<-exited
	}
}

// Close unmaps the file; Data must not be used afterwards.
func (f *File) Close() error {
	if !f.mapped {
		f.Data = nil
		return nil
	}
	err := munmap(f.Data)
	f.Data, f.mapped = nil, false
	return err
}
