package sample_test

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/sample"
)

// recorded is one packet-entities message as the engine read it.
type recorded struct {
	tick int32
	rec  *provenance.Message
}

// decodeSample runs the embedded sample with every packet-entities message
// recorded.
func decodeSample(t *testing.T) (*replay.Replay, []recorded) {
	t.Helper()
	return decodeFile(t, sample.Replay)
}

// decodeFile runs a file with every packet-entities message recorded.
func decodeFile(t *testing.T, data []byte) (*replay.Replay, []recorded) {
	t.Helper()
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []recorded
	r.Hooks.Record = func(loc replay.Location) *provenance.Message {
		msgs = append(msgs, recorded{tick: loc.Tick, rec: &provenance.Message{}})
		return msgs[len(msgs)-1].rec
	}
	if err := r.Run(nil); err != nil {
		t.Fatalf("run: %v", err)
	}
	return r, msgs
}

func TestSampleDecodesCleanly(t *testing.T) {
	r, msgs := decodeSample(t)
	if r.Stats.Misaligned != 0 || r.FirstMisaligned != nil {
		t.Fatalf("%d misaligned packet-entities messages, first: %v", r.Stats.Misaligned, r.FirstMisaligned)
	}
	if !r.Done || r.Game != game.Dota2 || r.Stats.LastTick != writer.SampleLastTick {
		t.Fatalf("done %v, game %s, last tick %d", r.Done, r.Game, r.Stats.LastTick)
	}
	if r.Header.BuildNum != 10000 || r.Server.TickInterval != float32(1.0/30) {
		t.Fatalf("header %+v, server %+v", r.Header, r.Server)
	}
	if len(msgs) != writer.SampleLastTick+1 || r.Stats.PacketEntities != int64(len(msgs)) {
		t.Fatalf("%d packet-entities messages recorded, %d decoded; want one per tick", len(msgs), r.Stats.PacketEntities)
	}
	for _, m := range msgs {
		if m.rec.Err != nil || m.rec.DataBits-m.rec.EndBit >= 8 {
			t.Fatalf("tick %d: %s, stopped at bit %d of %d", m.tick, m.rec.Err, m.rec.EndBit, m.rec.DataBits)
		}
	}
}

// notInDota are the families a real Dota replay does not hold: three that
// Dota 2's decoder choice never gives (CS2 and Deadlock only), and the
// polymorphic pointer, which Dota's schemas do not use (the CS2 sample
// carries all four).
var notInDota = append(slices.Clone(notChosenInDota), decoder.FamPolyPointer)

// notChosenInDota are the families Dota 2's decoder choice never gives.
var notChosenInDota = []decoder.Family{decoder.FamQAnglePrecise, decoder.FamUnsignedMinusOne, decoder.FamBinaryBlock}

func TestSampleUsesEveryFamily(t *testing.T) {
	_, msgs := decodeSample(t)
	seen := map[decoder.Family]int{}
	for _, m := range msgs {
		for _, f := range m.rec.Fields {
			seen[f.Decoder.Family]++
		}
	}
	for _, fam := range decoder.Families() {
		if slices.Contains(notInDota, fam) {
			if seen[fam] > 0 {
				t.Errorf("%s appears in a Dota replay", fam)
			}
			continue
		}
		if seen[fam] == 0 {
			t.Errorf("no field of the sample is decoded as %s", fam)
		}
	}
}

// TestFamiliesOutsideDota shows why notChosenInDota is what it is: the fields
// that take those families in CS2 take others in Dota 2.
func TestFamiliesOutsideDota(t *testing.T) {
	flat := writer.FlattenedSerializer([]writer.SerializerSpec{{Name: "C", Fields: []writer.FieldSpec{
		writer.Field("m_angPrecise", "QAngle").WithEncoder("qangle_precise"),
		writer.Field("m_iClip1", "int32"),
		writer.Field("m_nSequence", "int32").WithVarSerializer("minusone"),
		writer.Field("m_blob", "CUtlBinaryBlock"),
	}}})
	for _, g := range []game.Game{game.Dota2, game.CS2} {
		s, err := schema.Parse(flat, g)
		if err != nil {
			t.Fatal(err)
		}
		var fams []decoder.Family
		for _, f := range s.Serializer("C").Fields {
			fams = append(fams, f.Decoder.Family)
		}
		for _, fam := range notChosenInDota {
			if got := slices.Contains(fams, fam); got != (g != game.Dota2) {
				t.Errorf("%s: %s chosen: %v (families %v)", g, fam, got, fams)
			}
		}
	}
}

