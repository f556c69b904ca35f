package evidence

import (
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// tallyOf counts vs, each sent as the varint of a signed value (zigzag),
// in messages of server tick tick.
func tallyOfSigned(vs []int64, tick uint32) Tally {
	var t Tally
	for _, v := range vs {
		t.AddWide(zigzag(v))
		t.AddTick(zigzag(v), tick)
	}
	return t
}

func TestRecheckTicks(t *testing.T) {
	// A next-think tick a few ticks past the server's, -1 for never.
	var vs []int64
	for tick := int64(1811); tick < 1811+40*13; tick += 13 {
		vs = append(vs, tick+13, -1)
	}
	tl := tallyOfSigned(vs, 1900)
	r := RecheckTally(CheckTicks, tl, 1, 0)
	if r.Status != Confirmed || !strings.Contains(r.Text, "within a quarter of the server tick") {
		t.Fatalf("zigzag ticks: %+v", r)
	}
	// The same ticks written unsigned: both parities, as large as each
	// other; the correction is contradicted.
	var u Tally
	for _, v := range vs {
		if v > 0 {
			u.AddWide(uint64(v))
			u.AddTick(uint64(v), 1900)
		}
	}
	if r := RecheckTally(CheckTicks, u, 1, 0); r.Status != Contradicted {
		t.Fatalf("unsigned ticks: %+v", r)
	}
	if r := RecheckTally(CheckTicks, Tally{}, 0, 0); r.Status != Unchecked {
		t.Fatalf("no values: %+v", r)
	}
}

func TestRecheckPlayers(t *testing.T) {
	var vs []int64
	for range 5 {
		for p := int64(-1); p < 10; p++ {
			vs = append(vs, p)
		}
	}
	if r := RecheckTally(CheckPlayers, tallyOfSigned(vs, 0), 9, 64); r.Status != Confirmed {
		t.Fatalf("player ids -1…9: %+v", r)
	}
	// Players 0…9 written unsigned and read as zigzag: -5…4, below -1.
	var u Tally
	for range 5 {
		for p := uint64(0); p < 10; p++ {
			u.AddWide(p)
		}
	}
	if r := RecheckTally(CheckPlayers, u, 9, 64); r.Status != Contradicted || !strings.Contains(r.Text, "below -1") {
		t.Fatalf("player ids written unsigned: %+v", r)
	}
	// A slot past the server's player slots.
	if r := RecheckTally(CheckPlayers, tallyOfSigned(append(vs, 80), 0), 9, 64); r.Status != Contradicted || !strings.Contains(r.Text, "64 player slots") {
		t.Fatalf("player id 80 of 64 slots: %+v", r)
	}
}

func TestRecheckWide(t *testing.T) {
	var t64 Tally
	t64.AddWide(7518690009)
	t64.AddWide(0)
	if r := RecheckTally(CheckWide, t64, 1, 0); r.Status != Confirmed || !strings.Contains(r.Text, "7518690009") {
		t.Fatalf("a 33-bit id: %+v", r)
	}
	var small Tally
	small.AddWide(12345)
	if r := RecheckTally(CheckWide, small, 1, 0); r.Status != Unchecked {
		t.Fatalf("an id within 32 bits: %+v", r)
	}
}

// No false contradiction: values that are what a zigzag correction says
// (mostly positive, a few small negatives, read back as varints) are never
// called contradicted, however drawn; values of both parities drawn
// independently of size (an unsigned type) are never confirmed.
func TestRecheckProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 3))
		n := rapid.IntRange(1, 3000).Draw(rt, "n")
		hi := rapid.Int64Range(2, 1<<30).Draw(rt, "hi")
		negs := rapid.IntRange(0, 3).Draw(rt, "negatives")
		var tl Tally
		for range n {
			tl.AddWide(zigzag(rng.Int64N(hi)))
		}
		for i := range negs {
			tl.AddWide(zigzag(-1 - int64(i)))
		}
		for _, c := range []Check{CheckZigzag, CheckTicks, CheckPlayers} {
			if r := RecheckTally(c, tl, 1, 0); r.Status == Contradicted && c != CheckPlayers {
				rt.Fatalf("signed values 0…%d with %d negatives contradict check %d: %+v", hi, negs, c, r)
			}
		}
	})
	rapid.Check(t, func(rt *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 4))
		n := rapid.IntRange(1, 3000).Draw(rt, "n")
		hi := rapid.Uint64Range(2, 1<<32-1).Draw(rt, "hi")
		var tl Tally
		for range n {
			tl.AddWide(rng.Uint64N(hi))
		}
		for _, c := range []Check{CheckZigzag, CheckTicks} {
			if r := RecheckTally(c, tl, 1, 0); r.Status == Confirmed {
				rt.Fatalf("unsigned values 0…%d (%d) confirm check %d: %+v", hi, n, c, r)
			}
		}
	})
}
