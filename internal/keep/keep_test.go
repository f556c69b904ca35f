package keep

import (
	"runtime"
	"testing"
)

// A pool keeps one thing per processor, hands back the last kept first,
// and is empty once all are taken.
func TestPoolKeepsOnePerProcessor(t *testing.T) {
	var p Pool[int]
	if _, ok := p.Take(); ok {
		t.Fatal("an empty pool handed something out")
	}
	n := runtime.GOMAXPROCS(0)
	for i := range n + 2 {
		if full := p.Full(); full != (i >= n) {
			t.Fatalf("after %d puts Full is %v", i, full)
		}
		p.Put(i)
	}
	for want := n - 1; want >= 0; want-- {
		if got, ok := p.Take(); !ok || got != want {
			t.Fatalf("took %d (%v), want %d", got, ok, want)
		}
	}
	if _, ok := p.Take(); ok {
		t.Fatal("the pool kept more than one per processor")
	}
}
