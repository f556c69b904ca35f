package ui

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

// TestLongSession drives the debugger over a full-length replay (built
// when DEMBUG_LONG names none) as docs/measure-tui.sh does, every command
// run synchronously: the index holds every update a plain decode applies,
// grading fills the keyframes in, and each key lands where it should. It
// logs what each key costs on the UI side and in the decoder (the tmux
// script measures the same in a terminal; times are not asserted).
func TestLongSession(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	path := testreplays.Long(t, 100)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	hs := newHarness(t, path, data, 200, 50)
	ix := hs.m.ix
	t.Logf("index and grading: %v, %d keyframes (%d MiB)", time.Since(t0), ix.Keyframes.Len(), ix.Keyframes.Bytes()>>20)
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(nil); err != nil {
		t.Fatal(err)
	}
	switch {
	case !ix.Done || ix.Err != nil || !ix.GradeDone:
		t.Fatalf("index done %v (error %v), grading done %v", ix.Done, ix.Err, ix.GradeDone)
	case len(ix.Commands) != r.Stats.Commands || int64(ix.NumUpdates()) != r.Entities.Stats.Updates:
		t.Fatalf("indexed %d commands and %d updates; a decode has %d and %d", len(ix.Commands), ix.NumUpdates(), r.Stats.Commands, r.Entities.Stats.Updates)
	case ix.Keyframes.Len() < len(data)>>20*3/4:
		// The index pass keeps one about every 2 MiB, grading one in
		// between.
		t.Fatalf("%d keyframes over %d MiB after grading", ix.Keyframes.Len(), len(data)>>20)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("live heap after the index and grading passes: %d MiB (the file, read whole here: %d MiB)", ms.HeapAlloc>>20, len(data)>>20)

	flat := func() int { return ix.FlatOf(hs.m.sel) }
	timeKeys := func(label string, n int, f func(i int)) {
		var ds []time.Duration
		for i := range n {
			start := time.Now()
			f(i)
			_ = hs.m.View()
			ds = append(ds, time.Since(start))
		}
		sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
		t.Logf("%-10s p50 %v p95 %v max %v", label, ds[len(ds)/2], ds[len(ds)*95/100], ds[len(ds)-1])
	}
	timeKeys("end", 1, func(int) { hs.keys("end") })
	timeKeys("N", 20, func(i int) {
		hs.keys("N")
		if want := ix.NumUpdates() - 1 - i; flat() != want {
			t.Fatalf("N %d times from the end: update %d of the file, want %d", i+1, flat(), want)
		}
	})
	timeKeys("[", 20, func(int) {
		before := hs.m.sel
		hs.keys("[")
		if s := hs.m.sel; s.Cmd > before.Cmd || s.Cmd == before.Cmd && s.Msg >= before.Msg {
			t.Fatalf("[ from %+v went to %+v", before, s)
		}
	})
	timeKeys("n", 20, func(i int) {
		before, at := flat(), hs.m.sel
		hs.keys("n")
		switch {
		case i == 0 && (flat() < 0 || hs.m.sel.Cmd < at.Cmd): // from a message, to an update after it
			t.Fatalf("n from %+v went to %+v", at, hs.m.sel)
		case i > 0 && flat() != before+1:
			t.Fatalf("n from update %d went to %d", before, flat())
		}
	})
	last := ix.Commands[len(ix.Commands)-1].Tick
	rng := rand.New(rand.NewPCG(1, 1))
	timeKeys("g", 20, func(int) {
		tick := int32(rng.IntN(int(last)))
		hs.keys("g")
		hs.typ(fmt.Sprint(tick))
		hs.keys("enter")
		if c := ix.Cmd(hs.m.sel.Cmd); c == nil || c.Tick < tick || hs.m.sel.Cmd > 0 && ix.Commands[hs.m.sel.Cmd-1].Tick >= tick {
			t.Fatalf("g %d went to %+v", tick, hs.m.sel)
		}
	})
	timeKeys("search", 1, func(int) {
		hs.keys("/")
		hs.typ("m_iHealth")
		hs.keys("enter")
	})
	if !strings.Contains(hs.m.note, `"m_iHealth"`) || !strings.Contains(hs.m.note, "at tick") || hs.m.sel.Upd < 0 {
		t.Fatalf("search: %q, at %+v", hs.m.note, hs.m.sel)
	}
	t.Log(hs.m.note)
}
