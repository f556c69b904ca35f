package startheap

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads GOGC without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// Defer puts the first collection off past a heap of several MiB, then
// hands the collector the GOGC asked for, the latest one set meanwhile.
func TestDeferPutsOffTheFirstCollection(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	runtime.GC() // start from a collected heap, whatever ran before
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.NumGC

	Defer(200, 64<<20)
	if p := gcPercent(); p != 1600 || !pending() {
		t.Fatalf("GOGC %d, pending %v; want 1600 (64 MiB over the runtime's 4 MiB), pending", p, pending())
	}
	// 24 MiB kept live, in blocks: at GOGC=200 the runtime would have
	// collected at 8 MiB.
	var keep [][]byte
	for range 24 {
		keep = append(keep, make([]byte, 1<<20))
	}
	runtime.ReadMemStats(&ms)
	if ms.NumGC != before {
		t.Errorf("%d collections with %d MiB live under a 64 MiB floor", ms.NumGC-before, len(keep))
	}
	SetGCPercent(300)
	if p := gcPercent(); p != 1600 {
		t.Fatalf("GOGC %d while the first collection is put off; want 1600 still", p)
	}

	runtime.GC()
	for deadline := time.Now().Add(5 * time.Second); pending() && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if pending() {
		t.Fatal("still pending after collections")
	}
	if p := gcPercent(); p != 300 {
		t.Errorf("GOGC %d after the first collection; want 300, the latest asked for", p)
	}
	SetGCPercent(150)
	if p := gcPercent(); p != 150 {
		t.Errorf("GOGC %d; want 150 set at once", p)
	}
	runtime.KeepAlive(keep)
}
