package cut_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/cut"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/stringtable"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/mapfile"
	"github.com/dembug/dembug/internal/testreplays"
)

// dump spells every live entity of a table: index, serial, class, view
// and every value entity.Walk shows (floats by their bits), what
// `dembug entities` prints and a little more.
func dump(t *entity.Table) string {
	var b strings.Builder
	for _, e := range t.Entities {
		if e == nil || e.Class == nil {
			continue
		}
		fmt.Fprintf(&b, "%d %d %s %v:", e.Index, e.Serial, e.Class.Name, e.Active)
		entity.Walk(e.Class.Serializer, e.State, func(name string, _ *schema.Field, v decoder.Value) {
			fmt.Fprintf(&b, " %s=%d/%d/%x/%x/%x", name, v.Kind, v.U, v.F[0], v.F[1], v.F[2])
		})
		b.WriteByte('\n')
	}
	return b.String()
}

// tables spells every string-table entry.
func tables(s *stringtable.Set) string {
	var b strings.Builder
	for _, t := range s.Tables {
		t.Each(func(e stringtable.Entry) {
			fmt.Fprintf(&b, "%s %d %q %x %v\n", t.Name, e.Index, e.Key, e.Value, e.Value == nil)
		})
	}
	return b.String()
}

// statesAt decodes data once and spells its entities after every command
// at or before each tick (as `entities --tick` does: the bound applies
// from the game's first command on).
func statesAt(tb testing.TB, data []byte, ticks []int32) map[int32]string {
	tb.Helper()
	ticks = slices.Clone(ticks)
	slices.Sort(ticks)
	r, err := replay.Open(data)
	if err != nil {
		tb.Fatal(err)
	}
	out := map[int32]string{}
	inGame := false
	for len(ticks) > 0 {
		next, ok := r.NextTick()
		for len(ticks) > 0 && inGame && (!ok || next > ticks[0]) {
			out[ticks[0]] = dump(r.Entities) + tables(&r.Strings)
			ticks = ticks[1:]
		}
		if len(ticks) == 0 {
			break
		}
		c, err := r.Step()
		if err == io.EOF {
			for _, t := range ticks {
				out[t] = dump(r.Entities) + tables(&r.Strings)
			}
			break
		}
		if err != nil {
			tb.Fatalf("decoding: %v", err)
		}
		inGame = inGame || c.Kind == container.SyncTick || c.Kind == container.Packet || c.Kind == container.FullPacket
	}
	return out
}

// lastTick is the tick of a file's last command.
func lastTick(tb testing.TB, data []byte) int32 {
	r, err := replay.Open(data)
	if err != nil {
		tb.Fatal(err)
	}
	if err := r.Run(nil); err != nil {
		tb.Fatal(err)
	}
	return r.Stats.LastTick
}

// checkWindow cuts [from, to] and holds the cut's entities and string
// tables to the original's at the window's first tick, a middle one and
// its last, and requires the cut to decode without misalignment.
func checkWindow(t *testing.T, data []byte, from, to int32) *cut.Result {
	t.Helper()
	res, err := cut.Cut(data, cut.Options{From: from, To: to})
	if err != nil {
		t.Fatalf("cut %d–%d: %v", from, to, err)
	}
	notes := slices.DeleteFunc(slices.Clone(res.Notes), func(n string) bool {
		return res.Capture && strings.Contains(n, "DEM_SpawnGroups commands of the broadcast capture")
	})
	if res.Stopped != nil || res.Ended != nil || len(notes) > 0 {
		t.Fatalf("cut %d–%d: stopped %v, ended %v, notes %q", from, to, res.Stopped, res.Ended, res.Notes)
	}
	r, err := replay.Open(res.Data)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(nil); err != nil {
		t.Fatalf("cut %d–%d does not decode: %v", from, to, err)
	}
	if r.Stats.Misaligned != 0 || !r.Done {
		t.Fatalf("cut %d–%d: %d misaligned", from, to, r.Stats.Misaligned)
	}
	ticks := []int32{res.First, (res.First + res.Last) / 2, res.Last}
	want, got := statesAt(t, data, ticks), statesAt(t, res.Data, ticks)
	if want[ticks[0]]+want[ticks[1]]+want[ticks[2]] == "" {
		t.Fatalf("cut %d–%d: no entities in the original at ticks %v", from, to, ticks)
	}
	for _, tick := range ticks {
		if got[tick] != want[tick] {
			t.Fatalf("cut %d–%d: entities at tick %d differ from the original's:\n%s", from, to, tick, firstDiff(want[tick], got[tick]))
		}
	}
	return res
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("original: %.300s\ncut:      %.300s", w[i], g[i])
		}
	}
	return fmt.Sprintf("%d lines against %d", len(w), len(g))
}

