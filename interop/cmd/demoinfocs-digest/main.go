// Command demoinfocs-digest reads a CS2 replay with demoinfocs-golang and
// prints its reading as digest lines (package digest): one per entity
// after each frame, with a hash of its values, then how it ended; with
// field names after the file, those fields' values instead. The tests of
// the fix lines (demoinfocs/fix_test.go) build it from a copy of
// demoinfocs' source with the forecast's lines inserted.
//
//	go run ./cmd/demoinfocs-digest FILE.dem [FIELD...]
package main

import (
	"fmt"
	"os"

	"github.com/dembug/dembug/interop/demoinfocs"
	"github.com/dembug/dembug/interop/digest"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: demoinfocs-digest FILE.dem [FIELD...]")
		os.Exit(2)
	}
	digest.LimitMemory()
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := demoinfocs.Digest(data, os.Args[2:]...).Write(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
