package sample_test

import (
	"slices"
	"testing"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/sample"
)

func TestCS2SampleIsReproducible(t *testing.T) {
	checkReproducible(t, "writer.GenerateCS2", writer.GenerateCS2, "sample-cs2.dem", sample.CS2)
}

func TestCS2SampleDecodesCleanly(t *testing.T) {
	r, msgs := decodeFile(t, sample.CS2)
	if r.Stats.Misaligned != 0 || r.FirstMisaligned != nil {
		t.Fatalf("%d misaligned packet-entities messages, first: %v", r.Stats.Misaligned, r.FirstMisaligned)
	}
	if !r.Done || r.Game != game.CS2 || r.Stats.LastTick != writer.SampleCS2LastTick || r.Server.TickInterval != float32(1.0/64) {
		t.Fatalf("done %v, game %s, last tick %d, tick interval %v", r.Done, r.Game, r.Stats.LastTick, r.Server.TickInterval)
	}
	for _, m := range msgs {
		if m.rec.Err != nil || m.rec.DataBits-m.rec.EndBit >= 8 {
			t.Fatalf("tick %d: %s, stopped at bit %d of %d", m.tick, m.rec.Err, m.rec.EndBit, m.rec.DataBits)
		}
	}
	n := len(r.Entities.Classes)
	base := r.Strings.ByName("instancebaseline")
	if base == nil || len(base.Entries) != n || n&(n-1) == 0 {
		t.Errorf("%d classes (a power of two?), instancebaseline %+v", n, base)
	}
}

// TestCS2SampleCarriesCS2Families: every family a Dota replay cannot hold
// is in the CS2 sample's entity data.
func TestCS2SampleCarriesCS2Families(t *testing.T) {
	_, msgs := decodeFile(t, sample.CS2)
	seen := map[decoder.Family]int{}
	for _, m := range msgs {
		for _, f := range m.rec.Fields {
			seen[f.Decoder.Family]++
		}
	}
	for _, fam := range notInDota {
		if seen[fam] == 0 {
			t.Errorf("no field of the CS2 sample is decoded as %s", fam)
		}
	}
}

func TestCS2SampleLandmarks(t *testing.T) {
	r, msgs := decodeFile(t, sample.CS2)
	chicken, taser := int32(writer.SampleCS2ChickenIdx), int32(writer.SampleCS2TaserIdx)

	// The polymorphic pointer: alternative 1 (wander) at creation, 2
	// (follow) at the switch, where path [4 1] changes name and decoder.
	ptr0, ok0 := field(msgs, 0, chicken, "m_pActivity")
	ptr, ok := field(msgs, writer.SampleCS2Follow, chicken, "m_pActivity")
	goal, _ := field(msgs, 0, chicken, "m_pActivity.m_vecGoal")
	leader, _ := field(msgs, writer.SampleCS2Follow, chicken, "m_pActivity.m_hLeader")
	if !ok0 || !ok || ptr0.Value.Int64() != 1 || ptr.Value.Int64() != 2 || goal.Path != leader.Path ||
		leader.Value.HandleIndex() != writer.SampleCS2TaserIdx || goal.Decoder.Family != decoder.FamVector {
		t.Errorf("pointer %v → %v; goal %+v; leader %+v", ptr0.Value, ptr.Value, goal, leader)
	}

	// Precise angles: 20 bits for each component sent.
	if a, ok := field(msgs, writer.SampleCS2Turn, chicken, "CBodyComponent.m_angRotation"); !ok ||
		a.Decoder.Family != decoder.FamQAnglePrecise || a.Bits != 3+3*20 {
		t.Errorf("precise angle at tick %d: %+v", writer.SampleCS2Turn, a)
	}

	// m_iClip1: −1 in the baseline (sent as 0), 1 at creation, 0 after the shot.
	c0, _ := field(msgs, 0, taser, "m_iClip1")
	c1, ok := field(msgs, writer.SampleCS2Shot, taser, "m_iClip1")
	if !ok || c0.Prev.Int64() != -1 || c0.Value.Int64() != 1 || c1.Value.Int64() != 0 || c1.Decoder.Family != decoder.FamUnsignedMinusOne || c1.Bits != 8 {
		t.Errorf("m_iClip1: %v → %v → %v (%s, %d bits)", c0.Prev, c0.Value, c1.Value, c1.Decoder.Family, c1.Bits)
	}

	// The binary block: empty in the baseline, 6 bytes (56 bits with
	// the count) that end the entity data of its message.
	var blockMsg *provenance.Message
	for _, m := range msgs {
		if m.tick == writer.SampleCS2Topology {
			blockMsg = m.rec
		}
	}
	b, ok := field(msgs, writer.SampleCS2Topology, chicken, "m_topology")
	if !ok || b.Decoder.Family != decoder.FamBinaryBlock || len(b.Value.Str()) != 6 || b.Bits != 56 ||
		blockMsg == nil || b.Start+b.Bits != blockMsg.EndBit || len(blockMsg.Updates) != 1 {
		t.Errorf("binary block: %+v", b)
	}

	// The taser is deleted by command; no deletion list in CS2.
	var ops []provenance.Op
	for _, m := range msgs {
		if m.rec.Deletions != 0 {
			t.Errorf("tick %d: a deletion list in a CS2 message", m.tick)
		}
		for _, u := range m.rec.Updates {
			if u.Index == taser {
				ops = append(ops, u.Op)
			}
		}
	}
	if !slices.Equal(ops, []provenance.Op{provenance.Create, provenance.Update, provenance.Delete}) || r.Entities.Entities[taser] != nil {
		t.Errorf("taser ops %v", ops)
	}
}
