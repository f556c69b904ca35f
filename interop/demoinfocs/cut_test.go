package demoinfocs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	dem "github.com/markus-wa/demoinfocs-golang/v5/pkg/demoinfocs"
	"github.com/markus-wa/demoinfocs-golang/v5/pkg/demoinfocs/events"
	st "github.com/markus-wa/demoinfocs-golang/v5/pkg/demoinfocs/sendtables"

	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/internal/testreplays"
	"github.com/dembug/dembug/interop"
)

// TestDemoinfocsReadsCutsOfTheCS2Replays: demoinfocs reads cuts of every
// shared CS2 replay (the start of the game, early on, the middle, the end)
// to their DEM_Stop and last tick, holds dembug's live entities inside the
// window and at its end, and holds there the entities and values it holds
// reading the original at the same ticks.
func TestDemoinfocsReadsCutsOfTheCS2Replays(t *testing.T) {
	for _, path := range testreplays.Files(t, "cs2") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			cases := interop.CutWindows(t, filepath.Base(path), data, interop.Windows(interop.LastTick(t, data), 100))
			ticks, spans := interop.Marks(cases)
			whole, err := readDemoinfocs(data, ticks, spans...)
			if err != nil {
				// 14155 and 14160 (build 10772): their pawns carry a
				// CUtlBinaryBlock (AnimGraph2SerializedPoseRecipeSlot_t.
				// m_topology), for which demoinfocs has no decoder: it reads
				// the byte count as a varint and not the bytes, and the
				// entity data goes astray there, original or cut.
				t.Skipf("demoinfocs cannot read the original either: it stops at tick %d: %v", whole.tick, firstLine(err))
			}
			for _, c := range cases {
				checkCut(t, c, whole)
			}
		})
	}
}

// checkCut reads one cut with demoinfocs and holds it to dembug's counts
// and to demoinfocs' reading of the original.
func checkCut(t *testing.T, c interop.CutCase, whole *infocsRun) {
	t.Helper()
	res := c.Result
	label := fmt.Sprintf("%s (ticks %d…%d, %d KB)", c.Name, res.First, res.Last, len(res.Data)>>10)
	run, err := readDemoinfocs(res.Data, c.Ticks, [2]int32{res.First, res.Last})
	if err != nil {
		t.Errorf("%s: demoinfocs stops at tick %d: %v", label, run.tick, err)
		return
	}
	if !run.stopped || run.tick != res.Last {
		t.Errorf("%s: demoinfocs ends at tick %d (DEM_Stop read: %v); dembug at %d", label, run.tick, run.stopped, res.Last)
	}
	var got, want []int32
	for idx := range run.end {
		got = append(got, idx)
	}
	for idx := range c.Read.Live {
		want = append(want, idx)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(c.Read.Listed) != 0 {
		t.Errorf("%s: demoinfocs holds %d entities at the end, dembug %d (deletion lists: %v)", label, len(got), len(c.Read.Live), c.Read.Listed)
	}
	// Every create and delete in the window is the one demoinfocs reads
	// from the original.
	wantOps := interop.InWindow(c, whole.ops, func(o interop.Op) int32 { return o.Tick })
	if !slices.Equal(run.ops, wantOps) {
		t.Errorf("%s: creates and deletes in the window differ:\ncut      %v\noriginal %v", label, run.ops, wantOps)
	}
	counts, values := c.CheckTicks(t, label, "demoinfocs", whole.snaps, run.snaps, true)
	t.Logf("%s: demoinfocs reads it to DEM_Stop at tick %d, with dembug's live entities at ticks %v: %v, and %d at the end; %d values there and %d creates and deletes equal its reading of the original",
		label, run.tick, c.Ticks, counts, len(got), values, len(wantOps))
}

// infocsRun is what demoinfocs read of one replay.
type infocsRun struct {
	tick    int32 // the demo tick it ended at
	stopped bool  // it ended at DEM_Stop
	// snaps are its entities after the last command at each tick asked
	// for, end after the last command.
	snaps map[int32]interop.Snapshot
	end   interop.Snapshot
	ops   []interop.Op // creates and deletes inside the windows asked for
}

// readDemoinfocs reads data to its end with demoinfocs, taking its
// entities after the commands at each of the ticks, and its creates and
// deletes inside the windows (first and last tick).
func readDemoinfocs(data []byte, ticks []int32, windows ...[2]int32) (run *infocsRun, err error) {
	run = &infocsRun{snaps: map[int32]interop.Snapshot{}}
	p := dem.NewParserWithConfig(bytes.NewReader(data), dem.ParserConfig{})
	defer p.Close()
	// IngameTick is the demo command's tick.
	tick := func() int32 { return int32(p.GameState().IngameTick()) }
	op := func(idx int, o provenance.Op) {
		for _, w := range windows {
			if tick() >= w[0] && tick() <= w[1] {
				run.ops = append(run.ops, interop.Op{Tick: tick(), Index: int32(idx), Op: o})
				return
			}
		}
	}
	p.RegisterEventHandler(func(events.DataTablesParsed) {
		for _, sc := range p.ServerClasses().All() {
			sc.OnEntityCreated(func(e st.Entity) {
				op(e.ID(), provenance.Create)
				e.OnDestroy(func() { op(e.ID(), provenance.Delete) })
			})
		}
	})
	p.RegisterEventHandler(func(events.FrameDone) {
		if slices.Contains(ticks, tick()) {
			run.snaps[tick()] = snapshot(p)
		}
	})
	err = p.ParseToEnd()
	// It returns without error only where DEM_Stop ends the frames (the
	// data's end before it is ErrUnexpectedEndOfDemo).
	run.tick, run.stopped, run.end = tick(), err == nil, snapshot(p)
	return run, err
}

func snapshot(p dem.Parser) interop.Snapshot {
	out := interop.Snapshot{}
	for idx, e := range p.GameState().Entities() {
		if e == nil {
			continue
		}
		vals := map[string]any{}
		for _, prop := range e.Properties() {
			// A nil property is a path whose cached name a polymorphic
			// switch made stale (see TestDemoinfocsReadsTheCS2Sample).
			if prop != nil {
				vals[prop.Name()] = prop.Value().Any
			}
		}
		out[int32(idx)] = interop.SnapEntity{Class: e.ServerClass().Name(), Serial: uint32(e.SerialNum()), Values: vals}
	}
	return out
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
