package interop

import (
	"io"
	"os"
	"slices"
	"testing"

	"github.com/dembug/dembug/engine/cut"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/stringtable"
	"github.com/dembug/dembug/internal/testreplays"
)

// Window is a tick window to cut; To < 0 runs it to the end of the file.
type Window struct {
	Name     string
	From, To int32
}

// Windows are windows about width ticks wide at the start of the game,
// early on (so the cut starts with a full frame), in the middle and at the
// end (to the file's end) of a replay whose last tick is last.
func Windows(last, width int32) []Window {
	if width > last/3 {
		width = last / 3
	}
	early := min(last/10, width)
	return []Window{
		{"start", 0, width},
		{"early", early, early + width},
		{"middle", last/2 - width/2, last/2 + width/2},
		{"end", last - width, -1},
	}
}

// CutCase is one window cut out of a replay, with what dembug reads of it.
type CutCase struct {
	Window
	Result *cut.Result
	// Ticks are the ticks of packet-entities messages a quarter, half and
	// three quarters into the window, and of its last one: the ticks whose
	// state other parsers are held to (a parser's table changes only
	// there). Counts are dembug's live entities in the cut at each, the
	// original's at the same tick.
	Ticks  []int32
	Counts []int
	// Read is dembug's reading of the whole cut (its end state).
	Read Reading
}

// Count is the number of live entities in dembug's table: the ones with a
// class (left entities count; they stay in every parser's table).
func Count(t *entity.Table) int {
	n := 0
	for _, e := range t.Entities {
		if e != nil && e.Class != nil {
			n++
		}
	}
	return n
}

// CountsAt decodes data and returns dembug's live entity count after the
// last command at or before each tick.
func CountsAt(tb testing.TB, data []byte, ticks []int32) map[int32]int {
	tb.Helper()
	r, err := openAsParsersRead(data)
	if err != nil {
		tb.Fatal(err)
	}
	ticks = slices.Sorted(slices.Values(ticks))
	out := map[int32]int{}
	for {
		next, ok := r.NextTick()
		for len(ticks) > 0 && (!ok || next > ticks[0]) {
			out[ticks[0]] = Count(r.Entities)
			ticks = ticks[1:]
		}
		if !ok {
			break
		}
		if _, err := r.Step(); err == io.EOF {
			break
		} else if err != nil {
			tb.Fatalf("dembug: %v", err)
		}
	}
	for _, t := range ticks {
		out[t] = Count(r.Entities)
	}
	if r.Stats.Misaligned != 0 {
		tb.Fatalf("dembug: %d misaligned", r.Stats.Misaligned)
	}
	return out
}

// EntityTicks are the ticks, from the tick from on, of data's
// packet-entities messages, in order, each once.
func EntityTicks(tb testing.TB, data []byte, from int32) []int32 {
	tb.Helper()
	r, err := openAsParsersRead(data)
	if err != nil {
		tb.Fatal(err)
	}
	var ticks []int32
	r.Hooks.Entities = func(loc replay.Location, _ *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
		if loc.Tick >= from && (len(ticks) == 0 || ticks[len(ticks)-1] != loc.Tick) {
			ticks = append(ticks, loc.Tick)
		}
	}
	if err := r.Run(nil); err != nil {
		tb.Fatalf("dembug: %v", err)
	}
	return ticks
}

