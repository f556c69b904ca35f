package replay_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/stringtable"
	"github.com/dembug/dembug/internal/testreplays"
)

// longReplay is the full-length replay the long tests and benchmarks read:
// DEMBUG_LONG, or one ../shared/tools/long-replay/make.sh builds.
func longReplay(tb testing.TB) []byte {
	data, err := os.ReadFile(testreplays.Long(tb, 100))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// frozen is a decode's whole state after a command, deep-copied.
type frozen struct {
	commands int
	tick     int32
	netTick  uint32
	stats    entity.Stats
	ents     *entity.Table
	strings  stringtable.Set
	base     map[int32][]byte
}

func freeze(r *replay.Replay) frozen {
	f := frozen{commands: r.Stats.Commands, tick: r.Tick, netTick: r.NetTick, stats: r.Entities.Stats,
		ents: deepCopy(r.Entities), strings: r.Strings.Clone(), base: map[int32][]byte{}}
	for _, c := range r.Entities.Classes {
		if c != nil {
			f.base[c.ID] = r.Entities.Baseline(c.ID)
		}
	}
	return f
}

// differs describes the first difference between r and f, or returns "".
func (f frozen) differs(r *replay.Replay) string {
	switch {
	case r.Stats.Commands != f.commands:
		return fmt.Sprintf("%d commands decoded, want %d", r.Stats.Commands, f.commands)
	case r.Tick != f.tick || r.NetTick != f.netTick:
		return fmt.Sprintf("tick %d net tick %d, want %d and %d", r.Tick, r.NetTick, f.tick, f.netTick)
	case r.Entities.Stats.Updates != f.stats.Updates || r.Entities.Stats.Fields != f.stats.Fields || r.Entities.Stats.Messages != f.stats.Messages:
		return fmt.Sprintf("counts %+v, want %+v", r.Entities.Stats, f.stats)
	}
	if d := sameEntities(r.Entities, f.ents); d != "" {
		return d
	}
	if len(r.Strings.Tables) != len(f.strings.Tables) {
		return fmt.Sprintf("%d string tables, want %d", len(r.Strings.Tables), len(f.strings.Tables))
	}
	for i, t := range r.Strings.Tables {
		w := f.strings.Tables[i]
		if t.Name != w.Name || len(t.Entries) != len(w.Entries) {
			return fmt.Sprintf("string table %d: %s with %d entries, want %s with %d", i, t.Name, len(t.Entries), w.Name, len(w.Entries))
		}
		for j, e := range t.Entries {
			if e.Index != w.Entries[j].Index || e.Key != w.Entries[j].Key || !bytes.Equal(e.Value, w.Entries[j].Value) {
				return fmt.Sprintf("string table %s, entry %d differs", t.Name, j)
			}
		}
	}
	for id, b := range f.base {
		if !bytes.Equal(r.Entities.Baseline(id), b) {
			return fmt.Sprintf("baseline of class %d differs", id)
		}
	}
	return ""
}

// checkKeyframes is the keyframe property on one file: a decode resumed
// from a random keyframe at or before a random command, decoded to that
// command, has exactly the state of the decode from the start there
// (entities and every state value, string tables, baselines, ticks and
// counts). The keyframes are taken by one decode from the start, every
// interval bytes under budget (0: none; it returns what they held), and the states to compare with
// are deep copies taken by the same pass.
func checkKeyframes(t *testing.T, data []byte, interval int, budget int64, targets int, rng *rand.Rand) (held int64) {
	return checkKeyframesFilled(t, data, interval, budget, targets, rng, false)
}

// checkKeyframesFilled is checkKeyframes; with fill, the keyframes are
// taken as the debugger takes them: twice interval apart by the first
// decode, then filled in midway (Keyframes.Fill) by a second, recording
// decode, as the grading pass records.
func checkKeyframesFilled(t *testing.T, data []byte, interval int, budget int64, targets int, rng *rand.Rand, fill bool) (held int64) {
	t.Helper()
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	// Count the commands, then draw the targets.
	n := 0
	for {
		if _, err := r.Step(); err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
		n++
	}
	want := map[int]bool{}
	for range targets {
		want[rng.IntN(n)] = true
	}
	ks := &replay.Keyframes{Interval: interval, Budget: budget}
	if fill {
		ks.Interval = 2 * interval
	}
	r, _ = replay.Open(data)
	refs := map[int]frozen{}
	for i := 0; i < n; i++ {
		if _, err := r.Step(); err != nil {
			t.Fatal(err)
		}
		if want[i] {
			refs[i] = freeze(r)
		}
		ks.Observe(r)
	}
	if fill {
		before, filled := ks.Len(), 0
		r, _ = replay.Open(data)
		var rec provenance.Message
		r.Hooks.Record = func(replay.Location) *provenance.Message { return &rec }
		for i := 0; i < n; i++ {
			if _, err := r.Step(); err != nil {
				t.Fatal(err)
			}
			if ks.Fill(r) {
				filled++
			}
		}
		if filled < before/2 || ks.Len() != before+filled {
			t.Fatalf("%d keyframes, %d filled in: now %d", before, filled, ks.Len())
		}
		// Filled in, they hold about what as many keyframes taken in order
		// hold: each shares what did not change with the one before.
		ref := &replay.Keyframes{Interval: interval}
		r, _ = replay.Open(data)
		for i := 0; i < n; i++ {
			r.Step()
			ref.Observe(r)
		}
		if ks.Bytes()*int64(ref.Len()) > ref.Bytes()*int64(ks.Len())*5/4 {
			t.Fatalf("%d keyframes filled in hold %d KiB, %d taken in order %d KiB", ks.Len(), ks.Bytes()>>10, ref.Len(), ref.Bytes()>>10)
		}
		kfs := ks.List()
		for i := 1; i < len(kfs); i++ {
			if kfs[i].Offset <= kfs[i-1].Offset || kfs[i].Command <= kfs[i-1].Command {
				t.Fatalf("keyframes %d and %d out of order", i-1, i)
			}
		}
	}
	kfs := ks.List()
	switch {
	case budget == 0 && len(kfs) < 10:
		t.Fatalf("only %d keyframes", len(kfs))
	case budget > 0 && ks.Bytes() > budget && len(kfs) > 2:
		t.Fatalf("%d keyframes hold %d bytes, over the budget of %d", len(kfs), ks.Bytes(), budget)
	case budget > 0 && ks.Interval == interval:
		t.Fatalf("%d keyframes (%d bytes) within a budget of %d: the test does not thin them", len(kfs), ks.Bytes(), budget)
	}
	cmds := make([]int, 0, len(refs))
	for c := range refs {
		cmds = append(cmds, c)
	}
	slices.Sort(cmds)
	for _, c := range cmds {
		// Any keyframe whose next command is at most c+1 can reach c.
		last := 0
		for last < len(kfs) && kfs[last].Command <= c+1 {
			last++
		}
		if last == 0 {
			continue // before the first keyframe
		}
		k := kfs[rng.IntN(last)]
		if k2 := ks.Before(c + 1); k2 == nil || k2.Command > c+1 || k2 != kfs[last-1] {
			t.Fatalf("Before(%d) is not the last keyframe at or before it", c+1)
		}
		rr := k.Resume()
		for rr.Stats.Commands <= c {
			if _, err := rr.Step(); err != nil {
				t.Fatalf("resumed at command %d: %v", k.Command, err)
			}
		}
		if d := refs[c].differs(rr); d != "" {
			t.Fatalf("after command %d, resumed from the keyframe at command %d: %s", c, k.Command, d)
		}
	}
	return ks.Bytes()
}

// TestKeyframesResume holds keyframes to the decode from the start on
// every shared replay, with dense keyframes and with a budget that makes
// them thin out.
func TestKeyframesResume(t *testing.T) {
	seed := uint64(rand.Uint32())
	t.Logf("seed %d", seed)
	testreplays.EachFile(t, func(path string, data []byte) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 1))
			held := checkKeyframes(t, data, len(data)/40, 0, 24, rng)
			checkKeyframes(t, data, len(data)/40, held/3, 8, rng)
			checkKeyframesFilled(t, data, len(data)/40, 0, 16, rng, true)
		})
	})
}

