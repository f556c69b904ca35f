package session

import (
	"os"
	"runtime"
	"testing"

	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/mapfile"
	"github.com/dembug/dembug/internal/testreplays"
)

// benchReplay is the full-length replay DEMBUG_LONG names, or the shared
// Dota 2 one. Run with GOGC=100 GOMEMLIMIT=420MiB to measure the index
// pass as the debugger runs it (ui.tuneGC).
func benchReplay(b *testing.B) []byte {
	if p := os.Getenv("DEMBUG_LONG"); p != "" {
		// Mapped, as the debugger and check read it: the file is not heap.
		f, err := mapfile.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { f.Close() })
		return f.Data
	}
	_, data := testreplays.Read(b, "dota2")
	return data
}

// BenchmarkIndex is the index pass over a whole file (DEMBUG_LONG, or the
// shared Dota 2 replay), keyframes included; BenchmarkDecode is a plain
// decode of the same file, as check runs it, to compare with. The index's
// memory (what stays live after the pass) is reported as index-MiB.
func BenchmarkIndex(b *testing.B) {
	data := benchReplay(b)
	b.SetBytes(int64(len(data)))
	var live uint64
	for b.Loop() {
		ix := BuildIndex("bench.dem", data)
		if !ix.Done || ix.Err != nil {
			b.Fatalf("index: %+v", ix.Err)
		}
		b.StopTimer()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		live = ms.HeapAlloc
		b.ReportMetric(float64(ix.Keyframes.Len()), "keyframes")
		runtime.KeepAlive(ix)
		b.StartTimer()
	}
	b.ReportMetric(float64(live)/(1<<20), "index-MiB")
}

func BenchmarkDecode(b *testing.B) {
	data := benchReplay(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r, err := replay.Open(data)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Run(nil); err != nil {
			b.Fatal(err)
		}
	}
}
