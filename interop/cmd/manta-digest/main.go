// Command manta-digest reads a Dota 2 replay with Manta and prints its
// reading as digest lines (package digest): one per entity update, with a
// hash of the entity's values, then how it ended. The tests of the fix
// lines (manta/fix_test.go) build it from a copy of Manta's source with
// the forecast's lines inserted.
//
//	go run ./cmd/manta-digest FILE.dem
package main

import (
	"fmt"
	"os"

	"github.com/dembug/dembug/interop/digest"
	"github.com/dembug/dembug/interop/manta"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: manta-digest FILE.dem")
		os.Exit(2)
	}
	digest.LimitMemory()
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := manta.Digest(data).Write(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
