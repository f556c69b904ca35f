package mapfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestOpenReadsTheWholeFile(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("PBDEMS2\x00 0123456789"), 5000)
	p := filepath.Join(dir, "a.dem")
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(f.Data, want) {
		t.Fatalf("read %d bytes, not the file's %d", len(f.Data), len(want))
	}
	f.Release() // the data reads the same after its pages are dropped
	if !bytes.Equal(f.Data, want) {
		t.Fatal("data changed after Release")
	}
	stop := f.ReleaseEvery(1)
	sum := 0
	for _, b := range f.Data {
		sum += int(b)
	}
	stop()
	if sum == 0 {
		t.Fatal("empty read")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOpenEmptyAndMissing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "empty.dem")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(p)
	if err != nil || len(f.Data) != 0 || f.Mapped() {
		t.Fatalf("empty file: %v, %d bytes, mapped %v", err, len(f.Data), f.Mapped())
	}
	if _, err := Open(filepath.Join(dir, "missing.dem")); err == nil {
		t.Fatal("a missing file opened")
	}
}

// Once stop returns no release runs, so the file can be unmapped: a late
// release would drop the pages of whatever the addresses hold by then
// (run with -race to see the ordering too).
func TestReleaseStopsBeforeClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.dem")
	if err := os.WriteFile(path, bytes.Repeat([]byte("dembug"), 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 50 {
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if !f.Mapped() {
			t.Skip("no memory map here")
		}
		stop := f.ReleaseEvery(time.Microsecond)
		time.Sleep(50 * time.Microsecond)
		stop()
		stop() // twice is fine
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
