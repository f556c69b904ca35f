package replay_test

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// gameFolders maps each replay folder to the game its files must be
// detected as.
var gameFolders = map[string]game.Game{
	"dota2":    game.Dota2,
	"cs2":      game.CS2,
	"deadlock": game.Deadlock,
}

// TestGameReplays decodes every shared replay to its last command and
// requires zero misaligned packet-entities messages, the right game, and
// values that make sense for that game.
func TestGameReplays(t *testing.T) {
	// DEMBUG_REPLAYS, else shared/replays found walking up from here
	// (../../../shared/replays); skips with a clear message when absent.
	dir := testreplays.Require(t)
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.dem"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skipf("no replays (*/*.dem) in %s", dir)
	}
	sort.Strings(files)
	seen := map[game.Game]bool{}
	for _, path := range files {
		folder := filepath.Base(filepath.Dir(path))
		name := folder + "/" + filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			r := decodeWhole(t, path)
			want, known := gameFolders[folder]
			if !known {
				t.Logf("folder %q is not a known game; detected %s", folder, r.Game)
				return
			}
			if r.Game != want {
				t.Fatalf("detected game %s, want %s", r.Game, want)
			}
			seen[want] = true
			checkSimulationTime(t, r)
			// A correct decode ends every baseline in its last byte: the
			// inference counts on it as evidence.
			if n := r.Entities.Stats.BaselinesMisaligned; n != 0 {
				t.Errorf("%d baselines did not decode to their last byte", n)
			}
			switch want {
			case game.CS2:
				checkCS2(t, r)
			case game.Deadlock:
				checkDeadlock(t, r)
			case game.Dota2:
				checkDota2(t, r)
			}
		})
	}
	for folder, g := range gameFolders {
		if !seen[g] {
			t.Logf("no %s replays in %s", g, filepath.Join(dir, folder))
		}
	}
}

// decodeWhole runs a replay from its first command to DEM_Stop and checks
// that every packet-entities message was consumed exactly.
func decodeWhole(t *testing.T, path string) *replay.Replay {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Open(data)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	sawStop := false
	r.Hooks.Command = func(c *container.Command) { sawStop = sawStop || c.Kind == container.Stop }
	if err := r.Run(nil); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !r.Done {
		t.Fatalf("stopped before the end, at byte %d of %d", r.Pos(), len(data))
	}
	if !sawStop {
		t.Errorf("no DEM_Stop command")
	}
	if r.Stats.PacketEntities == 0 {
		t.Fatalf("no packet-entities messages decoded in %d commands", r.Stats.Commands)
	}
	if r.Stats.Misaligned != 0 {
		t.Fatalf("%d of %d packet-entities messages misaligned; first: %v", r.Stats.Misaligned, r.Stats.PacketEntities, r.FirstMisaligned)
	}
	t.Logf("%s, %d commands, last tick %d, %d packet-entities messages, %d fields, 0 misaligned",
		r.Game, r.Stats.Commands, r.Stats.LastTick, r.Stats.PacketEntities, r.Entities.Stats.Fields)
	return r
}

// lookup finds a value by its dotted name below an entity, following
// pointers (and polymorphic pointers) into nested serializers:
// "m_iHealth", "CBodyComponent.m_cellX".
func lookup(e *entity.Entity, name string) (decoder.Value, bool) {
	ser, node := e.Class.Serializer, e.State
	parts := strings.Split(name, ".")
	for i, part := range parts {
		idx := -1
		for j, f := range ser.Fields {
			if f.Name == part {
				idx = j
				break
			}
		}
		if idx < 0 {
			return decoder.Value{}, false
		}
		f := ser.Fields[idx]
		if i == len(parts)-1 {
			v := node.Get(idx)
			return v, v.Kind != decoder.KindNone
		}
		if f.Model != schema.FixedTable {
			return decoder.Value{}, false
		}
		next := f.Serializer
		if len(f.Polymorphic) > 0 {
			if pi := node.Get(idx).Int64(); pi > 0 && pi < int64(len(f.Polymorphic)) {
				next = f.Polymorphic[pi]
			}
		}
		ser, node = next, node.Kid(idx)
		if node == nil {
			return decoder.Value{}, false
		}
	}
	return decoder.Value{}, false
}

// number reads an integer or float value as a float64.
func number(v decoder.Value) float64 {
	switch v.Kind {
	case decoder.KindInt:
		return float64(v.Int64())
	case decoder.KindUint, decoder.KindHandle, decoder.KindBool:
		return float64(v.U)
	}
	return v.Float64()
}

// entitiesOf returns the live entities whose class name passes match.
func entitiesOf(r *replay.Replay, match func(class string) bool) []*entity.Entity {
	var out []*entity.Entity
	for _, e := range r.Entities.Entities {
		if e != nil && e.Class != nil && e.Class.Serializer != nil && match(e.Class.Name) {
			out = append(out, e)
		}
	}
	return out
}

func className(name string) func(string) bool {
	return func(c string) bool { return c == name }
}

// readable reports whether a networked name is text a person could read:
// valid UTF-8 without control characters.
func readable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, c := range s {
		if unicode.IsControl(c) {
			return false
		}
	}
	return true
}

// checkPlayerNames requires readable m_iszPlayerName values on the
// player controllers, at least one of them non-empty.
func checkPlayerNames(t *testing.T, r *replay.Replay, controller string) {
	t.Helper()
	var names []string
	for _, e := range entitiesOf(r, className(controller)) {
		v, ok := lookup(e, "m_iszPlayerName")
		if !ok {
			continue
		}
		s := v.Str()
		if !readable(s) {
			t.Errorf("%s #%d: m_iszPlayerName %q is not readable text", controller, e.Index, s)
		}
		if s != "" {
			names = append(names, s)
		}
	}
	if len(names) == 0 {
		t.Fatalf("no %s has a player name", controller)
	}
	t.Logf("player names: %s", strings.Join(names, ", "))
}

// checkSimulationTime checks the tick interval the schema chose for the
// game's simulation times (varint tick counts scaled to seconds). The newest
// m_flSimulationTime of any entity must fall inside the recording, between
// the server tick the replay started at and the last one, at the server's
// own tick interval. An interval that is too long puts it after the end
// (Deadlock at 1/60 instead of 1/64 reads 19.45 s at 18.23 s); one that is
// too short puts it before the start.
func checkSimulationTime(t *testing.T, r *replay.Replay) {
	t.Helper()
	newest := 0.0
	for _, e := range entitiesOf(r, func(string) bool { return true }) {
		if v, ok := lookup(e, "m_flSimulationTime"); ok && v.Kind == decoder.KindFloat {
			newest = max(newest, v.Float64())
		}
	}
	ti := float64(r.Server.TickInterval)
	if newest == 0 || ti == 0 || r.NetTick == 0 {
		t.Fatalf("cannot compare simulation time %g with tick %d at interval %g", newest, r.NetTick, ti)
	}
	const slack = 2 // ticks
	first := float64(r.NetTick) - float64(r.Stats.LastTick) - slack
	last := float64(r.NetTick) + slack
	if ticks := newest / ti; ticks < first || ticks > last {
		t.Errorf("newest m_flSimulationTime %g s is tick %.2f at the server's %g s interval; the replay covers ticks %g..%g",
			newest, ticks, ti, first+slack, last-slack)
	}
}

func checkCS2(t *testing.T, r *replay.Replay) {
	pawns := entitiesOf(r, className("CCSPlayerPawn"))
	withHealth := 0
	for _, p := range pawns {
		if v, ok := lookup(p, "m_iHealth"); ok {
			withHealth++
			if h := number(v); h < 0 || h > 100 {
				t.Errorf("CCSPlayerPawn #%d: m_iHealth %g outside 0..100", p.Index, h)
			}
		}
		// Position: a 512-unit cell plus an offset, relative to the map
		// centre, must lie inside the ±16384-unit world.
		var pos [3]float64
		for i, axis := range []string{"X", "Y", "Z"} {
			cell, ok1 := lookup(p, "CBodyComponent.m_cell"+axis)
			off, ok2 := lookup(p, "CBodyComponent.m_vec"+axis)
			if !ok1 || !ok2 {
				t.Fatalf("CCSPlayerPawn #%d has no CBodyComponent.m_cell%s/m_vec%s", p.Index, axis, axis)
			}
			pos[i] = number(cell)*512 - 16384 + off.Float64()
			if math.IsNaN(pos[i]) || math.Abs(pos[i]) > 16384 {
				t.Errorf("CCSPlayerPawn #%d: %s position %g outside the map", p.Index, axis, pos[i])
			}
		}
		// Aim punch is a kick of a few degrees, sent as raw floats.
		if v, ok := lookup(p, "m_aimPunchAngle"); ok {
			for _, c := range v.Components() {
				if math.IsNaN(c) || math.Abs(c) > 90 {
					t.Errorf("CCSPlayerPawn #%d: m_aimPunchAngle %s is not a small angle", p.Index, v)
				}
			}
		}
	}
	if withHealth == 0 {
		t.Fatalf("none of %d CCSPlayerPawn entities has m_iHealth", len(pawns))
	}
	checkPlayerNames(t, r, "CCSPlayerController")
}

func checkDeadlock(t *testing.T, r *replay.Replay) {
	checkPlayerNames(t, r, "CCitadelPlayerController")
	// NPCs, buildings and heroes: health between 0 and the maximum.
	n := 0
	for _, e := range entitiesOf(r, func(string) bool { return true }) {
		hv, ok1 := lookup(e, "m_iHealth")
		mv, ok2 := lookup(e, "m_iMaxHealth")
		if !ok1 || !ok2 {
			continue
		}
		n++
		if h, m := number(hv), number(mv); h < 0 || h > m || m > 1e6 {
			t.Errorf("%s #%d: m_iHealth %g with m_iMaxHealth %g", e.Class.Name, e.Index, h, m)
		}
	}
	if n == 0 {
		t.Fatal("no entity has both m_iHealth and m_iMaxHealth")
	}
}

func checkDota2(t *testing.T, r *replay.Replay) {
	checkPlayerNames(t, r, "CDOTAPlayerController")
	heroes := entitiesOf(r, func(c string) bool { return strings.HasPrefix(c, "CDOTA_Unit_Hero_") })
	if len(heroes) == 0 {
		t.Fatal("no hero entities")
	}
	for _, h := range heroes {
		hv, ok1 := lookup(h, "m_iHealth")
		mv, ok2 := lookup(h, "m_iMaxHealth")
		if !ok1 || !ok2 {
			t.Errorf("%s #%d has no m_iHealth/m_iMaxHealth", h.Class.Name, h.Index)
			continue
		}
		if hp, m := number(hv), number(mv); hp < 0 || hp > m || m > 1e5 {
			t.Errorf("%s #%d: m_iHealth %g with m_iMaxHealth %g", h.Class.Name, h.Index, hp, m)
		}
		// Position: a 128-unit cell plus an offset inside it.
		for _, axis := range []string{"X", "Y"} {
			cell, ok1 := lookup(h, "CBodyComponent.m_cell"+axis)
			off, ok2 := lookup(h, "CBodyComponent.m_vec"+axis)
			if !ok1 || !ok2 {
				t.Fatalf("%s #%d has no CBodyComponent.m_cell%s/m_vec%s", h.Class.Name, h.Index, axis, axis)
			}
			if o := off.Float64(); o < 0 || o > 256 {
				t.Errorf("%s #%d: m_vec%s offset %g outside its cell", h.Class.Name, h.Index, axis, o)
			}
			if p := number(cell)*128 + off.Float64(); p < 0 || p > 32768 {
				t.Errorf("%s #%d: %s position %g outside the map", h.Class.Name, h.Index, axis, p)
			}
		}
	}
}
