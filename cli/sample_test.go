package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/sample"
)

func TestSampleCommandWritesTheSample(t *testing.T) {
	SetSample(sample.Replay)
	path := filepath.Join(t.TempDir(), "s.dem")
	var out, errw bytes.Buffer
	cmd := Root(&out, &errw)
	cmd.SetArgs([]string{"sample", "-o", path})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(data, sample.Replay) {
		t.Fatalf("written file differs from the sample (%v)", err)
	}
	res, _ := Check(path, data)
	if res.Error != "" || res.Misaligned != 0 || res.EntityUpdates == 0 {
		t.Fatalf("sample does not check clean: %+v", res)
	}
}

// dembug sample without -o refuses to write binary into a terminal; -o -
// or a redirect writes it.
func TestSampleRefusesATerminal(t *testing.T) {
	SetSample(sample.Replay)
	defer func(f func(io.Writer) bool) { isTerminal = f }(isTerminal)
	isTerminal = func(io.Writer) bool { return true }
	out, _, err := runDembug("sample")
	if err == nil || !strings.Contains(err.Error(), "-o FILE") || out != "" {
		t.Fatalf("sample to a terminal: err %v, %d bytes written", err, len(out))
	}
	if out, _, err := runDembug("sample", "-o", "-"); err != nil || out != string(sample.Replay) {
		t.Fatalf("sample -o -: err %v, %d bytes", err, len(out))
	}
	isTerminal = func(io.Writer) bool { return false }
	if out, _, err := runDembug("sample"); err != nil || out != string(sample.Replay) {
		t.Fatalf("sample redirected: err %v, %d bytes", err, len(out))
	}
}

func TestSampleCommandWritesTheCS2Sample(t *testing.T) {
	SetSample(sample.Replay)
	SetGameSample("cs2", sample.CS2)
	path := filepath.Join(t.TempDir(), "cs2.dem")
	var out, errw bytes.Buffer
	cmd := Root(&out, &errw)
	cmd.SetArgs([]string{"sample", "--game", "cs2", "-o", path})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(data, sample.CS2) {
		t.Fatalf("written file differs from the CS2 sample (%v)", err)
	}
	res, _ := Check(path, data)
	if res.Error != "" || res.Misaligned != 0 || res.EntityUpdates == 0 || res.Game != "cs2" {
		t.Fatalf("CS2 sample does not check clean: %+v", res)
	}
	cmd = Root(&out, &errw)
	cmd.SetArgs([]string{"sample", "--game", "deadlock", "-o", path})
	if err := cmd.Execute(); err == nil {
		t.Fatal("--game deadlock: no error")
	}
}

// dembug sample FILE (the file to write given without -o) says to write it
// with -o FILE, and writes nothing; it said "unknown command".
func TestSampleWithAFileSaysDashO(t *testing.T) {
	SetSample(sample.Replay)
	path := filepath.Join(t.TempDir(), "s.dem")
	out, _, err := runDembug("sample", path)
	if err == nil || !strings.Contains(err.Error(), "dembug sample -o "+path) || out != "" {
		t.Fatalf("dembug sample FILE: %v, %d bytes out", err, len(out))
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("a file was written")
	}
	if _, _, err := runDembug("sample", "a.dem", "b.dem"); err == nil || !strings.Contains(err.Error(), "-o FILE") {
		t.Fatalf("dembug sample a.dem b.dem: %v", err)
	}
}

// dembug --help says what dembug with no file opens.
func TestRootHelpNamesTheSample(t *testing.T) {
	out, _, err := runDembug("--help")
	if err != nil || !strings.Contains(out, "With no FILE it opens\nthe built-in sample replay") {
		t.Fatalf("dembug --help: %v\n%s", err, out)
	}
}