// TestKeyframesResumeLong is the property on a full-length replay
// (DEMBUG_LONG), with keyframes as the debugger takes them: 2 MiB apart by
// the index pass, filled in to 1 MiB by the grading pass.
func TestKeyframesResumeLong(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	data := longReplay(t)
	seed := uint64(rand.Uint32())
	t.Logf("seed %d", seed)
	checkKeyframesFilled(t, data, 1<<20, 0, 10, rand.New(rand.NewPCG(seed, 2)), true)
}

// TestKeyframeUnchangedByResumes decodes from one keyframe twice, on two
// goroutines at once, and checks both reach the same state.
func TestKeyframeUnchangedByResumes(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	for r.Stats.Commands < 40 {
		if _, err := r.Step(); err != nil {
			t.Fatal(err)
		}
	}
	k := r.Keyframe(nil)
	ref := freeze(r)
	done := make(chan *replay.Replay, 2)
	for range 2 {
		go func() {
			rr := k.Resume()
			rr.Run(nil)
			done <- rr
		}()
	}
	a, b := <-done, <-done
	if d := sameEntities(a.Entities, b.Entities); d != "" {
		t.Fatal(d)
	}
	if d := ref.differs(k.Resume()); d != "" {
		t.Fatalf("the keyframe changed: %s", d)
	}
}

// BenchmarkSeek restores the keyframe before a random command and decodes
// to it, as the debugger seeks, on the full-length replay with keyframes
// 2 MiB apart (as the index pass leaves them; grading halves that).
func BenchmarkSeek(b *testing.B) {
	data := longReplay(b)
	ks := &replay.Keyframes{Interval: 2 << 20}
	r, err := replay.Open(data)
	if err != nil {
		b.Fatal(err)
	}
	for {
		if _, err := r.Step(); err != nil {
			break
		}
		ks.Observe(r)
	}
	n := r.Stats.Commands
	rng := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for b.Loop() {
		c := rng.IntN(n)
		k := ks.Before(c + 1)
		var rr *replay.Replay
		if k == nil {
			rr, _ = replay.Open(data)
		} else {
			rr = k.Resume()
		}
		for rr.Stats.Commands <= c {
			if _, err := rr.Step(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(ks.Len()), "keyframes")
	b.ReportMetric(float64(ks.Bytes())/(1<<20), "keyframe-MiB")
}
