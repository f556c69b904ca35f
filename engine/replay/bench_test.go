package replay_test

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/signon"
	"github.com/dembug/dembug/internal/testreplays"
)

// signonEnd decodes the start-up: schema, string tables, baselines and the
// first full entity snapshot (the packet whose entities are not a delta),
// and returns the replay just after it. What follows is the in-game stream
// of delta packets.
func signonEnd(tb testing.TB, data []byte) *replay.Replay { return signon.End(tb, data) }

// inGameEntities returns copies of the packet-entities messages after the
// signon, in order.
func inGameEntities(tb testing.TB, data []byte) []messages.PacketEntities {
	r := signonEnd(tb, data)
	var msgs []messages.PacketEntities
	r.Hooks.Entities = func(_ replay.Location, m *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
		c := *m
		c.EntityData = append([]byte(nil), m.EntityData...)
		msgs = append(msgs, c)
	}
	if err := r.Run(nil); err != nil {
		tb.Fatal(err)
	}
	return msgs
}

func reportFields(b *testing.B, fields int64) {
	b.ReportMetric(float64(fields)/b.Elapsed().Seconds(), "fields/s")
}

// decodeReleased decodes data whole and releases the decode for the next
// to reuse (Replay.Release), returning the fields it read.
func decodeReleased(b *testing.B, data []byte) int64 {
	r, err := replay.Open(data)
	if err != nil {
		b.Fatal(err)
	}
	if err := r.Run(nil); err != nil {
		b.Fatal(err)
	}
	fields := r.Entities.Stats.Fields + r.Entities.Stats.BaselineFields
	r.Release()
	return fields
}

// BenchmarkDecodeWhole decodes the whole Dota 2 replay, start-up included,
// each decode released for the next to reuse (Replay.Release).
func BenchmarkDecodeWhole(b *testing.B) {
	_, data := testreplays.Read(b, "dota2")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var fields int64
	for b.Loop() {
		fields += decodeReleased(b, data)
	}
	reportFields(b, fields)
}

// BenchmarkDecodeWholeLong is BenchmarkDecodeWhole on the 100 MB replay.
func BenchmarkDecodeWholeLong(b *testing.B) {
	data := longReplay(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		decodeReleased(b, data)
	}
}

// BenchmarkDecodeSignon decodes the start-up only: header, schema, string
// tables, class info, baselines and the first full entity snapshot.
func BenchmarkDecodeSignon(b *testing.B) {
	_, data := testreplays.Read(b, "dota2")
	r := signonEnd(b, data)
	b.SetBytes(int64(r.Pos()))
	b.ReportAllocs()
	for b.Loop() {
		signonEnd(b, data)
	}
}

func benchInGame(b *testing.B, record bool) {
	_, data := testreplays.Read(b, "dota2")
	r := signonEnd(b, data)
	b.SetBytes(int64(len(data) - r.Pos()))
	b.ReportAllocs()
	var rec provenance.Message
	var fields int64
	for b.Loop() {
		b.StopTimer()
		r := signonEnd(b, data)
		before := r.Entities.Stats.Fields + r.Entities.Stats.BaselineFields
		if record {
			r.Hooks.Record = func(replay.Location) *provenance.Message { return &rec }
		}
		runtime.GC() // the set-up's garbage is not the in-game decode's
		b.StartTimer()
		if err := r.Run(nil); err != nil {
			b.Fatal(err)
		}
		fields += r.Entities.Stats.Fields + r.Entities.Stats.BaselineFields - before
	}
	reportFields(b, fields)
}

// BenchmarkDecodeInGame decodes the in-game packets (after the signon)
// without recording.
func BenchmarkDecodeInGame(b *testing.B) { benchInGame(b, false) }

// BenchmarkDecodeInGameRecording decodes the same packets recording every
// field's provenance.
func BenchmarkDecodeInGameRecording(b *testing.B) { benchInGame(b, true) }

// BenchmarkEntityFields applies the Dota 2 replay's in-game packet-entities
// messages alone to the state at the end of the signon: the field-decoding
// throughput the engine's target is set for.
func BenchmarkEntityFields(b *testing.B) { benchEntityFields(b, "dota2") }

// BenchmarkEntityFieldsGames is the same over the first CS2 and Deadlock
// replays, whose updates carry more fields each (7 and 11 on average,
// against Dota's 2), for comparison.
func BenchmarkEntityFieldsGames(b *testing.B) {
	for _, g := range []string{"cs2", "deadlock"} {
		b.Run(g, func(b *testing.B) { benchEntityFields(b, g) })
	}
}

func benchEntityFields(b *testing.B, game string) {
	_, data := testreplays.Read(b, game)
	msgs := inGameEntities(b, data)
	var bytes int64
	for _, m := range msgs {
		bytes += int64(len(m.EntityData))
	}
	b.SetBytes(bytes)
	b.ReportAllocs()
	base := signonEnd(b, data).Entities
	var fields int64
	var runs []time.Duration // each run's time, for reportSpread
	for b.Loop() {
		b.StopTimer()
		t := base.Snapshot()
		t.Own()
		runtime.GC() // the set-up's garbage is not the decoder's
		b.StartTimer()
		start := time.Now()
		for i := range msgs {
			res := t.Apply(&msgs[i], nil)
			if res.Misaligned {
				b.Fatalf("message %d misaligned: %v", i, res.Err)
			}
			fields += int64(res.Fields)
		}
		runs = append(runs, time.Since(start))
	}
	reportFields(b, fields)
	reportSpread(b, runs, fields/int64(len(runs)))
}

// reportSpread reports the throughput of the median run and of the run at
// the fastest tenth. On a shared machine the mean moves with the
// neighbours' load, by 20% and more from minute to minute; the fastest
// tenth shows what the code does while the machine is quiet.
func reportSpread(b *testing.B, runs []time.Duration, fieldsPerRun int64) {
	slices.Sort(runs)
	rate := func(d time.Duration) float64 { return float64(fieldsPerRun) / d.Seconds() }
	b.ReportMetric(rate(runs[len(runs)/2]), "median-fields/s")
	b.ReportMetric(rate(runs[len(runs)/10]), "fast10%-fields/s")
}
