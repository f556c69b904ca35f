package session

import (
	"testing"

	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// BenchmarkLoadFirstFullFrame is what the debugger's first view of a
// short replay costs past the signon: a fresh live decoder's recorded
// decode of the file's first packet-entities message (its full frame,
// every field recorded), as Load returns it. Sub-benchmarks by file.
func BenchmarkLoadFirstFullFrame(b *testing.B) {
	testreplays.Subtests(b, func(b *testing.B, data []byte) {
		at := firstUpdates(BuildIndex("x.dem", data))
		if at == None {
			b.Fatal("no packet-entities message")
		}
		b.ReportAllocs()
		for b.Loop() {
			det, err := newLiveDecoder(data, schema.Aliases{}).Load(1, at)
			if err != nil || det.Rec == nil {
				b.Fatalf("load: %v", err)
			}
		}
	})
}

// firstUpdates is the first packet-entities message of ix with updates
// (no update or field selected), None when there is none.
func firstUpdates(ix *Index) Ref {
	for i := range ix.Commands {
		for j, m := range ix.Commands[i].Msgs() {
			if m.PE != nil && len(m.PE.Updates) > 0 {
				return Ref{Cmd: i, Msg: j, Upd: -1, Field: -1}
			}
		}
	}
	return None
}
