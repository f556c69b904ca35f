package hostile

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/budget"
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

// TestSpentBudgetStopsTheDecode: past the memory budget a decode stops
// with an error located at the update that found it spent (not a
// misaligned message to count and go past).
func TestSpentBudgetStopsTheDecode(t *testing.T) {
	data, err := ArrayIndex(20, 5, 300)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()     // the budget compares what the last collection found live
	budget.Set(1, 0) // any live heap is over it
	defer budget.Set(0, 0)
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	err = r.Run(nil)
	var spent *budget.Error
	var re *replay.Error
	if !errors.As(err, &spent) || !errors.As(err, &re) {
		t.Fatalf("err = %v, want a located budget error", err)
	}
	if re.Loc.Message < 0 || !strings.Contains(err.Error(), "update #0") || r.Stats.Misaligned != 0 {
		t.Fatalf("err = %v (misaligned %d), want it at the first update of a message", err, r.Stats.Misaligned)
	}
}
