package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/dembug/dembug/engine/shrink"
)

// shrinkTest runs the user's test command on candidate files: CMD through
// the shell with {} replaced by the candidate's path (quoted). It fails
// when it exits non-zero and, with a pattern, its output (stdout and
// stderr together) matches it.
type shrinkTest struct {
	cmd     string
	match   *regexp.Regexp
	dir     string        // where candidates are written, removed at the end
	outName string        // the file written at the end (-o), named in place of a candidate
	timeout time.Duration // per run; 0 for none
	n       atomic.Int64
}

// maxTestOutput bounds the output kept of one run (its start and end).
const maxTestOutput = 4 << 20

// testRun is one run of the test.
type testRun struct {
	code     int // exit status; -1 when killed or not started
	out      []byte
	timedOut bool
	dur      time.Duration
}

// fails says whether the run failed the way asked.
func (t *shrinkTest) fails(r testRun) bool {
	if r.code == 0 || r.timedOut || r.code == -1 {
		return false
	}
	return t.match == nil || t.match.Match(r.out)
}

// command is the shell line for the file at path.
func (t *shrinkTest) command(path string) string {
	return strings.ReplaceAll(t.cmd, "{}", shellQuote(path))
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// runFile runs the test on the file at path.
func (t *shrinkTest) runFile(ctx context.Context, path string) testRun {
	if t.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.timeout)
		defer cancel()
	}
	c := exec.CommandContext(ctx, "/bin/sh", "-c", t.command(path))
	// Its own process group, so a cancelled run is killed whole (a
	// pipeline, a script's children).
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = 2 * time.Second
	var out capped
	c.Stdout, c.Stderr = &out, &out
	start := time.Now()
	err := c.Run()
	r := testRun{out: out.bytes(), dur: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		r.code, r.timedOut = -1, errors.Is(ctx.Err(), context.DeadlineExceeded)
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
		// Ended by a signal (a crash: SIGSEGV, SIGABRT): a failure, with
		// the status a shell gives it.
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			r.code = 128 + int(ws.Signal())
		}
	default:
		r.code = -1
		r.out = append(r.out, []byte(err.Error())...)
	}
	return r
}

// run writes data to a candidate file of its own and runs the test on it.
func (t *shrinkTest) run(ctx context.Context, data []byte) testRun {
	path := filepath.Join(t.dir, fmt.Sprintf("candidate-%d.dem", t.n.Add(1)))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return testRun{code: -1, out: []byte(err.Error())}
	}
	defer os.Remove(path)
	r := t.runFile(ctx, path)
	// What it says of the candidate it says of OUT, which is that file.
	r.out = bytes.ReplaceAll(r.out, []byte(path), []byte(t.outName))
	return r
}

// matching is the last line of out that --match matches ("" without one).
func (t *shrinkTest) matching(out []byte) string {
	if t.match == nil {
		return ""
	}
	lines := strings.Split(string(out), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if t.match.MatchString(lines[i]) {
			return strings.TrimSpace(lines[i])
		}
	}
	return ""
}

// cannotRun says why a run shows the command itself cannot run ("" when
// it ran): the shell found no such command, or could not execute it.
func cannotRun(r testRun) string {
	if r.code == 126 || r.code == 127 {
		if l := shrink.LastLine(r.out); l != "" {
			return l
		}
		return fmt.Sprintf("the shell exits %d", r.code)
	}
	if r.code == -1 && !r.timedOut {
		return shrink.LastLine(r.out)
	}
	return ""
}

// capped keeps the first and last maxTestOutput/2 bytes written to it.
type capped struct {
	head, tail []byte
	cut        bool
}

func (c *capped) Write(p []byte) (int, error) {
	n := len(p)
	if room := maxTestOutput/2 - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) > 0 {
		c.tail = append(c.tail, p...)
		if len(c.tail) > maxTestOutput/2 {
			c.tail = append(c.tail[:0], c.tail[len(c.tail)-maxTestOutput/2:]...)
			c.cut = true
		}
	}
	return n, nil
}

func (c *capped) bytes() []byte {
	if !c.cut {
		return append(bytes.Clone(c.head), c.tail...)
	}
	return append(append(bytes.Clone(c.head), "\n…\n"...), c.tail...)
}