// Every shared replay, cut at its start, middle and end, gives the
// original's entities at ticks of each window.
func TestCutSharedReplays(t *testing.T) {
	for _, g := range testreplays.Games {
		for _, path := range testreplays.Files(t, g) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			last := lastTick(t, data)
			t.Run(g+"/"+path[strings.LastIndexByte(path, '/')+1:], func(t *testing.T) {
				checkWindow(t, data, 0, last/5)
				res := checkWindow(t, data, last/2, last/2+last/6)
				if res.StateTick < 0 || res.Entities == 0 {
					t.Errorf("a window mid-game starts with %d entities at tick %d", res.Entities, res.StateTick)
				}
				checkWindow(t, data, last-last/8, -1)
			})
		}
	}
}

// A broadcast capture (no file header, packets not wrapped, no
// DEM_SyncTick) cuts into a .dem that holds its entities.
func TestCutCapture(t *testing.T) {
	dir := filepath.Join(testreplays.Require(t), "deadlock", "broadcast-2025-02-27")
	data, err := mapfile.ReadFile(dir)
	if err != nil {
		t.Skipf("no capture: %v", err)
	}
	last := lastTick(t, data)
	res := checkWindow(t, data, last-700, last-400)
	if !res.Capture || !strings.HasPrefix(string(res.Data), container.Magic) {
		t.Fatalf("a capture's cut: capture %v, starts %q", res.Capture, res.Data[:8])
	}
	checkWindow(t, data, 0, -1)
}

// The built-in samples hold every decoder family their game uses: a cut
// at each of their ticks writes every kind of value back exactly (Cut
// itself requires the frame to decode to the original's values by bits).
func TestCutSamples(t *testing.T) {
	for name, data := range map[string][]byte{"dota2": writer.Generate(), "cs2": writer.GenerateCS2()} {
		last := lastTick(t, data)
		for from := int32(1); from <= last; from++ {
			res, err := cut.Cut(data, cut.Options{From: from, To: -1})
			if err != nil {
				t.Fatalf("%s from %d: %v", name, from, err)
			}
			if len(res.Notes) > 0 || res.Stopped != nil {
				t.Fatalf("%s from %d: notes %q, stopped %v", name, from, res.Notes, res.Stopped)
			}
		}
	}
}

// Windows of the full-length replay, at its start, middle and end, keep
// the original's entities and stay small.
func TestCutLongReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no full-length replay")
	}
	data, err := os.ReadFile(testreplays.Long(t, 100))
	if err != nil {
		t.Fatal(err)
	}
	last := lastTick(t, data)
	for _, from := range []int32{1000, last / 2, last - 400} {
		res := checkWindow(t, data, from, from+300)
		if len(res.Data) >= 3<<20 {
			t.Errorf("a 300-tick window from %d is %d bytes", from, len(res.Data))
		}
	}
}

