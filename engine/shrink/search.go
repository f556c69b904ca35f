// Package shrink searches for the smallest replay that still fails a
// test: delta debugging over what a cut can express (the tick window; the
// window's commands and messages; the full frame's entities and their
// fields), every candidate written by engine/cut.
//
// Files:
//
//	search.go  the generic searches: Bisect over an ordered range, DDMin over
//	           a set of elements, both testing candidates on several cores
//	file.go    Shrink: the stages over a replay, each candidate a cut
//	report.go  what remains of a shrunk replay, in words
package shrink

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Fails tests one candidate: true when it still fails the way the
// original does. A search stops on the context; a Fails that sees it done
// may return anything.
type Fails func(ctx context.Context, keep []int) bool

// Searcher runs the candidates of a search, Jobs at a time, and remembers
// the sets it has tested.
type Searcher struct {
	Jobs  int
	Tests int // candidates tested
	seen  map[string]bool
}

func (s *Searcher) jobs() int { return max(s.Jobs, 1) }

func key(set []int) string {
	var b strings.Builder
	for _, v := range set {
		b.WriteString(strconv.Itoa(v))
		b.WriteByte(',')
	}
	return b.String()
}

// first tests the candidates in order, Jobs at a time, and returns the
// index of the first that fails (-1 for none, or when ctx ends). Within a
// batch every candidate is tested, so the answer does not depend on which
// finishes first.
func (s *Searcher) first(ctx context.Context, cands [][]int, fails Fails) int {
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	for start := 0; start < len(cands); {
		if ctx.Err() != nil {
			return -1
		}
		// The batch: the next Jobs candidates not tested before (a tested
		// one that failed would have been taken then).
		var batch []int
		for ; start < len(cands) && len(batch) < s.jobs(); start++ {
			k := key(cands[start])
			if f, ok := s.seen[k]; ok {
				if f {
					return start
				}
				continue
			}
			batch = append(batch, start)
		}
		res := make([]bool, len(batch))
		var wg sync.WaitGroup
		for i, c := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res[i] = fails(ctx, cands[c])
			}()
		}
		wg.Wait()
		if ctx.Err() != nil {
			return -1 // a test cut short says nothing
		}
		s.Tests += len(batch)
		found := -1
		for i, c := range batch {
			s.seen[key(cands[c])] = res[i]
			if res[i] && found < 0 {
				found = c
			}
		}
		if found >= 0 {
			return found
		}
	}
	return -1
}

// DDMin reduces elems (which fail) to a 1-minimal subset: removing any one
// element of the result makes the test pass. When ctx ends it returns the
// smallest failing subset found so far. elems are kept in their order.
func (s *Searcher) DDMin(ctx context.Context, elems []int, fails Fails) []int {
	s.seen = nil // the sets of another search name other things
	cur := slices.Clone(elems)
	n := 2
	for len(cur) >= 2 && ctx.Err() == nil {
		n = min(n, len(cur))
		chunks := split(cur, n)
		// Subsets first (a small failing part ends the search quickly),
		// then complements; with two chunks they are the same sets.
		var cands [][]int
		cands = append(cands, chunks...)
		if n > 2 {
			for i := range chunks {
				cands = append(cands, without(chunks, i))
			}
		}
		i := s.first(ctx, cands, fails)
		switch {
		case i < 0:
			if n >= len(cur) {
				return cur // every single removal passes: 1-minimal
			}
			n = min(2*n, len(cur))
		case i < len(chunks):
			cur, n = cands[i], 2
		default:
			cur, n = cands[i], max(n-1, 2)
		}
	}
	if len(cur) == 1 && ctx.Err() == nil {
		// One element left: is none needed at all?
		if s.first(ctx, [][]int{{}}, fails) == 0 {
			return []int{}
		}
	}
	return cur
}

// split cuts set into n runs of near-equal length.
func split(set []int, n int) [][]int {
	out := make([][]int, 0, n)
	for i := range n {
		lo, hi := i*len(set)/n, (i+1)*len(set)/n
		if hi > lo {
			out = append(out, set[lo:hi:hi])
		}
	}
	return out
}

// without is every chunk but chunks[skip], joined in order.
func without(chunks [][]int, skip int) []int {
	var out []int
	for i, c := range chunks {
		if i != skip {
			out = append(out, c...)
		}
	}
	return out
}

// Bisect finds the largest x in [lo, hi] for which fails(x) holds, given
// that it holds for lo and, past some point, no longer does. It tests Jobs
// points of the range at a time. When ctx ends it returns the largest x
// found failing so far.
func (s *Searcher) Bisect(ctx context.Context, lo, hi int, fails func(ctx context.Context, x int) bool) int {
	for lo < hi && ctx.Err() == nil {
		// k points splitting [lo, hi] into k+1 parts; two neighbours
		// leave hi itself to test.
		k := min(s.jobs(), hi-lo)
		var pts []int
		for i := 1; i <= k; i++ {
			p := lo + int(int64(hi-lo)*int64(i)/int64(k+1))
			if p > lo && (len(pts) == 0 || p > pts[len(pts)-1]) {
				pts = append(pts, p)
			}
		}
		if len(pts) == 0 {
			pts = []int{hi}
		}
		cands := make([][]int, len(pts))
		for i, p := range pts {
			cands[i] = []int{p}
		}
		res := s.all(ctx, cands, func(ctx context.Context, c []int) bool { return fails(ctx, c[0]) })
		if res == nil {
			break
		}
		// The first point that passes bounds the range; the last failing
		// point before it is the new low end.
		newHi := hi
		for i, p := range pts {
			if !res[i] {
				newHi = p - 1
				break
			}
			lo = p
		}
		hi = newHi
	}
	return lo
}

// all tests every candidate (Jobs at a time) and returns each answer; nil
// when ctx ends.
func (s *Searcher) all(ctx context.Context, cands [][]int, fails Fails) []bool {
	res := make([]bool, len(cands))
	for start := 0; start < len(cands); start += s.jobs() {
		end := min(start+s.jobs(), len(cands))
		var wg sync.WaitGroup
		for i := start; i < end; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res[i] = fails(ctx, cands[i])
			}()
		}
		wg.Wait()
		if ctx.Err() != nil {
			return nil
		}
		s.Tests += end - start
	}
	return res
}
