package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/cut"
	"github.com/dembug/dembug/engine/shrink"
	"github.com/dembug/dembug/internal/mapfile"
	"github.com/dembug/dembug/views"
)

func shrinkCmd() *cobra.Command {
	var test, match, out string
	var jobs int
	var budget time.Duration
	var df decodeFlags
	cmd := &cobra.Command{
		Use:   "shrink FILE --test 'CMD {}' [--match REGEX] -o OUT.dem [-j N] [--budget 10m]",
		Short: "Shrink a replay your parser fails on to the smallest valid replay that still fails it",
		Long: "Shrink FILE to the smallest replay that still fails your test: CMD run through the shell with {} replaced\n" +
			"by a candidate file; it fails when it exits non-zero and, with --match, its output (stdout and stderr)\n" +
			"matches REGEX. The search bisects the tick window, then removes the window's commands, the full frame's\n" +
			"entities, the packets' messages and the entities' fields (back to their class baselines) while the test\n" +
			"still fails; every candidate is a cut (dembug cut), a valid replay. It runs N tests at once, stops when\n" +
			"removing any one thing more makes the test pass, or at the budget, and writes the smallest failing file\n" +
			"to OUT.dem (on SIGINT or SIGTERM, the smallest so far, exit 130 or 143). Exit 2 when the test passes on FILE or\n" +
			"cannot run. See docs/fixtures.md.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case test == "":
				return fmt.Errorf("shrink needs --test 'CMD {}': the command that fails on the replay, {} where its path goes")
			case !strings.Contains(test, "{}"):
				return fmt.Errorf("--test %q has no {}: write {} where the candidate file's path goes", test)
			case out == "":
				return fmt.Errorf("shrink needs -o OUT.dem: the file to write")
			case jobs < 1:
				return fmt.Errorf("-j %d: at least one test at a time", jobs)
			case budget <= 0:
				return fmt.Errorf("--budget %v: give a time, such as 10m", budget)
			}
			var re *regexp.Regexp
			if match != "" {
				var err error
				if re, err = regexp.Compile(match); err != nil {
					return fmt.Errorf("--match %q: %v", match, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
				}
			}
			aliases, err := df.aliases()
			if err != nil {
				return err
			}
			if mapfile.Overwrites(args[0], out) {
				return fmt.Errorf("-o %s is the file being shrunk or a file of its capture: write it elsewhere", out)
			}
			f, err := mapfile.Open(args[0])
			if err != nil {
				return err
			}
			defer f.Close()
			if _, err := container.NewReader(f.Data); err != nil {
				return fmt.Errorf("%s: %v", args[0], err)
			}
			dir, err := os.MkdirTemp("", "dembug-shrink-")
			if err != nil {
				return fmt.Errorf("cannot make a folder for the candidates: %v", err)
			}
			defer os.RemoveAll(dir)
			s := &shrinkRun{file: args[0], out: out, data: f.Data, budget: budget, jobs: jobs,
				test: &shrinkTest{cmd: test, match: re, dir: dir, outName: out}, stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()}
			s.opt.Aliases = aliases
			return s.run()
		},
	}
	cmd.Flags().StringVar(&test, "test", "", "the test: `CMD {}` run through the shell, {} the candidate file; it fails when it exits non-zero")
	cmd.Flags().StringVar(&match, "match", "", "fail only when the test's output (stdout and stderr) matches `REGEX` as well")
	cmd.Flags().StringVarP(&out, "out", "o", "", "the replay to write: the smallest that fails")
	cmd.Flags().IntVarP(&jobs, "jobs", "j", runtime.NumCPU(), "tests run at once")
	cmd.Flags().DurationVar(&budget, "budget", 10*time.Minute, "stop searching after this long and write the smallest failing file found")
	df.add(cmd)
	return cmd
}

// shrinkRun is one dembug shrink.
type shrinkRun struct {
	file, out      string
	data           []byte
	budget         time.Duration
	jobs           int
	test           *shrinkTest
	opt            shrink.Options
	stdout, stderr io.Writer
	start          time.Time
}

func (s *shrinkRun) run() error {
	s.start = time.Now()
	ctx, stop, caught := onSignal()
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, s.budget)
	defer cancel()
	// The test on the original: does it fail, can it run, how long does
	// it take (a candidate gets ten times that, and at least a minute).
	first := s.test.runFile(ctx, s.file)
	if ctx.Err() != nil {
		fmt.Fprintf(s.stderr, "dembug: the test did not end on %s before the budget (%v) or an interrupt: nothing to write\n", s.file, s.budget)
		return &ExitError{Code: 2}
	}
	if why := cannotRun(first); why != "" {
		fmt.Fprintf(s.stderr, "dembug: the test cannot run: %s\n", why)
		return &ExitError{Code: 2}
	}
	if !s.test.fails(first) {
		how := fmt.Sprintf("it exits %d", first.code)
		if first.code != 0 {
			how += fmt.Sprintf(" and its output does not match --match %q", s.test.match)
		}
		fmt.Fprintf(s.stderr, "dembug: nothing to shrink: the test passes on %s (%s)\n", s.file, how)
		return &ExitError{Code: 2}
	}
	s.test.timeout = max(time.Minute, 10*first.dur)
	p := newShrinkProgress(s.stderr, isTerminal(s.stderr), s.start, s.budget, len(s.data))
	s.opt.Jobs = s.jobs
	s.opt.Progress = p.update
	s.opt.Test = func(ctx context.Context, data []byte) (bool, []byte) {
		if len(data) == len(s.data) && string(data) == string(s.data) {
			return true, first.out // the original, tested already
		}
		r := s.test.run(ctx, data)
		return s.test.fails(r), r.out
	}
	stopTicker := p.tick()
	res, err := shrink.Shrink(ctx, s.data, s.opt)
	stopTicker()
	interrupted := ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded)
	if err != nil {
		if errors.Is(err, shrink.ErrPasses) {
			fmt.Fprintf(s.stderr, "dembug: nothing to shrink: the test passes on %s\n", s.file)
			return &ExitError{Code: 2}
		}
		return fmt.Errorf("%s: %v", s.file, err)
	}
	stop() // a signal from here on ends the process (the write leaves no partial file)
	if err := cut.WriteFile(s.out, res.Data); err != nil {
		return err
	}
	s.report(res, interrupted)
	if interrupted {
		// as a shell says a command the signal ended: 130, 143
		return &ExitError{Code: 128 + int(caught())}
	}
	// A flaky test: the original again, now.
	if !interrupted {
		if again := s.test.runFile(context.Background(), s.file); !s.test.fails(again) {
			fmt.Fprintf(s.stderr, "dembug: the test is flaky: run again on %s at the end, it passes (exit %d); %s may not fail every time either\n", s.file, again.code, s.out)
			return &ExitError{Code: 1}
		}
	}
	return nil
}