func TestCutRefuses(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	last := lastTick(t, data)
	for _, c := range []struct {
		name     string
		data     []byte
		from, to int32
		want     string
	}{
		{"past the end", data, last + 1, -1, "past the file's end"},
		{"to before from", data, 400, 300, "before --from"},
		{"negative", data, -5, -1, "ticks start at 0"},
		{"no command in the window", data, 401, 401, "no command has a tick"},
		{"not a demo", []byte("not a demo file at all"), 0, -1, ""},
		{"signon only", data[:len(data)/50], 100, -1, "truncated"},
	} {
		res, err := cut.Cut(c.data, cut.Options{From: c.from, To: c.to})
		if err == nil {
			t.Errorf("%s: cut %d–%d gave %d bytes, no error", c.name, c.from, c.to, len(res.Data))
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want it to say %q", c.name, err, c.want)
		}
	}
}

// misalignAt appends two zero bytes to the entity data of the packet at
// tick: its decode ends before the data does (misaligned).
func misalignAt(t *testing.T, data []byte, tick int32) []byte {
	t.Helper()
	done := false
	out, err := writer.RewriteCommands(data, func(c container.Command) []writer.Command {
		same := []writer.Command{{Kind: c.Kind, Tick: c.Tick, Body: c.Body, Compressed: c.Compressed}}
		if done || c.Kind != container.Packet || c.Tick != tick {
			return same
		}
		pd, err := messages.PacketData(c.Body)
		if err != nil {
			t.Fatal(err)
		}
		split, _, err := messages.SplitInner(pd, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var msgs []writer.Inner
		for _, m := range split {
			body := slices.Clone(m.Body)
			if m.Type == messages.SvcPacketEntities {
				pe, err := messages.ParsePacketEntities(body)
				if err != nil {
					t.Fatal(err)
				}
				pe.EntityData = append(slices.Clone(pe.EntityData), 0, 0)
				body = writer.PacketEntitiesBody(pe)
				done = true
			}
			msgs = append(msgs, writer.Inner{Type: m.Type, Body: body})
		}
		return []writer.Command{{Kind: c.Kind, Tick: c.Tick, Body: writer.PacketBody(writer.Packet(msgs...)), Compressed: c.Compressed}}
	})
	if err != nil || !done {
		t.Fatalf("no packet entities at tick %d to misalign (%v)", tick, err)
	}
	return out
}

// A window that misaligns is cut up to and with the command that holds
// the first misaligned message, which the cut reproduces; one that
// misaligns before the window cannot be cut (its state is unknown).
func TestCutMisaligned(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	bad := misalignAt(t, data, 450)
	res, err := cut.Cut(bad, cut.Options{From: 400, To: 500})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped == nil || res.Stopped.Loc.Tick != 450 || res.Last != 450 {
		t.Fatalf("stopped %v, last tick %d; want the misaligned message at tick 450 to end the cut", res.Stopped, res.Last)
	}
	r, err := replay.Open(res.Data)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(nil); err != nil {
		t.Fatal(err)
	}
	if r.FirstMisaligned == nil || r.FirstMisaligned.Loc.Tick != 450 || r.Stats.LastTick != 450 {
		t.Fatalf("the cut's first misaligned message: %v (last tick %d); want the original's at tick 450", r.FirstMisaligned, r.Stats.LastTick)
	}
	if _, err := cut.Cut(bad, cut.Options{From: 460, To: 500}); err == nil || !strings.Contains(err.Error(), "misaligns before the window") {
		t.Fatalf("a window after the misalignment: %v", err)
	}
}

// A file cut short inside the window gives a cut of its whole commands,
// and says where it ended.
func TestCutTruncated(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	short := data[:len(data)*3/4]
	res, err := cut.Cut(short, cut.Options{From: 300, To: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ended == nil || !strings.Contains(res.Ended.Error(), "truncated") {
		t.Fatalf("ended %v; want the truncation named", res.Ended)
	}
	r, _ := replay.Open(res.Data)
	if err := r.Run(nil); err != nil || r.Stats.Misaligned != 0 {
		t.Fatalf("the cut of a truncated file: %v, %d misaligned", err, r.Stats.Misaligned)
	}
	if r.Stats.LastTick != res.Last || res.Last <= 300 {
		t.Fatalf("the cut ends at tick %d, the result says %d", r.Stats.LastTick, res.Last)
	}
}
