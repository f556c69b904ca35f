package cut_test

import (
	"os"
	"testing"

	"github.com/dembug/dembug/engine/cut"
	"github.com/dembug/dembug/internal/testreplays"
)

// BenchmarkCutLongEnd cuts the last 300 ticks of the full-length replay:
// the whole file decoded to the window, the full frame written and
// checked, the window copied and the cut decoded back.
func BenchmarkCutLongEnd(b *testing.B) {
	data, err := os.ReadFile(testreplays.Long(b, 100))
	if err != nil {
		b.Fatal(err)
	}
	last := lastTick(b, data)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cut.Cut(data, cut.Options{From: last - 300, To: -1}); err != nil {
			b.Fatal(err)
		}
	}
}
