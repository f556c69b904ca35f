// Command dembug is a terminal debugger for Source 2 demo files. main only
// wires the command line, the engine and the UI together.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/dembug/dembug/cli"
	"github.com/dembug/dembug/internal/startheap"
	"github.com/dembug/dembug/sample"
	"github.com/dembug/dembug/ui"
)

func main() {
	// Replays are memory-mapped (internal/mapfile), so the heap holds only
	// the decoding state. Measured on a 100 MB replay (docs/memory.md):
	// check at GOGC=200 peaks at 56-77 MiB and runs as fast as at 400
	// (which doubles the heap for no gain) and faster than at 100 (more
	// collections). The first collection waits for a 32 MiB heap: a short
	// replay's decode, nearly all of it live, then needs none
	// (internal/startheap). The TUI sets its own at once (ui.Run: GOGC=200
	// under a soft limit). GOGC in the environment still wins, and so does a
	// GOMEMLIMIT below the memory budget's soft limit (engine/budget).
	if os.Getenv("GOGC") == "" {
		startheap.Defer(200, 32<<20)
	}
	os.Exit(run())
}

// openTUI starts the debugger (tests script it).
var openTUI = ui.Run

func run() (code int) {
	// No stack trace ever reaches a user: a panic becomes one line.
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "dembug: internal error: %v\n", p)
			code = 2
		}
	}()
	cli.SetSample(sample.Replay)
	cli.SetGameSample("cs2", sample.CS2)
	cli.Budget = true
	cli.OpenTUI = openTUI
	cli.OpenTUICompare = ui.RunCompare
	cli.OpenTUIAt = ui.RunAt
	err := cli.Root(os.Stdout, os.Stderr).Execute()
	if err == nil {
		return 0
	}
	var ee *cli.ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	fmt.Fprintf(os.Stderr, "dembug: %v\n", err)
	return 1
}
