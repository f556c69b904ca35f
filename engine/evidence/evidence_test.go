package evidence

import (
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func tallyOf(vs ...uint64) Tally {
	var t Tally
	for _, v := range vs {
		t.Add(v, 0)
	}
	return t
}

// zigzag encodes a signed value as a zigzag varint's unsigned value.
func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func TestPlayerIDsReadUnsignedAreSigned(t *testing.T) {
	var vs []uint64
	for rep := 0; rep < 5; rep++ {
		for id := int64(-1); id < 10; id++ {
			vs = append(vs, zigzag(id))
		}
	}
	v := Judge(tallyOf(vs...), 3)
	if v.Kind != Signed || v.As != "int32" {
		t.Fatalf("player ids 0…9 and -1 read unsigned: %+v", v)
	}
	for _, want := range []string{"55 values in 3 fields", "but 1 (5 times)", "up to 18"} {
		if !strings.Contains(v.Evidence, want) {
			t.Errorf("evidence %q lacks %q", v.Evidence, want)
		}
	}
	if !strings.Contains(v.Reads, "as int32 -1 and 0…9") {
		t.Errorf("reads %q", v.Reads)
	}
}

func TestNotCalledSigned(t *testing.T) {
	for _, c := range []struct {
		name string
		vs   []uint64
	}{
		{"Deadlock hero ids", []uint64{55, 19, 6, 55, 19, 6, 55, 19, 6, 0, 0}},
		{"a handful of even values", []uint64{2, 4, 6, 8, 2, 4, 6, 8}},
		{"an enum of both parities", []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}},
		{"flags with bit 0 unused", []uint64{2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 1 << 17, 1 << 18, 1 << 19, 1 << 20, 2, 4, 8}},
		{"ids with a large odd one", []uint64{2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 33}},
		{"-1 as uint32", []uint64{4294967295, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34}},
	} {
		if v := Judge(tallyOf(c.vs...), 1); v.Kind != Unsure {
			t.Errorf("%s: judged %+v", c.name, v)
		}
	}
}

func TestCutVarintIsWide(t *testing.T) {
	var tl Tally
	// 25787853485 is 35 bits: a 32-bit read keeps 18049709 and the fifth
	// byte holds bits 28..34.
	var wide uint64 = 25787853485
	tl.Add(uint64(uint32(wide)), uint8(wide>>28)&0x7f)
	tl.Add(12, 0)
	v := Judge(tl, 1)
	if v.Kind != Wide || v.As != "uint64" || tl.CutMax != wide || !strings.Contains(v.Evidence, "35 bits") {
		t.Fatalf("cut varint: %+v (CutMax %d)", v, tl.CutMax)
	}
	// A five-byte varint that fits 32 bits is not cut.
	var ok Tally
	ok.Add(4294967295, 0x0f)
	if ok.Cut != 0 {
		t.Fatalf("a 32-bit value counted as cut")
	}
}

func TestSetDiscardsAMisalignedMessage(t *testing.T) {
	var s Set
	s.Resize(3)
	s.Begin()
	s.Observe(1, 4, 0)
	s.Observe(2, 6, 0)
	s.Begin()
	s.Observe(1, 7, 0)
	s.Observe(1, 9, 0)
	s.Discard()
	if s.Tallies[1].N != 1 || s.Tallies[1].Odd != 0 || s.Tallies[2].N != 1 {
		t.Fatalf("after discard: %+v", s.Tallies[1:])
	}
	s.Observe(5, 1, 0) // out of range: ignored
}

// TestZigzagProperty feeds the detector random value sets. Values drawn
// with parity independent of size (what an unsigned field holds) must never
// be called signed, however many; signed values, mostly positive with a
// few small negatives, read unsigned must be, once there are enough
// distinct ones.
func TestZigzagProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 1))
		n := rapid.IntRange(1, 3000).Draw(rt, "n")
		hi := rapid.Uint64Range(2, 1<<32-1).Draw(rt, "hi")
		var tl Tally
		for range n {
			tl.Add(rng.Uint64N(hi), 0)
		}
		if v := Judge(tl, 1); v.Kind == Signed || v.Kind == SignedWide {
			ev, od := tl.Distinct()
			rt.Fatalf("unsigned values 0…%d (%d, %d distinct even, %d odd) called signed: %+v", hi, n, ev, od, v)
		}
	})
	rapid.Check(t, func(rt *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 2))
		hi := rapid.Int64Range(40, 1<<30).Draw(rt, "hi")
		negs := rapid.IntRange(0, 3).Draw(rt, "negatives")
		var tl Tally
		distinct := map[int64]bool{}
		for len(distinct) < 4*MinDistinctEven+8 { // the sketch loses a few to collisions
			v := rng.Int64N(hi) + 1
			distinct[v] = true
			tl.Add(zigzag(v), 0)
		}
		for i := 0; i < negs; i++ {
			tl.Add(zigzag(-1-int64(i)), 0)
		}
		if v := Judge(tl, 1); v.Kind != Signed {
			ev, od := tl.Distinct()
			rt.Fatalf("signed values up to %d with %d negatives (%d distinct even, %d odd) not called signed: %+v", hi, negs, ev, od, v)
		}
	})
}