func TestSampleIsReproducible(t *testing.T) {
	checkReproducible(t, "writer.Generate", writer.Generate, "sample.dem", sample.Replay)
}

// checkReproducible fails unless two runs of gen write the same bytes and
// those are the committed file's.
func checkReproducible(t *testing.T, genName string, gen func() []byte, file string, committed []byte) {
	t.Helper()
	a, b := gen(), gen()
	if !bytes.Equal(a, b) {
		t.Fatalf("two runs of %s differ", genName)
	}
	if !bytes.Equal(a, committed) {
		t.Fatalf("%s (%d bytes) is not what the generator writes (%d bytes): run go generate ./sample", file, len(committed), len(a))
	}
}

func TestSampleContainer(t *testing.T) {
	data := sample.Replay
	cr, err := container.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	at := map[container.Kind]int{}
	compressed := 0
	for {
		c, err := cr.Next()
		if err != nil {
			break
		}
		if _, ok := at[c.Kind]; !ok {
			at[c.Kind] = c.Offset
		}
		if c.Compressed {
			compressed++
		}
	}
	fi, sg := int(binary.LittleEndian.Uint32(data[8:])), int(binary.LittleEndian.Uint32(data[12:]))
	if fi != at[container.FileInfo] || sg != at[container.SpawnGroups] || fi == 0 || sg == 0 {
		t.Fatalf("header offsets %d, %d; DEM_FileInfo at %d, DEM_SpawnGroups at %d", fi, sg, at[container.FileInfo], at[container.SpawnGroups])
	}
	if compressed == 0 {
		t.Error("no snappy-compressed command")
	}
}

// field finds the value the engine read for an entity field at a tick.
func field(msgs []recorded, tick int32, index int32, name string) (provenance.Field, bool) {
	for _, m := range msgs {
		if m.tick != tick {
			continue
		}
		for _, f := range m.rec.Fields {
			if m.rec.Updates[f.Update].Index == index && f.Name == name {
				return f, true
			}
		}
	}
	return provenance.Field{}, false
}

