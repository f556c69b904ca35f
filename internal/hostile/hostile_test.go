package hostile

import (
	"errors"
	"runtime"
	"testing"

	"github.com/dembug/dembug/engine/replay"
)

// TestEngineCostIsProportional decodes every crafted file in-process and
// holds what the decode allocates, in all (garbage too), to 64 MiB plus
// 1,024 times the file's size: a create copies at most the 256 slots a node
// keeps in place (12 KiB) for the 7 bytes or so it takes, while a
// full-width copy of a wide baseline per create, or an array grown to one
// high index, costs gigabytes. (The program's peak memory is held to a
// tighter bound by TestHostileCorpus.) A file may stop with an
// error, never with a panic.
func TestEngineCostIsProportional(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every crafted file")
	}
	for _, s := range Shapes() {
		t.Run(s.Name, func(t *testing.T) {
			data, err := s.Build()
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			r, err := replay.Open(data)
			if err == nil {
				err = r.Run(nil)
			}
			runtime.ReadMemStats(&after)
			var re *replay.Error
			if err != nil && !errors.As(err, &re) {
				t.Errorf("error without a location: %v", err)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			if limit := uint64(64<<20 + 1024*len(data)); alloc > limit {
				t.Errorf("%d-byte file: the decode allocated %d MiB, over %d MiB", len(data), alloc>>20, limit>>20)
			}
			t.Logf("%d bytes: allocated %d MiB; %v", len(data), alloc>>20, err)
		})
	}
}
