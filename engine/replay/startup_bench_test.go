package replay_test

import (
	"testing"

	"github.com/dembug/dembug/internal/testreplays"
)

// eachShortReplay runs fn as a sub-benchmark per shared replay, named by
// game and file ("cs2/14065.dem"): short files are where the start-up
// (schema, string tables, baselines, the first full frame) is most of the
// cost.
func eachShortReplay(b *testing.B, fn func(b *testing.B, data []byte)) {
	testreplays.Subtests(b, fn)
}

// BenchmarkSignonFiles decodes each shared replay's start-up only, up to
// and including its first full entity snapshot.
func BenchmarkSignonFiles(b *testing.B) {
	eachShortReplay(b, func(b *testing.B, data []byte) {
		r := signonEnd(b, data)
		b.SetBytes(int64(r.Pos()))
		b.ReportAllocs()
		for b.Loop() {
			signonEnd(b, data)
		}
	})
}

// BenchmarkWholeFiles decodes each shared replay whole, start-up included,
// each decode released for the next to reuse (Replay.Release).
func BenchmarkWholeFiles(b *testing.B) {
	eachShortReplay(b, func(b *testing.B, data []byte) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			decodeReleased(b, data)
		}
	})
}
