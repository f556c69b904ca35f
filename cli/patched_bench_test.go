package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// patchedBenchCases are simulated patches of real replays: one breaking
// inside a baseline, one in a message's own data, one an encoder.
var patchedBenchCases = []struct {
	file string
	rn   writer.Rename
}{
	{"dota2/auto-20240102-2233.dem", writer.Rename{From: "QAngle", To: "PatchedQAngle"}},
	{"dota2/auto-20240102-2233.dem", writer.Rename{From: "CUtlSymbolLarge", To: "PatchedSymbol"}},
	{"cs2/14160.dem", writer.Rename{Encoder: true, From: "coord", To: "patched_coord"}},
}

// BenchmarkCheckPatched runs check (decode, inference, breaking read) on
// patched replays, beside an ordinary check of the same file; the ratio of
// the two is what a patch costs.
func BenchmarkCheckPatched(b *testing.B) {
	dir := testreplays.Require(b)
	for _, c := range patchedBenchCases {
		data, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			b.Skip(err)
		}
		patched, _, err := writer.RenameInSchema(data, c.rn)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(c.file)+"/"+c.rn.To, func(b *testing.B) {
			b.SetBytes(int64(len(patched)))
			for b.Loop() {
				if res, _ := Check("x", patched); len(res.Inferred) == 0 {
					b.Fatal("nothing inferred")
				}
			}
		})
		b.Run(filepath.Base(c.file)+"/ordinary", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				Check("x", data)
			}
		})
	}
}
