package replay_test

import (
	"testing"

	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

// BenchmarkDecodeWholeEvidence decodes the whole Dota 2 replay without and
// with value evidence (what check gathers): the difference is what the
// counting costs on the decode pass. Its allocations are the set's own,
// made once.
func BenchmarkDecodeWholeEvidence(b *testing.B) {
	_, data := testreplays.Read(b, "dota2")
	for _, gather := range []bool{false, true} {
		b.Run(map[bool]string{false: "off", true: "on"}[gather], func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var fields int64
			for b.Loop() {
				r, err := replay.Open(data)
				if err != nil {
					b.Fatal(err)
				}
				if gather {
					r.Entities.GatherEvidence()
				}
				if err := r.Run(nil); err != nil {
					b.Fatal(err)
				}
				fields += r.Entities.Stats.Fields + r.Entities.Stats.BaselineFields
			}
			reportFields(b, fields)
		})
	}
}
