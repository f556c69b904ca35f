package manta

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dotabuff/manta"
	"github.com/dotabuff/manta/dota"

	"github.com/dembug/dembug/internal/testreplays"
	"github.com/dembug/dembug/interop"
)

// TestMantaReadsCutsOfTheDotaReplays: Manta reads cuts of the shared Dota
// replays (the start of the game, early on, the middle, the end) to their
// DEM_Stop and last tick, holds dembug's live entities inside the window
// and at its end, and holds there the entities and values it holds
// reading the original at the same ticks.
func TestMantaReadsCutsOfTheDotaReplays(t *testing.T) {
	for _, path := range testreplays.Files(t, "dota2") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkCuts(t, filepath.Base(path), data, interop.Windows(interop.LastTick(t, data), 100))
		})
	}
}

// TestMantaReadsCutsOfTheLongReplay: the same for 300-tick windows of the
// ~100 MB replay.
func TestMantaReadsCutsOfTheLongReplay(t *testing.T) {
	data := interop.LongReplay(t)
	checkCuts(t, "the 100 MB replay", data, interop.Windows(interop.LastTick(t, data), 300))
}

func checkCuts(t *testing.T, name string, data []byte, windows []interop.Window) {
	cases := interop.CutWindows(t, name, data, windows)
	ticks, spans := interop.Marks(cases)
	whole, err := readManta(t, data, ticks, spans...)
	if err != nil {
		t.Fatalf("Manta stops reading the original at tick %d: %v", whole.p.Tick, err)
	}
	for _, c := range cases {
		checkCut(t, c, whole)
	}
}

// checkCut reads one cut with Manta and holds it to dembug's counts and to
// Manta's reading of the original.
func checkCut(t *testing.T, c interop.CutCase, whole *mantaRun) {
	t.Helper()
	res := c.Result
	label := fmt.Sprintf("%s (ticks %d…%d, %d KB)", c.Name, res.First, res.Last, len(res.Data)>>10)
	run, err := readManta(t, res.Data, c.Ticks, [2]int32{res.First, res.Last})
	if err != nil {
		t.Errorf("%s: Manta stops at tick %d: %v", label, run.p.Tick, err)
		return
	}
	p := run.p
	if !run.stopped || int32(p.Tick) != res.Last || p.NetTick != c.Read.NetTick {
		t.Errorf("%s: Manta ends at tick %d (net tick %d, DEM_Stop read: %v); dembug at %d (%d)", label, p.Tick, p.NetTick, run.stopped, res.Last, c.Read.NetTick)
	}
	// Manta reads no deletion list: what dembug's lists removed stays in
	// its table.
	var got, want []int32
	for _, e := range live(p) {
		got = append(got, e.GetIndex())
	}
	for idx := range c.Read.Live {
		want = append(want, idx)
	}
	want = append(want, c.Read.Listed...)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: Manta holds %d entities at the end, dembug %d (and %d removed by deletion lists)", label, len(got), len(c.Read.Live), len(c.Read.Listed))
	}
	// Every entity operation in the window, flags and all (entered, left,
	// …), is the one Manta reads from the original: the full frame left it
	// the same table, active flags too.
	wantOps := interop.InWindow(c, whole.ops, func(o entityOp) int32 { return o.tick })
	if !slices.Equal(run.ops, wantOps) {
		for i := range min(len(run.ops), len(wantOps)) {
			if run.ops[i] != wantOps[i] {
				t.Errorf("%s: entity operation %d: cut %v, original %v", label, i, run.ops[i], wantOps[i])
				break
			}
		}
		t.Errorf("%s: %d entity operations in the cut's window, %d in the original's", label, len(run.ops), len(wantOps))
	}
	// The string tables as they stand at the end: every entry's key is
	// dembug's (Manta gives keys, not values, by index).
	keys := 0
	for name, entries := range interop.StringKeys(t, res.Data) {
		for idx, want := range entries {
			if got, ok := p.LookupStringByIndex(name, idx); !ok || got != want {
				t.Errorf("%s: string table %s entry %d: Manta %q (%v), dembug %q", label, name, idx, got, ok, want)
			}
			keys++
		}
	}
	// (Where a deletion list removed entities, Manta holds those too: the
	// end's check above accounts for them, and the counts are not held.)
	counts, values := c.CheckTicks(t, label, "Manta", whole.snaps, run.snaps, len(c.Read.Listed) == 0)
	t.Logf("%s: Manta reads it to DEM_Stop at tick %d, with dembug's live entities at ticks %v: %v, and %d at the end; %d values there and %d entity operations equal its reading of the original; %d string-table keys equal dembug's",
		label, p.Tick, c.Ticks, counts, len(got), values, len(wantOps), keys)
}

// mantaRun is what Manta read of one replay.
type mantaRun struct {
	p       *manta.Parser
	stopped bool // it read DEM_Stop
	// snaps are its entities after the last packet-entities message at
	// each tick asked for.
	snaps map[int32]interop.Snapshot
	ops   []entityOp // inside the windows asked for
}

type entityOp struct {
	tick, index int32
	op          manta.EntityOp
}

func (o entityOp) String() string { return fmt.Sprintf("tick %d entity %d %s", o.tick, o.index, o.op) }

// readManta reads data to its end with Manta, taking its entities after
// the packet-entities messages at each of the ticks, and its entity
// operations inside the windows (first and last tick). The game directory
// names the build as Manta needs (withServerGameDir).
func readManta(t testing.TB, data []byte, ticks []int32, windows ...[2]int32) (*mantaRun, error) {
	p, err := manta.NewParser(withServerGameDir(t, data))
	if err != nil {
		t.Fatal(err)
	}
	run := &mantaRun{p: p, snaps: map[int32]interop.Snapshot{}}
	// Only packet-entities messages change the table, and this handler
	// runs after Manta's own.
	p.Callbacks.OnCSVCMsg_PacketEntities(func(*dota.CSVCMsg_PacketEntities) error {
		if slices.Contains(ticks, int32(p.Tick)) {
			run.snaps[int32(p.Tick)] = snapshot(p)
		}
		return nil
	})
	p.OnEntity(func(e *manta.Entity, op manta.EntityOp) error {
		tick := int32(p.Tick)
		for _, w := range windows {
			if tick >= w[0] && tick <= w[1] {
				run.ops = append(run.ops, entityOp{tick, e.GetIndex(), op})
				break
			}
		}
		return nil
	})
	p.Callbacks.OnCDemoStop(func(*dota.CDemoStop) error {
		run.stopped = true
		return nil
	})
	return run, p.Start()
}

func live(p *manta.Parser) []*manta.Entity {
	return p.FilterEntity(func(e *manta.Entity) bool { return e != nil })
}

func snapshot(p *manta.Parser) interop.Snapshot {
	out := interop.Snapshot{}
	for _, e := range live(p) {
		out[e.GetIndex()] = interop.SnapEntity{Class: e.GetClassName(), Serial: uint32(e.GetSerial()), Values: e.Map()}
	}
	return out
}
