package replay_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

// TestRepeatedPathsDecodeAsFresh holds the entity update memo (paths that
// repeat an entity's previous update are not decoded again) to the fresh
// decode. Recording bypasses the memo, so every shared replay is decoded
// both ways: each packet-entities message must read the same bits and
// fields, the decoder calls must agree, and every entity must end with the
// same state. A snapshot taken halfway must not change while the decode
// goes on past it, as the memo holds state nodes the snapshot shares.
func TestRepeatedPathsDecodeAsFresh(t *testing.T) {
	dir := testreplays.Require(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.dem"))
	if len(files) == 0 {
		t.Skipf("no replays (*/*.dem) in %s", dir)
	}
	sort.Strings(files)
	for _, path := range files {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fresh, freshResults, commands := decodeForMemo(t, data, true, -1)
			memo, memoResults, _ := decodeForMemo(t, data, false, commands/2)
			if len(memoResults) != len(freshResults) {
				t.Fatalf("%d packet-entities messages with the memo, %d without", len(memoResults), len(freshResults))
			}
			for i := range freshResults {
				if memoResults[i] != freshResults[i] {
					t.Fatalf("message %d: %s with the memo, %s without", i, memoResults[i], freshResults[i])
				}
			}
			if memo.table.Stats.Calls != fresh.table.Stats.Calls {
				t.Errorf("decoder calls differ: %v with the memo, %v without", memo.table.Stats.Calls, fresh.table.Stats.Calls)
			}
			if d := sameEntities(memo.table, fresh.table); d != "" {
				t.Errorf("final state: %s", d)
			}
			if d := sameEntities(memo.halfway, memo.frozen); d != "" {
				t.Errorf("the halfway snapshot changed as the decode went on: %s", d)
			}
		})
	}
}

type memoRun struct {
	table   *entity.Table
	halfway *entity.Table // snapshot taken after half the commands
	frozen  *entity.Table // deep copy of it, made at the time
}

// decodeForMemo decodes data whole, recording every message when record is
// set, and snapshots the entities after snapAt commands (none if negative).
// It returns one summary per packet-entities message and the command count.
func decodeForMemo(t *testing.T, data []byte, record bool, snapAt int) (memoRun, []string, int) {
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	var rec provenance.Message
	if record {
		r.Hooks.Record = func(replay.Location) *provenance.Message { return &rec }
	}
	var results []string
	var run memoRun
	r.Hooks.Entities = func(_ replay.Location, _ *messages.PacketEntities, res entity.Result, _ *provenance.Message) {
		results = append(results, fmt.Sprintf("%d updates, %d fields, end bit %d, misaligned %v, error %v",
			res.Updates, res.Fields, res.EndBit, res.Misaligned, res.Err))
	}
	commands := 0
	err = r.Run(func(*container.Command) bool {
		if commands == snapAt {
			run.halfway = r.Entities.Snapshot()
			run.frozen = deepCopy(run.halfway)
		}
		commands++
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	if snapAt >= 0 && run.halfway == nil {
		t.Fatalf("the replay has %d commands; no snapshot after %d", commands, snapAt)
	}
	run.table = r.Entities
	return run, results, commands
}

// deepCopy copies every entity and state node of t.
func deepCopy(t *entity.Table) *entity.Table {
	c := &entity.Table{}
	for i, e := range t.Entities {
		if e != nil {
			c.Entities[i] = &entity.Entity{Index: e.Index, Serial: e.Serial, Class: e.Class, State: e.State.Clone(), Active: e.Active}
		}
	}
	return c
}

// sameEntities describes the first difference between two tables'
// entities, or returns "".
func sameEntities(a, b *entity.Table) string {
	for i := range a.Entities {
		ea, eb := a.Entities[i], b.Entities[i]
		switch {
		case (ea == nil) != (eb == nil):
			return fmt.Sprintf("entity %d exists on one side only", i)
		case ea == nil:
			continue
		case ea.Serial != eb.Serial || ea.Class.Name != eb.Class.Name || ea.Active != eb.Active:
			return fmt.Sprintf("entity %d: serial, class or activity differ", i)
		}
		if d := sameNode(ea.State, eb.State); d != "" {
			return fmt.Sprintf("entity %d (%s): %s", i, ea.Class.Name, d)
		}
	}
	return ""
}

func sameNode(a, b *entity.Node) string {
	if a == nil || b == nil {
		if a != b {
			return "a node exists on one side only"
		}
		return ""
	}
	if len(a.Vals) != len(b.Vals) || len(a.Kids) != len(b.Kids) {
		return fmt.Sprintf("%d values and %d children against %d and %d", len(a.Vals), len(a.Kids), len(b.Vals), len(b.Kids))
	}
	for i := range a.Vals {
		if !sameValue(a.Vals[i], b.Vals[i]) {
			return fmt.Sprintf("slot %d: %v against %v", i, a.Vals[i], b.Vals[i])
		}
	}
	for i := range a.Kids {
		if d := sameNode(a.Kids[i], b.Kids[i]); d != "" {
			return fmt.Sprintf("below slot %d: %s", i, d)
		}
	}
	return ""
}

// sameValue compares bit for bit, so that equal NaNs are equal.
func sameValue(a, b decoder.Value) bool {
	if a.Kind != b.Kind || a.N != b.N || a.U != b.U {
		return false
	}
	for i := range a.F {
		if math.Float64bits(a.F[i]) != math.Float64bits(b.F[i]) {
			return false
		}
	}
	return true
}
