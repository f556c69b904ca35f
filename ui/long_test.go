package ui

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"testing"
	"time"
)

// TestLongSession drives the debugger over a full-length replay
// (DEMBUG_LONG) as docs/measure-tui.sh does, every command run
// synchronously, and logs what each key costs on the UI side and in the
// decoder (the tmux script measures the same in a terminal).
func TestLongSession(t *testing.T) {
	path := os.Getenv("DEMBUG_LONG")
	if path == "" || testing.Short() {
		t.Skip("DEMBUG_LONG names no full-length replay")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	hs := newHarness(t, path, data, 200, 50)
	t.Logf("index and grading: %v, %d keyframes (%d MiB)", time.Since(t0), hs.m.ix.Keyframes.Len(), hs.m.ix.Keyframes.Bytes()>>20)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("live heap after the index and grading passes: %d MiB (the file, read whole here: %d MiB)", ms.HeapAlloc>>20, len(data)>>20)
	timeKeys := func(label string, n int, f func(i int)) {
		var ds []time.Duration
		for i := range n {
			start := time.Now()
			f(i)
			_ = hs.m.View()
			ds = append(ds, time.Since(start))
		}
		sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
		t.Logf("%-10s p50 %v p95 %v max %v", label, ds[len(ds)/2], ds[len(ds)*95/100], ds[len(ds)-1])
	}
	timeKeys("end", 1, func(int) { hs.keys("end") })
	timeKeys("N", 20, func(int) { hs.keys("N") })
	timeKeys("[", 20, func(int) { hs.keys("[") })
	timeKeys("n", 20, func(int) { hs.keys("n") })
	last := hs.m.ix.Commands[len(hs.m.ix.Commands)-1].Tick
	rng := rand.New(rand.NewPCG(1, 1))
	timeKeys("g", 20, func(int) {
		hs.keys("g")
		hs.typ(fmt.Sprint(rng.IntN(int(last))))
		hs.keys("enter")
	})
	timeKeys("search", 1, func(int) {
		hs.keys("/")
		hs.typ("m_iHealth")
		hs.keys("enter")
	})
	t.Log(hs.m.note)
}