// report says what was written, what it holds, how the test fails on it
// and how to open it.
func (s *shrinkRun) report(res *shrink.Result, interrupted bool) {
	w := s.stdout
	how := "1-minimal: removing any one thing more makes the test pass"
	switch {
	case interrupted:
		how = "interrupted: the smallest failing file so far"
	case !res.Minimal && res.Note == "":
		how = fmt.Sprintf("the budget (%v) ended the search: the smallest failing file so far, not 1-minimal", s.budget)
	}
	fmt.Fprintf(w, "%s: %s of %s after %d tests in %v; %s\n", s.out, views.SizeText(len(res.Data)), views.SizeText(len(s.data)),
		res.Tests, time.Since(s.start).Round(time.Second), how)
	if res.Note != "" {
		fmt.Fprintf(w, "  %s\n", res.Note)
	}
	for _, l := range res.Remains() {
		fmt.Fprintf(w, "  %s\n", l)
	}
	if l := shrink.LastLine(res.Output); l != "" {
		fmt.Fprintf(w, "  the test fails on it: %s\n", l)
		if m := s.test.matching(res.Output); m != "" && m != l {
			fmt.Fprintf(w, "  --match matches: %s\n", m)
		}
	} else {
		fmt.Fprintf(w, "  the test fails on it, printing nothing\n")
	}
	if res.Cut != nil {
		at := res.Cut.First
		if res.Cut.StateTick >= 0 {
			at = res.Cut.StateTick
		}
		fmt.Fprintf(w, "  open it at its first update: dembug %s --tick %d\n", shellQuote(s.out), at)
	} else {
		fmt.Fprintf(w, "  open it: dembug %s\n", shellQuote(s.out))
	}
}

// shrinkProgress shows the search as it runs: a bar redrawn on a
// terminal, a line a second otherwise.
type shrinkProgress struct {
	w        io.Writer
	tty      bool
	start    time.Time
	budget   time.Duration
	orig     int
	mu       sync.Mutex
	last     shrink.Progress
	drawn    bool
	lastLine time.Time
}

func newShrinkProgress(w io.Writer, tty bool, start time.Time, budget time.Duration, orig int) *shrinkProgress {
	return &shrinkProgress{w: w, tty: tty, start: start, budget: budget, orig: orig, last: shrink.Progress{Stage: "window", Smallest: orig}}
}

func (p *shrinkProgress) update(pr shrink.Progress) {
	p.mu.Lock()
	p.last = pr
	p.mu.Unlock()
}

// tick draws the progress every second (four times on a terminal) until
// the returned stop.
func (p *shrinkProgress) tick() (stop func()) {
	every := time.Second
	if p.tty {
		every = 250 * time.Millisecond
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				p.draw()
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		if p.drawn && p.tty {
			fmt.Fprint(p.w, "\r\033[K")
		}
	}
}

func (p *shrinkProgress) draw() {
	p.mu.Lock()
	pr := p.last
	p.mu.Unlock()
	left := max(p.budget-time.Since(p.start), 0).Round(time.Second)
	text := fmt.Sprintf("%s: %d tests, this one %s, smallest %s of %s, %v left", pr.Stage, pr.Tests,
		views.SizeText(pr.Size), views.SizeText(pr.Smallest), views.SizeText(p.orig), left)
	p.drawn = true
	if !p.tty {
		fmt.Fprintf(p.w, "shrink: %s\n", text)
		return
	}
	// The bar: how far the smallest file has come down, on a log scale
	// from the original to 1 KB.
	const width = 20
	done := 0
	if p.orig > 1024 && pr.Smallest > 0 {
		done = int(width * (math.Log(float64(p.orig)) - math.Log(float64(max(pr.Smallest, 1024)))) / (math.Log(float64(p.orig)) - math.Log(1024)))
	}
	done = min(max(done, 0), width)
	fmt.Fprintf(p.w, "\r\033[K[%s%s] %s", strings.Repeat("#", done), strings.Repeat(".", width-done), text)
}

// onSignal is a context SIGINT or SIGTERM ends; caught says which ended
// it. After stop the signals take their default course again.
func onSignal() (ctx context.Context, stop func(), caught func() syscall.Signal) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var mu sync.Mutex
	var got syscall.Signal
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			mu.Lock()
			got = s.(syscall.Signal)
			mu.Unlock()
			cancel()
		case <-done:
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
		})
	}
	caught = func() syscall.Signal {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
	return ctx, stop, caught
}
