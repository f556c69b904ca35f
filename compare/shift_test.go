package compare

import (
	"fmt"
	"testing"

	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// asTheirs turns our reads into a trace's as a parser would log them:
// tick renumbered by tick, no offsets, paths or decoders.
func asTheirs(ours []Read, tick func(int64) int64) []Read {
	out := make([]Read, len(ours))
	for i, r := range ours {
		out[i] = Read{Line: i + 1, Tick: tick(r.Tick), Command: -1, Message: -1, Entity: r.Entity, Name: r.Name, Offset: -1, Bits: -1, Baseline: r.Baseline, Value: r.Value}
	}
	return out
}

// A trace whose ticks are ours shifted by a constant, or the server's
// net_Tick, is named so; the same trace with our ticks is not; and a
// trace whose values are wrong at our ticks is no shift either.
func TestTickShiftsAreNamed(t *testing.T) {
	testreplays.Subtests(t, func(t *testing.T, data []byte) {
		ours, err := Ours(data, schema.Aliases{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		net := map[int64]int64{}
		if err := decode(data, schema.Aliases{}, nil, func(int64, []Read) {}, func(demo, n int64) {
			if _, ok := net[demo]; !ok {
				net[demo] = n
			}
		}); err != nil {
			t.Fatal(err)
		}
		same, err := CompareReplay(data, schema.Aliases{}, asTheirs(ours, func(t int64) int64 { return t }), Options{})
		if err != nil || same.Shift != nil || same.NetTicks != nil || !same.Same() {
			t.Fatalf("our own ticks: shift %+v, net %+v, same %v (%v)", same.Shift, same.NetTicks, same.Same(), err)
		}
		for _, by := range []int64{7, -5} {
			res, err := CompareReplay(data, schema.Aliases{}, asTheirs(ours, func(t int64) int64 { return t + by }), Options{})
			if err != nil || res.Shift == nil || res.Shift.By != by || res.Shift.Agree*2 < res.Shift.Sampled {
				t.Errorf("ticks shifted by %d: shift %+v, net %+v (%v)", by, res.Shift, res.NetTicks, err)
			}
		}
		netMoved := false
		for d, n := range net {
			netMoved = netMoved || d != n
		}
		if netMoved {
			res, err := CompareReplay(data, schema.Aliases{}, asTheirs(ours, func(t int64) int64 {
				if n, ok := net[t]; ok {
					return n
				}
				return t
			}), Options{})
			if n := res.NetTicks; err != nil || n == nil || net[n.Demo] != n.Example || n.Net*10 < n.Ticks*9 {
				t.Errorf("net_Tick ticks: %+v, shift %+v (%v)", n, res.Shift, err)
			}
		}
		wrong := asTheirs(ours, func(t int64) int64 { return t })
		for i := range wrong {
			wrong[i].Value = []byte(fmt.Sprint(i))
		}
		if res, _ := CompareReplay(data, schema.Aliases{}, wrong, Options{}); res.Shift != nil || res.NetTicks != nil {
			t.Errorf("wrong values at our ticks: shift %+v, net %+v", res.Shift, res.NetTicks)
		}
	})
}
