package session

import (
	"runtime"
	"testing"

	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/mapfile"
	"github.com/dembug/dembug/internal/testreplays"
)

// benchReplay is a full-length replay (DEMBUG_LONG, or one make.sh
// builds), mapped as the debugger and check read it: the file is not heap.
// Run with GOGC=200 GOMEMLIMIT=420MiB to measure the index pass as the
// debugger runs it (ui.tuneGC).
func benchReplay(b *testing.B) []byte {
	f, err := mapfile.Open(testreplays.Long(b, 100))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f.Data
}

// BenchmarkIndex is the index pass over a whole full-length replay,
// keyframes included; BenchmarkDecode is a plain
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
