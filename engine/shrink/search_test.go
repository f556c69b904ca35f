package shrink

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// hasAll fails while every one of need is kept.
func hasAll(need ...int) Fails {
	return func(_ context.Context, keep []int) bool {
		for _, n := range need {
			if !slices.Contains(keep, n) {
				return false
			}
		}
		return true
	}
}

// TestDDMinFindsExactlyTheElement: a test that fails while one given
// element (an entity, a message) is present is shrunk to exactly it, from
// any position, on one core and on four.
func TestDDMinFindsExactlyTheElement(t *testing.T) {
	for _, jobs := range []int{1, 4} {
		for _, n := range []int{1, 2, 3, 7, 100, 1000} {
			for _, want := range []int{0, n / 2, n - 1} {
				s := &Searcher{Jobs: jobs}
				got := s.DDMin(context.Background(), seq(n), hasAll(want))
				if !slices.Equal(got, []int{want}) {
					t.Fatalf("jobs %d, %d elements, fails with %d: got %v", jobs, n, want, got)
				}
				if n == 1000 && s.Tests > 200 {
					t.Errorf("jobs %d: %d tests to find one of 1000", jobs, s.Tests)
				}
			}
		}
	}
}

// TestDDMinKeepsEveryNeededElement: a failure that needs several elements
// together (an entity and the message updating it) keeps all of them and
// nothing else.
func TestDDMinKeepsEveryNeededElement(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		n := 1 + rng.IntN(300)
		var need []int
		for range 1 + rng.IntN(5) {
			need = append(need, rng.IntN(n))
		}
		slices.Sort(need)
		need = slices.Compact(need)
		got := (&Searcher{Jobs: 1 + rng.IntN(4)}).DDMin(context.Background(), seq(n), hasAll(need...))
		if !slices.Equal(got, need) {
			t.Fatalf("%d elements, fails with %v: got %v", n, need, got)
		}
	}
}

// TestDDMinIsOneMinimal: on a test that is not monotone (fails on sets of
// an odd count of the special elements, at least one of them) the result
// fails and every single removal from it passes.
func TestDDMinIsOneMinimal(t *testing.T) {
	special := map[int]bool{3: true, 8: true, 13: true, 40: true, 41: true}
	fails := func(_ context.Context, keep []int) bool {
		c := 0
		for _, k := range keep {
			if special[k] {
				c++
			}
		}
		return c%2 == 1
	}
	got := (&Searcher{Jobs: 2}).DDMin(context.Background(), seq(64), fails)
	if !fails(nil, got) {
		t.Fatalf("result %v passes", got)
	}
	for i := range got {
		if fails(nil, slices.Delete(slices.Clone(got), i, i+1)) {
			t.Fatalf("result %v is not 1-minimal: without %d it still fails", got, got[i])
		}
	}
}

// TestDDMinNothingNeeded: a test that fails whatever is kept shrinks to
// no element at all.
func TestDDMinNothingNeeded(t *testing.T) {
	got := (&Searcher{}).DDMin(context.Background(), seq(9), func(context.Context, []int) bool { return true })
	if len(got) != 0 {
		t.Fatalf("got %v, want none", got)
	}
}

// TestDDMinStopsOnTheContext: a search whose context ends returns at once
// a failing set (the smallest so far), not a half-tested one.
func TestDDMinStopsOnTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	fails := func(_ context.Context, keep []int) bool {
		if calls.Add(1) == 5 {
			cancel()
		}
		return slices.Contains(keep, 77)
	}
	done := make(chan []int)
	go func() { done <- (&Searcher{Jobs: 2}).DDMin(ctx, seq(200), fails) }()
	select {
	case got := <-done:
		if !slices.Contains(got, 77) {
			t.Fatalf("cancelled search returned %v, which passes", got)
		}
		if len(got) == 1 {
			t.Fatalf("cancelled after 5 tests, yet the search ended: %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the search did not stop on its context")
	}
}

// TestDDMinTestsNoSetTwice: a set tested once is not run again.
func TestDDMinTestsNoSetTwice(t *testing.T) {
	seen := map[string]int{}
	fails := func(_ context.Context, keep []int) bool {
		seen[key(keep)]++
		return slices.Contains(keep, 5) && slices.Contains(keep, 6)
	}
	(&Searcher{Jobs: 1}).DDMin(context.Background(), seq(20), fails)
	for k, n := range seen {
		if n > 1 {
			t.Errorf("set %s tested %d times", k, n)
		}
	}
}

// TestBisectFindsTheTick: a test that fails while the window reaches a
// given tick (from its start, the window's last tick bisected) finds
// exactly that tick, for every position and core count.
func TestBisectFindsTheTick(t *testing.T) {
	for _, jobs := range []int{1, 2, 3, 8} {
		for _, n := range []int{1, 2, 5, 64, 1000, 400000} {
			for _, want := range []int{0, 1, n / 3, n - 2, n - 1} {
				if want < 0 || want >= n {
					continue
				}
				s := &Searcher{Jobs: jobs}
				var tests atomic.Int32
				got := s.Bisect(context.Background(), 0, n-1, func(_ context.Context, x int) bool {
					tests.Add(1)
					return x <= want
				})
				if got != want {
					t.Fatalf("jobs %d, range 0…%d, fails up to %d: got %d", jobs, n-1, want, got)
				}
				if n == 400000 && tests.Load() > 25*int32(jobs) {
					t.Errorf("jobs %d: %d tests for a range of 400,000", jobs, tests.Load())
				}
			}
		}
	}
}

// TestBisectStopsOnTheContext returns the largest failing point found.
func TestBisectStopsOnTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	got := (&Searcher{Jobs: 1}).Bisect(ctx, 0, 1<<20, func(_ context.Context, x int) bool {
		n++
		if n == 3 {
			cancel()
		}
		return x <= 1000
	})
	if got > 1000 {
		t.Fatalf("got %d, which passes", got)
	}
}

// TestSearchesDoNotShareAnswers: one Searcher runs the stages' searches
// one after another, over elements numbered alike that name other things;
// an answer of one is no answer of the next.
func TestSearchesDoNotShareAnswers(t *testing.T) {
	s := &Searcher{Jobs: 1}
	if got := s.DDMin(context.Background(), seq(8), hasAll(3)); !slices.Equal(got, []int{3}) {
		t.Fatalf("first search: %v", got)
	}
	if got := s.DDMin(context.Background(), seq(8), hasAll(5)); !slices.Equal(got, []int{5}) {
		t.Fatalf("second search, fails with 5: %v", got)
	}
}
