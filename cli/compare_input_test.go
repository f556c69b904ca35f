package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/testreplays"
)

// runCompare runs dembug compare and returns its output and exit code.
func runCompare(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := Root(&out, &errb)
	cmd.SetArgs(append([]string{"compare"}, args...))
	if err := cmd.Execute(); err != nil {
		var ee *ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%v: error %v is no exit code", args, err)
		}
		code = ee.Code
	}
	return out.String(), errb.String(), code
}

// A replay that is empty, cut short or no replay at all is the replay's
// fault: the error names it, not the trace beside it (exit 2).
func TestCompareBlamesABrokenReplay(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	dir := t.TempDir()
	trace := filepath.Join(dir, "theirs.jsonl")
	if err := os.WriteFile(trace, []byte(`{"tick":100,"entity":1,"name":"m_flFrameTime","value":0.5}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"empty.dem":     nil,
		"truncated.dem": data[:100_000],
		"text.dem":      []byte("hello\n"),
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runCompare(t, path, trace)
		if code != 2 || !strings.HasPrefix(stderr, "dembug: "+path+": ") || strings.Contains(stderr, trace) {
			t.Errorf("%s: exit %d, %q; want exit 2 naming the replay and not the trace", name, code, stderr)
		}
	}
	// A trace's own fault still names the trace.
	if err := os.WriteFile(trace, []byte("{\"tick\":1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	orig, _ := testreplays.Read(t, "dota2")
	if _, stderr, code := runCompare(t, orig, trace); code != 2 || !strings.HasPrefix(stderr, "dembug: "+trace+": line 1: ") {
		t.Errorf("a broken trace: exit %d, %q", code, stderr)
	}
}
