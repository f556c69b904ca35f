package session

import (
	"sync"
	"testing"

	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// A detail's baselines, recorded when first asked for, are what recording
// each created class's baseline on the table right after the message
// gives (RecordBaseline, as Load recorded them all before): the same reads,
// values and end, asked for from several goroutines at once. A class the
// message does not create has none.
func TestDetailBaselinesAsRecorded(t *testing.T) {
	testreplays.Subtests(t, func(t *testing.T, data []byte) {
		at := firstUpdates(BuildIndex("x.dem", data))
		dec := newLiveDecoder(data, schema.Aliases{})
		det, err := dec.Load(1, at)
		if err != nil {
			t.Fatal(err)
		}
		created := map[int32]bool{}
		for _, u := range det.Rec.Updates {
			if u.Op == provenance.Create {
				created[u.ClassID] = true
			}
		}
		if len(created) == 0 {
			t.Fatal("the first packet-entities message creates nothing")
		}
		var wg sync.WaitGroup
		for id := range created {
			wg.Add(1)
			go func() { defer wg.Done(); det.Baseline(id) }()
		}
		wg.Wait()
		table := dec.p.r.Entities // just past the message's command
		for id := range created {
			got, ok := det.Baseline(id)
			want, wantErr := table.RecordBaseline(id)
			if !ok || want == nil {
				t.Fatalf("class %d: lazy %v, eager %v", id, ok, want != nil)
			}
			if (got.Err == nil) != (wantErr == nil) || got.Rec.EndBit != want.EndBit || len(got.Rec.Fields) != len(want.Fields) || len(got.Data)*8 != int(want.DataBits) {
				t.Fatalf("class %d: %d fields to bit %d (%v), want %d to %d (%v)", id, len(got.Rec.Fields), got.Rec.EndBit, got.Err, len(want.Fields), want.EndBit, wantErr)
			}
			for i := range want.Fields {
				a, b := &got.Rec.Fields[i], &want.Fields[i]
				if a.Name != b.Name || a.Start != b.Start || a.Bits != b.Bits || a.Value != b.Value || a.Decoder != b.Decoder {
					t.Fatalf("class %d field %d: %s at %d+%d = %v, want %s at %d+%d = %v", id, i, a.Name, a.Start, a.Bits, a.Value, b.Name, b.Start, b.Bits, b.Value)
				}
			}
		}
		for id := int32(0); id < int32(len(table.Classes)); id++ {
			if _, ok := det.Baseline(id); ok && !created[id] {
				t.Fatalf("class %d, not created here, has a baseline", id)
			}
		}
	})
}
