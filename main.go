// Command dembug is a terminal debugger for Source 2 demo files. main only
// wires the command line, the engine and the UI together.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/dembug/dembug/cli"
	"github.com/dembug/dembug/sample"
	"github.com/dembug/dembug/ui"
)

func main() {
	// dembug decodes a file into a live heap of a few tens of MB and then
	// exits or idles; collecting less often makes start-up markedly faster.
	// GOGC in the environment still wins, for measuring.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(run())
}

func run() (code int) {
	// No stack trace ever reaches a user: a panic becomes one line.
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "dembug: internal error: %v\n", p)
			code = 2
		}
	}()
	cli.SetSample(sample.Replay)
	cli.OpenTUI = ui.Run
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
