package ui

import (
	"testing"
	"time"
)

// BenchmarkNextUpdate measures what a user waits for after pressing n on
// the Dota 2 replay at 160×48: Update for the key, the re-decode command it
// starts when the next update is in another packet-entities message (run
// synchronously, as part of the operation), and View. The target is under
// 50 ms per op. It walks the file's updates in order and wraps around.
func BenchmarkNextUpdate(b *testing.B) {
	_, data := loadReplay(b, dotaReplay)
	hs := newHarness(b, "auto-20240102-2233.dem", data, 160, 48)
	n := hs.m.ix.NumUpdates()
	if n == 0 {
		b.Fatal("no entity updates")
	}
	var worst time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if k, exact := hs.m.flatPos(); exact && k == n-1 {
			b.StopTimer()
			hs.run(hs.m.jump(0))
			b.StartTimer()
		}
		start := time.Now()
		hs.send(keyMsg("n"))
		_ = hs.m.View()
		worst = max(worst, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
	if hs.m.fatal != "" {
		b.Fatal(hs.m.fatal)
	}
}

// BenchmarkOpen measures opening the Dota 2 replay at 160×48 until the first
// frame shows real fields: the index pass over the whole file, the decode
// of the first packet-entities message and one View. The target is under a
// second.
func BenchmarkOpen(b *testing.B) {
	_, data := loadReplay(b, dotaReplay)
	for b.Loop() {
		hs := newHarness(b, "auto-20240102-2233.dem", data, 160, 48)
		if out := hs.m.View(); hs.m.fatal != "" || hs.m.ix.NumUpdates() == 0 {
			b.Fatalf("not open: %s %v", hs.m.fatal, out)
		}
	}
}