func TestSampleLandmarks(t *testing.T) {
	r, msgs := decodeSample(t)

	// The seed document's game-rules update: five values in 120 bits.
	want := []struct {
		name string
		dec  decoder.Family
		bits uint
		val  string
	}{
		{"m_pGameRules.m_iFoWFrameNumber", decoder.FamSigned, 8, "14"},
		{"m_pGameRules.m_nHeroPickState", decoder.FamDefault, 8, "7"},
		{"m_pGameRules.m_flHeroPickStateTransitionTime", decoder.FamNoScale, 32, "0"},
		{"m_pGameRules.m_iPlayerIDsInControl", decoder.FamFixed64, 64, "2"},
		{"m_pGameRules.m_iCaptainPlayerIDs.0001", decoder.FamSigned, 8, "8"}, // PlayerID_t, corrected (the seed reads 16)
	}
	var names []string
	for _, m := range msgs {
		if m.tick != writer.SampleSeedUpdate {
			continue
		}
		for i, u := range m.rec.Updates {
			if u.Index == writer.SampleRulesIndex {
				for _, f := range m.rec.UpdateFields(i) {
					names = append(names, f.Name)
				}
			}
		}
	}
	if len(names) != len(want) {
		t.Fatalf("game rules update at tick %d has fields %v", writer.SampleSeedUpdate, names)
	}
	for _, w := range want {
		f, ok := field(msgs, writer.SampleSeedUpdate, writer.SampleRulesIndex, w.name)
		if !ok || f.Decoder.Family != w.dec || f.Bits != w.bits || f.Value.String() != w.val {
			t.Errorf("%s: %+v", w.name, f)
		}
	}

	// The hero crosses a cell boundary: m_cellX 130 → 131, the offset wraps.
	cell, ok := field(msgs, writer.SampleCellCross, writer.SampleHeroIndex, "CBodyComponent.m_cellX")
	vx, _ := field(msgs, writer.SampleCellCross, writer.SampleHeroIndex, "CBodyComponent.m_vecX")
	if !ok || cell.Prev.U != 130 || cell.Value.U != 131 || vx.Value.F[0] >= vx.Prev.F[0] || vx.Bits != 13 {
		t.Errorf("cell crossing: cell %v → %v, offset %v → %v (%d bits)", cell.Prev, cell.Value, vx.Prev, vx.Value, vx.Bits)
	}

	// Quantized special values cost one bit each where the flag is kept.
	for _, c := range []struct {
		tick int32
		name string
		bits uint
	}{
		{writer.SampleHeroStops, "m_vecVelocity", 3}, // ENCODE_ZERO per component
		{40, "m_flMoveSpeedBonus", 1},                // ENCODE_ZERO
		{writer.SampleLevelUp, "m_flHealthRegen", 1}, // ROUNDUP: exactly high
	} {
		if f, ok := field(msgs, c.tick, writer.SampleHeroIndex, c.name); !ok || f.Bits != c.bits {
			t.Errorf("tick %d %s: %d bits (%v), want %d", c.tick, c.name, f.Bits, ok, c.bits)
		}
	}

	// The variable array grows and shrinks.
	var lengths []uint64
	for _, tick := range []int32{0, 16, 33, 40} {
		f, ok := field(msgs, tick, writer.SampleHeroIndex, "m_vecModifierIDs")
		if !ok {
			t.Fatalf("tick %d: no m_vecModifierIDs length", tick)
		}
		lengths = append(lengths, f.Value.U)
	}
	if !slices.Equal(lengths, []uint64{0, 2, 3, 1}) {
		t.Errorf("m_vecModifierIDs lengths %v, want [0 2 3 1]", lengths)
	}

	// Creep A is created, updated, leaves and is deleted; creep B goes in
	// the deletion list.
	ops := map[int32]provenance.Op{}
	deletions := 0
	for _, m := range msgs {
		for _, u := range m.rec.Updates {
			if u.Index == writer.SampleCreepA {
				ops[m.tick] = u.Op
			}
		}
		if m.tick == writer.SampleCreepsGone {
			deletions = m.rec.Deletions
		}
	}
	wantOps := map[int32]provenance.Op{writer.SampleCreepsIn: provenance.Create, writer.SampleSeedUpdate: provenance.Update,
		writer.SampleCreepLeave: provenance.Leave, writer.SampleCreepsGone: provenance.Delete}
	if len(ops) != len(wantOps) || deletions != 1 {
		t.Errorf("creep ops %v, deletion list %d", ops, deletions)
	}
	for tick, op := range wantOps {
		if ops[tick] != op {
			t.Errorf("tick %d: creep %s, want %s", tick, ops[tick], op)
		}
	}
	if r.Entities.Entities[writer.SampleCreepA] != nil || r.Entities.Entities[writer.SampleCreepB] != nil {
		t.Error("creeps still live at the end")
	}

	// Roshan takes damage; every class has a baseline, as in Valve's
	// files (other parsers stop at a create without one).
	if hp, ok := field(msgs, writer.SampleRoshanHit, writer.SampleRoshan, "m_iHealth"); !ok || hp.Prev.Int64() != 6000 || hp.Value.Int64() != 5820 {
		t.Errorf("Roshan's health at tick %d: %v → %v", writer.SampleRoshanHit, hp.Prev, hp.Value)
	}
	base := r.Strings.ByName("instancebaseline")
	if base == nil || len(base.Entries) != len(r.Entities.Classes) || len(r.Entities.Classes)&(len(r.Entities.Classes)-1) == 0 {
		t.Errorf("%d classes (a power of two?), instancebaseline %+v", len(r.Entities.Classes), base)
	}

	// The string table update arrived.
	if names := r.Strings.ByName("EntityNames"); names == nil || len(names.Entries) != 3 {
		t.Errorf("EntityNames: %+v", names)
	}
}
