// Command gensample writes one of dembug's built-in sample replays, the
// demos that writer.Generate and writer.GenerateCS2 build, to a file. It is run by go generate in package
// sample:
//
//	go run ../internal/gensample -o ../testdata/sample.dem
//	go run ../internal/gensample -game cs2 -o ../testdata/sample-cs2.dem
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
	g := flag.String("game", "dota", "which sample: dota or cs2")
	flag.Parse()
	if flag.NArg() > 0 || (*g != "dota" && *g != "cs2") {
		fmt.Fprintln(os.Stderr, "usage: gensample [-game dota|cs2] [-o FILE]")
		os.Exit(2)
	}
	data := writer.Generate()
	if *g == "cs2" {
		data = writer.GenerateCS2()
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gensample:", err)
		os.Exit(1)
	}
}
