// Command gensample writes dembug's built-in sample replay, the demo that
// writer.Generate builds, to a file. It is run by go generate in package
// sample:
//
//	go run ../internal/gensample -o ../testdata/sample.dem
//
// The output is the same, byte for byte, on every run.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dembug/dembug/engine/writer"
)

func main() {
	out := flag.String("o", "sample.dem", "file to write")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gensample [-o FILE]")
		os.Exit(2)
	}
	data := writer.Generate()
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gensample:", err)
		os.Exit(1)
	}
}
