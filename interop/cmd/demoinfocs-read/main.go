// Command demoinfocs-read parses a CS2 replay to its end with
// demoinfocs-golang, as published, and exits 1 with the parser's error
// when it stops early: a test for dembug shrink (docs/fixtures.md).
//
//	go build -o /tmp/demoinfocs-read ./cmd/demoinfocs-read
//	dembug shrink 14155.dem --test '/tmp/demoinfocs-read {}' --match 'unable to find existing entity' -o small.dem
package main

import (
	"fmt"
	"os"
	"strings"

	dem "github.com/markus-wa/demoinfocs-golang/v5/pkg/demoinfocs"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: demoinfocs-read FILE.dem")
		os.Exit(2)
	}
	os.Exit(read(os.Args[1]))
}

func read(path string) (code int) {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer f.Close()
	p := dem.NewParserWithConfig(f, dem.ParserConfig{})
	defer p.Close()
	// demoinfocs panics on some broken input: that is a failure to read,
	// said in a line, not a stack trace.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "demoinfocs panics at tick %d: %v\n", p.GameState().IngameTick(), r)
			code = 1
		}
	}()
	if err := p.ParseToEnd(); err != nil {
		// The error carries demoinfocs' stack trace after its first line.
		msg, _, _ := strings.Cut(err.Error(), "\n")
		fmt.Fprintf(os.Stderr, "demoinfocs stops at tick %d: %s\n", p.GameState().IngameTick(), msg)
		return 1
	}
	fmt.Printf("demoinfocs reads to tick %d\n", p.GameState().IngameTick())
	return 0
}
