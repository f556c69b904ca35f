package cut_test

import (
	"testing"
	"time"

	"github.com/dembug/dembug/engine/cut"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/sample"
)

// FuzzCut cuts windows of mutated demo files. Whatever the input: no
// panic, the cut ends, and a cut it returns opens and decodes to its end
// without misaligning unless the window itself did.
func FuzzCut(f *testing.F) {
	f.Add(sample.Replay, int16(3), int16(8))
	f.Add(sample.CS2, int16(2), int16(-1))
	f.Add(sample.Replay, int16(0), int16(-1))
	f.Fuzz(func(t *testing.T, data []byte, from, to int16) {
		start := time.Now()
		res, err := cut.Cut(data, cut.Options{From: int32(from), To: int32(to)})
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("a cut of %d bytes took %v", len(data), d)
		}
		if err != nil {
			return
		}
		r, err := replay.Open(res.Data)
		if err != nil {
			t.Fatalf("the cut does not open: %v", err)
		}
		err = r.Run(nil)
		if res.Stopped == nil && res.Ended == nil && (err != nil || r.Stats.Misaligned > 0) {
			t.Fatalf("a cut that ended cleanly does not decode: %v, %d misaligned", err, r.Stats.Misaligned)
		}
	})
}