// CutWindows cuts each window out of data and holds dembug to itself
// first: the cut decodes to its end with no misalignment, and its live
// entity counts inside the window and at its end are the original's at the
// same ticks. The other parser is then held to these counts.
func CutWindows(tb testing.TB, name string, data []byte, windows []Window) []CutCase {
	tb.Helper()
	var cases []CutCase
	var ticks []int32
	for _, w := range windows {
		res, err := cut.Cut(data, cut.Options{From: w.From, To: w.To})
		if err != nil {
			tb.Fatalf("%s: cut %s (%d…%d): %v", name, w.Name, w.From, w.To, err)
		}
		if res.Stopped != nil || res.Ended != nil {
			tb.Fatalf("%s: cut %s ends early: %v %v", name, w.Name, res.Stopped, res.Ended)
		}
		for _, n := range res.Notes {
			tb.Logf("%s %s: note: %s", name, w.Name, n)
		}
		c := CutCase{Window: w, Result: res}
		pe := EntityTicks(tb, res.Data, res.First)
		if len(pe) == 0 {
			tb.Fatalf("%s %s: the window has no packet-entities message", name, w.Name)
		}
		for q := int32(1); q <= 3; q++ {
			i, _ := slices.BinarySearch(pe, res.First+(res.Last-res.First)*q/4)
			c.Ticks = append(c.Ticks, pe[min(i, len(pe)-1)])
		}
		c.Ticks = slices.Compact(append(c.Ticks, pe[len(pe)-1]))
		c.Read = ReadDembug(tb, res.Data)
		if c.Read.LastTick != res.Last {
			tb.Fatalf("%s %s: dembug ends the cut at tick %d, its window at %d", name, w.Name, c.Read.LastTick, res.Last)
		}
		counts := CountsAt(tb, res.Data, c.Ticks)
		for _, t := range c.Ticks {
			c.Counts = append(c.Counts, counts[t])
		}
		if c.Counts[len(c.Counts)-1] != len(c.Read.Live) {
			tb.Fatalf("%s %s: dembug counts %d entities at the cut's last entity tick, %d at its end", name, w.Name, c.Counts[len(c.Counts)-1], len(c.Read.Live))
		}
		cases = append(cases, c)
		ticks = append(ticks, c.Ticks...)
	}
	orig := CountsAt(tb, data, ticks)
	for _, c := range cases {
		for i, t := range c.Ticks {
			if orig[t] != c.Counts[i] {
				tb.Fatalf("%s %s: dembug counts %d entities at tick %d in the cut, %d in the original", name, c.Name, c.Counts[i], t, orig[t])
			}
		}
	}
	return cases
}

// LongReplay returns the bytes of the ~100 MB Dota replay, skipping the
// test under -short.
func LongReplay(tb testing.TB) []byte {
	tb.Helper()
	if testing.Short() {
		tb.Skip("-short: the 100 MB replay's cuts are left out")
	}
	path := testreplays.Long(tb, 100)
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// Marks are the ticks other parsers are held to in every case, and each
// case's window as the cut has it (first and last tick): what a parser's
// reading of the original records.
func Marks(cases []CutCase) (ticks []int32, spans [][2]int32) {
	for _, c := range cases {
		ticks = append(ticks, c.Ticks...)
		spans = append(spans, [2]int32{c.Result.First, c.Result.Last})
	}
	return ticks, spans
}

// CheckTicks holds a parser's reading of the cut at each of the case's
// ticks (cut) to its reading of the original there (orig), value for
// value, and, with counts, to dembug's live entity count. It returns the
// entities it held at each tick and the values compared, and fails when
// fewer than 1,000 were: a window that compares nothing proves nothing.
func (c *CutCase) CheckTicks(t testing.TB, label, parser string, orig, cutRead map[int32]Snapshot, counts bool) (held []int, values int) {
	t.Helper()
	for i, tick := range c.Ticks {
		held = append(held, len(cutRead[tick]))
		if counts && len(cutRead[tick]) != c.Counts[i] {
			t.Errorf("%s: %s holds %d entities at tick %d, dembug %d", label, parser, len(cutRead[tick]), tick, c.Counts[i])
		}
		n, diffs := CompareSnapshots(orig[tick], cutRead[tick])
		for _, d := range diffs {
			t.Errorf("%s, tick %d: %s", label, tick, d)
		}
		values += n
	}
	if values < 1000 {
		t.Errorf("%s: only %d values compared", label, values)
	}
	return held, values
}

// InWindow is the ops (in tick order or not) whose tick is inside the
// case's window.
func InWindow[T any](c CutCase, ops []T, tick func(T) int32) []T {
	var in []T
	for _, o := range ops {
		if t := tick(o); t >= c.Result.First && t <= c.Result.Last {
			in = append(in, o)
		}
	}
	return in
}

// LastTick is the tick of data's last command, as dembug reads it.
func LastTick(tb testing.TB, data []byte) int32 {
	tb.Helper()
	return decodeAll(tb, data).Stats.LastTick
}

// decodeAll is dembug's decode of data to its end.
func decodeAll(tb testing.TB, data []byte) *replay.Replay {
	tb.Helper()
	r, err := openAsParsersRead(data)
	if err != nil {
		tb.Fatal(err)
	}
	if err := r.Run(nil); err != nil {
		tb.Fatalf("dembug: %v", err)
	}
	return r
}

// StringKeys are the keys of every string-table entry as data's tables
// stand at its end, by table name and entry index.
func StringKeys(tb testing.TB, data []byte) map[string]map[int32]string {
	tb.Helper()
	r := decodeAll(tb, data)
	out := map[string]map[int32]string{}
	for _, t := range r.Strings.Tables {
		if t == nil {
			continue
		}
		keys := map[int32]string{}
		t.Each(func(e stringtable.Entry) { keys[e.Index] = e.Key })
		out[t.Name] = keys
	}
	return out
}
