package ui

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/compare"
	"github.com/dembug/dembug/engine/schema"
)

// Run opens the interactive debugger on a replay's bytes and returns when
// the user quits. Bad input is shown inside the debugger, never returned;
// an internal failure comes back as one error line, never a stack trace.
func Run(path string, data []byte, a schema.Aliases) (err error) {
	return run(path, data, Options{Aliases: a})
}

// RunAt is Run opening at the first entity update at or after tick (the
// --tick flag; a shrunk or cut fixture's window, say).
func RunAt(path string, data []byte, a schema.Aliases, tick int32) error {
	return run(path, data, Options{Aliases: a, StartTick: tick, HasStartTick: true})
}

// RunCompare is Run with a parser's trace compared with our decode: the
// debugger opens at the first difference.
func RunCompare(path string, data []byte, a schema.Aliases, res *compare.Result) error {
	return run(path, data, Options{Aliases: a, Compare: res})
}

func run(path string, data []byte, o Options) error {
	if err := needTerminal(os.Stdin, os.Stdout); err != nil {
		return err
	}
	o.NoColor = noColor()
	return RunWith(path, data, o)
}

// needTerminal is an error naming what to use instead when the debugger
// has no terminal to draw on or read keys from (a script, a pipe, CI),
// where Bubble Tea would fail on /dev/tty in its own words.
func needTerminal(in, out *os.File) error {
	const instead = "; to print a decode, use dembug check, trace, entities or strings (dembug --help)"
	if st, err := out.Stat(); err == nil && st.Mode()&os.ModeCharDevice == 0 {
		return errors.New("the debugger draws on a terminal, and standard output is not one" + instead)
	}
	if st, err := in.Stat(); err == nil && st.Mode()&os.ModeCharDevice == 0 && runtime.GOOS != "windows" {
		// Keys come from the controlling terminal then, if there is one.
		tty, err := os.Open("/dev/tty")
		if err != nil {
			return errors.New("the debugger reads keys from a terminal, and there is none" + instead)
		}
		tty.Close()
	}
	return nil
}

// RunWith is Run with options and program options (a scripted input, a
// fixed window size: tests run the debugger as a program this way).
func RunWith(path string, data []byte, o Options, po ...tea.ProgramOption) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	tuneGC()
	m := New(path, data, o)
	final, err := tea.NewProgram(m, po...).Run()
	if err != nil {
		if errors.Is(err, tea.ErrProgramPanic) {
			return errors.New("internal error in the terminal UI")
		}
		return err
	}
	if fm, ok := final.(*Model); ok && fm.fatal != "" {
		return errors.New(fm.fatal)
	}
	return nil
}

// noColor reports whether the debugger draws without colour, with text
// markers instead: NO_COLOR asks for it (https://no-color.org: present
// and not empty), and a dumb terminal (TERM=dumb) shows no colour anyway,
// so the markers that stand in for colour must be drawn.
func noColor() bool { return os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" }

// tuneGC: the debugger lives long and keeps keyframes, so its heap is held
// by a soft limit below the 500 MiB it promises for a full-length replay
// (docs/memory.md), at GOGC=200: the limit holds the peak, and below it the
// index pass collects half as often (about 5% less CPU for the pass on the
// 100 MB replay than at GOGC=100). GOGC and GOMEMLIMIT in the environment
// win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200) // at once: a first collection put off bought the debugger nothing (docs/memory.md)
	}
	// A lower limit (the memory budget's for a small file) stays.
	if os.Getenv("GOMEMLIMIT") == "" && debug.SetMemoryLimit(-1) > 420<<20 {
		debug.SetMemoryLimit(420 << 20)
	}
}
