package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/hostile"
	"github.com/dembug/dembug/ui"
)

// The crafted-file corpus (internal/hostile) run as the program itself: this
// test binary re-runs itself as dembug (DEMBUG_AS_PROGRAM), so each file is
// checked, and opened in the debugger, in a fresh process whose peak memory
// and time are its own.

// childEnv makes TestMain run the program instead of the tests.
const childEnv = "DEMBUG_AS_PROGRAM"

// tuiKeys is the debugger's script: step through updates (n), move (j),
// look for an anomaly (a), then quit (q).
const tuiKeys = "nnnjannn"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "tui":
		openTUI = scriptedTUI
	}
	code := run()
	if p := os.Getenv(peakEnv); p != "" {
		// The peak resident set of this process since its exec (a
		// child's rusage would count its parent's before the exec).
		if b, err := os.ReadFile("/proc/self/status"); err == nil {
			for _, l := range strings.Split(string(b), "\n") {
				if strings.HasPrefix(l, "VmHWM:") {
					os.WriteFile(p, []byte(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, "VmHWM:"), "kB"))), 0o644)
				}
			}
		}
	}
	os.Exit(code)
}

// peakEnv names the file a child writes its peak RSS to, in KiB.
const peakEnv = "DEMBUG_PEAK_FILE"

// tuiLinger is how long the debugger stays open after the keys, its index
// pass going on in the background, before q: 5 s (DEMBUG_TUI_LINGER sets
// another).
var tuiLinger = func() time.Duration {
	d, err := time.ParseDuration(os.Getenv("DEMBUG_TUI_LINGER"))
	if err != nil {
		return 5 * time.Second
	}
	return d
}()

// scriptedTUI runs the debugger in a fixed 120x40 window, typing tuiKeys a
// key every 150 ms, then q, as a terminal would send them.
func scriptedTUI(path string, data []byte, a schema.Aliases) error {
	pr, pw := io.Pipe()
	go func() {
		time.Sleep(300 * time.Millisecond)
		for _, k := range tuiKeys {
			pw.Write([]byte{byte(k)})
			time.Sleep(150 * time.Millisecond)
		}
		time.Sleep(tuiLinger)
		pw.Write([]byte("q"))
	}()
	return ui.RunWith(path, data, ui.Options{NoColor: true, Aliases: a},
		tea.WithInput(pr), tea.WithOutput(io.Discard), tea.WithWindowSize(120, 40), tea.WithoutSignals())
}

// outcome is what one run of the program did.
type outcome struct {
	code    int
	elapsed time.Duration
	peakRSS int64 // bytes
	stdout  string
	stderr  string
	killed  bool
}

// runProgram runs this binary as dembug with args (mode "check" or "tui"),
// killing it after limit.
func runProgram(t *testing.T, mode string, limit time.Duration, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	peak := filepath.Join(t.TempDir(), "peak")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, peakEnv+"="+peak, "GOGC=", "GOMEMLIMIT=", "TERM=dumb")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	o := outcome{elapsed: time.Since(start), stdout: out.String(), stderr: errb.String(), killed: ctx.Err() != nil}
	if cmd.ProcessState == nil {
		t.Fatalf("%v: %v", args, err)
	}
	o.code = cmd.ProcessState.ExitCode()
	if b, err := os.ReadFile(peak); err == nil {
		kb, _ := strconv.ParseInt(string(b), 10, 64)
		o.peakRSS = kb << 10
	} else if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		o.peakRSS = ru.Maxrss << 10 // killed: an upper bound (it counts the parent's too)
	}
	return o
}

// corpusFile is a crafted file on disk (or a path like /dev/zero).
type corpusFile struct {
	name, path string
	size       int64
}

func corpus(t *testing.T) []corpusFile {
	dir := t.TempDir()
	var files []corpusFile
	for _, s := range hostile.Shapes() {
		data, err := s.Build()
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		p := filepath.Join(dir, s.Name+".dem")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, corpusFile{s.Name, p, int64(len(data))})
	}
	fifo := filepath.Join(dir, "fifo.dem")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		files = append(files, corpusFile{"fifo", fifo, 0})
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		files = append(files, corpusFile{"dev-zero", "/dev/zero", 0})
	}
	return files
}

// TestHostileCorpus: on every crafted file, `dembug check` finishes within
// 10 s with a peak RSS of at most 256 MiB plus 16 times the file's size,
// exits 0 or 1, and prints its summary and at most three lines more (the
// first misaligned message, its suspect, its header check), none a
// Go runtime error; the debugger, typing keys including n in a fixed
// window and lingering while its index pass goes on, stays within the same
// bound and quits on q.
func TestHostileCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the program on every crafted file")
	}
	files := corpus(t)
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-20s %10s | %-5s %8s %8s | %-5s %8s %8s\n", "shape", "bytes", "check", "seconds", "MiB", "tui", "seconds", "MiB")
	var rows []string
	var mu sync.Mutex
	t.Cleanup(func() {
		sort.Strings(rows)
		t.Log(table.String() + strings.Join(rows, ""))
	})
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel() // two at a time (-parallel is GOMAXPROCS), each its own process
			bound := int64(256<<20) + 16*f.size
			c := runProgram(t, "check", 10*time.Second, "check", f.path)
			judge(t, "check", c, bound)
			if lines := strings.Count(c.stdout+c.stderr, "\n"); lines > 4 || lines == 0 {
				t.Errorf("check printed %d lines:\n%s%s", lines, c.stdout, c.stderr)
			}
			u := runProgram(t, "tui", 10*time.Second, f.path)
			judge(t, "debugger", u, bound)
			mu.Lock()
			rows = append(rows, fmt.Sprintf("%-20s %10d | %-5d %8.2f %8d | %-5d %8.2f %8d\n", f.name, f.size,
				c.code, c.elapsed.Seconds(), c.peakRSS>>20, u.code, u.elapsed.Seconds(), u.peakRSS>>20))
			mu.Unlock()
		})
	}
}

// judge holds one run to the bounds.
func judge(t *testing.T, what string, o outcome, bound int64) {
	t.Helper()
	if o.killed {
		t.Errorf("%s did not finish within 10 s (peak %d MiB)", what, o.peakRSS>>20)
	}
	if o.peakRSS > bound {
		t.Errorf("%s peaked at %d MiB, over %d MiB", what, o.peakRSS>>20, bound>>20)
	}
	if o.code != 0 && o.code != 1 {
		t.Errorf("%s exited %d:\n%s", what, o.code, tail(o.stderr))
	}
	for _, bad := range []string{"goroutine ", "runtime error", "fatal error", "panic:", "internal error", "out of memory"} {
		if strings.Contains(o.stdout+o.stderr, bad) {
			t.Errorf("%s printed %q:\n%s", what, bad, tail(o.stderr))
		}
	}
}

func tail(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}
