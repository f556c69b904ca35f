package compare

import (
	"slices"
	"sort"
)

// What is how two reads differ.
type What string

const (
	Bits    What = "bits"    // one read, a different bit count
	Offset  What = "offset"  // one read, the same bit count from another bit
	Value   What = "value"   // one read, the same bits, another value
	Missing What = "missing" // we read it, they did not
	Extra   What = "extra"   // they read it, we did not
	Order   What = "order"   // both read it, in another place among the tick's reads
	// MissingUpdate is an update we decoded at a tick their trace covers,
	// of an entity their trace reads nothing of at that tick: their parser
	// skipped the whole update. One difference stands for its reads.
	MissingUpdate What = "missing update"
)

// Difference is one place where the two sides part.
type Difference struct {
	What   What
	Tick   int64
	Entity int32
	Class  string
	Field  string
	Theirs *Read // nil when missing
	Ours   *Read // nil when extra
	// Reads is how many reads of ours a missing update holds (Ours is
	// the first).
	Reads int
	data  []byte
}

// ReadBits are the bits each side read, as a reader takes them ("0110…"), at
// most max of each; theirs from their bit offset and count in the same
// entity data (empty when their trace does not give them).
func (d *Difference) ReadBits(max int) (ours, theirs string) {
	if d.Ours != nil {
		ours = BitString(d.data, uint(d.Ours.Offset), uint(d.Ours.Bits), max)
	}
	if t := d.Theirs; t != nil && t.Offset >= 0 && t.Bits >= 0 {
		theirs = BitString(d.data, uint(t.Offset), uint(t.Bits), max)
	}
	return ours, theirs
}

// Result is what a comparison found.
type Result struct {
	Compared int // reads both sides made
	Equal    int // of them, the ones that agree
	Missing  int // reads we made that their trace lacks
	// MissingUpdates are updates their trace skipped whole (their reads
	// are counted in Missing too).
	MissingUpdates int
	Extra          int // reads their trace has that we did not make
	Counts         map[What]int
	First          *Difference
	All            []Difference // every difference, in decode order (Options.All)
	Theirs         int          // reads in their trace
	Ticks          int          // ticks compared
	// When fewer than half of their reads agree: NetTicks, if their ticks
	// are the server's (net_Tick), else Shift, the tick shift under which
	// most of them would agree (shift.go); nil when not so.
	NetTicks *NetTicks
	Shift    *TickShift
}

// Same reports whether the two sides agree everywhere.
func (r *Result) Same() bool { return r.First == nil }

// Options are the comparison's settings.
type Options struct {
	All bool // keep every difference, not only the first
	// Entities, when set, narrows the comparison to these entities
	// (compare --entities); else every update we decode at a tick their
	// trace covers is compared, and one their trace lacks is a
	// MissingUpdate.
	Entities map[int32]bool
}

// Scope is what a trace covers: its ticks, the entities compared (nil:
// every one) and whether it logs instance baseline reads. Our reads outside
// it are not compared.
type Scope struct {
	Ticks     map[int64]bool
	Entities  map[int32]bool
	Baselines bool
	// Sample, when set, is a span of ticks whose reads of ours are kept
	// for the tick shift search too (shift.go).
	Sample *TickSpan
}

// TickSpan is the ticks from First to Last.
type TickSpan struct{ First, Last int64 }

// Has reports whether tick is in the span; a nil span has none.
func (s *TickSpan) Has(tick int64) bool { return s != nil && s.First <= tick && tick <= s.Last }

// Records reports whether our reads at tick are wanted: compared, or
// sampled for the shift search.
func (s *Scope) Records(tick int64) bool { return s.Ticks[tick] || s.Sample.Has(tick) }

// ScopeOf is the scope of a trace: its ticks, every entity.
func ScopeOf(theirs []Read) Scope {
	s := Scope{Ticks: map[int64]bool{}}
	for i := range theirs {
		s.Ticks[theirs[i].Tick] = true
		s.Baselines = s.Baselines || theirs[i].Baseline
	}
	return s
}

// Has reports whether a read of ours is inside the scope.
func (s *Scope) Has(tick int64, entity int32, baseline bool) bool {
	return s.Ticks[tick] && s.HasEntity(entity) && (!baseline || s.Baselines)
}

// HasEntity reports whether an entity is compared.
func (s *Scope) HasEntity(entity int32) bool { return s.Entities == nil || s.Entities[entity] }

// Compare sets theirs beside ours (a whole decode's reads, in order): New,
// then Tick with each tick's reads, then Finish.
func Compare(ours, theirs []Read, o Options) Result {
	c := New(theirs, o)
	for i := 0; i < len(ours); {
		j := i + 1
		for j < len(ours) && ours[j].Tick == ours[i].Tick {
			j++
		}
		c.Tick(ours[i].Tick, ours[i:j])
		i = j
	}
	return c.Finish()
}

// Comparer sets theirs beside our reads tick by tick, as we decode. Reads
// are matched within a tick by entity, baseline or not, field path (name
// when their trace lacks paths) and which of that entity's reads of that
// path it is (the first, second, …); matched reads are compared in bit
// count, bit offset (where theirs give them) and value (SameValue). Ours
// outside ScopeOf(theirs) are left out. Differences are ordered as we
// decode: by tick, then by our read order, a read only theirs has coming
// right after our read matched to the one before it in their trace.
type Comparer struct {
	o      Options
	scope  Scope
	byPath bool
	theirs map[int64][]*Read
	ticks  []int64 // their ticks, ascending
	next   int     // ticks[:next] are done
	res    Result
	ours   []*Read
	shift  shiftSample
}

// New starts a comparison with their trace.
func New(theirs []Read, o Options) *Comparer {
	c := &Comparer{o: o, scope: ScopeOf(theirs), byPath: true, theirs: map[int64][]*Read{}}
	c.scope.Entities = o.Entities
	c.res = Result{Counts: map[What]int{}, Theirs: len(theirs)}
	for i := range theirs {
		if !c.scope.HasEntity(theirs[i].Entity) {
			continue // narrowed away (--entities): neither side's reads count
		}
		c.byPath = c.byPath && theirs[i].Path != nil
		t := theirs[i].Tick
		if _, ok := c.theirs[t]; !ok {
			c.ticks = append(c.ticks, t)
		}
		c.theirs[t] = append(c.theirs[t], &theirs[i])
	}
	slices.Sort(c.ticks)
	c.res.Ticks = len(c.ticks)
	if len(c.ticks) > 0 {
		c.scope.Sample = &TickSpan{c.ticks[0] - shiftWindow, c.ticks[min(len(c.ticks), shiftTicks)-1] + shiftWindow}
	}
	for _, t := range c.ticks[:min(len(c.ticks), shiftTicks)] {
		n := 0
		for _, r := range c.theirs[t] {
			if len(c.shift.theirs) < shiftReads && n < shiftPerTick && !r.Baseline {
				c.shift.theirs = append(c.shift.theirs, r)
				n++
			}
		}
	}
	return c
}

// Scope is what their trace covers.
func (c *Comparer) Scope() *Scope { return &c.scope }

// Tick compares our reads of one tick (ticks come in ascending order; reads
// outside the scope are skipped). Their ticks before it that we had no
// reads at are compared first. The comparison keeps no reference to ours:
// a difference holds copies.
func (c *Comparer) Tick(tick int64, ours []Read) {
	c.shift.addOurs(tick, ours, &c.scope)
	c.upTo(tick)
	if c.next < len(c.ticks) && c.ticks[c.next] == tick {
		c.next++
	} else {
		return // no read of theirs at this tick: out of scope
	}
	c.ours = c.ours[:0]
	for i := range ours {
		r := &ours[i]
		if c.scope.Has(r.Tick, r.Entity, r.Baseline) {
			c.ours = append(c.ours, r)
		}
	}
	compareTick(&c.res, c.ours, c.theirs[tick], c.byPath, c.o)
	delete(c.theirs, tick)
}

// upTo compares their ticks before tick, where we read nothing.
func (c *Comparer) upTo(tick int64) {
	for c.next < len(c.ticks) && c.ticks[c.next] < tick {
		t := c.ticks[c.next]
		compareTick(&c.res, nil, c.theirs[t], c.byPath, c.o)
		delete(c.theirs, t)
		c.next++
	}
}

// Finish compares their ticks past our last and returns the result.
func (c *Comparer) Finish() Result {
	c.upTo(1 << 62)
	if c.res.Equal*2 < c.res.Theirs {
		if c.res.NetTicks = c.netTicks(); c.res.NetTicks == nil {
			c.res.Shift = c.shift.find()
		}
	}
	return c.res
}

// readKey names a read within a tick: its entity, baseline or not, its
// field (an interned path or name) and its rank among the entity's reads of
// that field.
type readKey struct {
	entity   int32
	field    int32
	nth      int32
	baseline bool
}

type pathKey struct {
	depth int8
	path  [8]int32
}

// fieldIDs interns field paths or names for the keys.
type fieldIDs struct {
	paths map[pathKey]int32
	names map[string]int32
}

func (f *fieldIDs) id(r *Read, byPath bool) int32 {
	if byPath {
		var k pathKey
		k.depth = int8(copy(k.path[:], r.Path))
		id, ok := f.paths[k]
		if !ok {
			id = int32(len(f.paths))
			f.paths[k] = id
		}
		return id
	}
	id, ok := f.names[r.Name]
	if !ok {
		id = int32(len(f.names))
		f.names[r.Name] = id
	}
	return id
}

// compareTick matches and compares one tick's reads: by field path when
// their trace gives every read's path, else by name.
func compareTick(res *Result, ours, theirs []*Read, byPath bool, o Options) {
	ids := fieldIDs{paths: map[pathKey]int32{}, names: map[string]int32{}}
	nth := map[readKey]int32{}
	key := func(r *Read) readKey {
		k := readKey{entity: r.Entity, baseline: r.Baseline, field: ids.id(r, byPath)}
		n := nth[k]
		nth[k] = n + 1
		k.nth = n
		return k
	}
	tIdx := make(map[readKey]int, len(theirs))
	for j, r := range theirs {
		tIdx[key(r)] = j
	}
	tCount := nth
	nth = map[readKey]int32{}
	match := make([]int, len(ours)) // ours i → theirs j, or -1
	matchedBy := make([]int, len(theirs))
	for j := range matchedBy {
		matchedBy[j] = -1
	}
	for i, r := range ours {
		match[i] = -1
		if j, ok := tIdx[key(r)]; ok {
			match[i], matchedBy[j] = j, i
		}
	}
	realign(ours, theirs, match, matchedBy, tCount, nth, func(r *Read) readKey {
		return readKey{entity: r.Entity, baseline: r.Baseline, field: ids.id(r, byPath)}
	})
	inOrder := longestIncreasing(match)
	// The entities their trace reads at this tick: an update of another
	// is one they skipped whole.
	theirEnts := make(map[int32]bool, 8)
	for _, r := range theirs {
		theirEnts[r.Entity] = true
	}
	skipped := map[readKey]int{} // (entity, baseline) → index in diffs

	type placed struct {
		pos int // 2×our index; +1 for a read only theirs has
		d   Difference
	}
	var diffs []placed
	add := func(pos int, w What, or, tr *Read, data []byte) {
		d := Difference{What: w, Theirs: tr, data: data}
		if or != nil {
			cp := *or
			d.Ours = &cp
		}
		r := or
		if r == nil {
			r = tr
		}
		d.Tick, d.Entity, d.Class, d.Field = r.Tick, r.Entity, r.Class, r.Name
		if d.Class == "" && tr != nil {
			d.Class = tr.Class
		}
		diffs = append(diffs, placed{pos, d})
	}
	for i, or := range ours {
		j := match[i]
		if j < 0 && !theirEnts[or.Entity] {
			res.Missing++
			k := readKey{entity: or.Entity, baseline: or.Baseline}
			if at, ok := skipped[k]; ok {
				diffs[at].d.Reads++
				continue
			}
			res.MissingUpdates++
			skipped[k] = len(diffs)
			add(2*i, MissingUpdate, or, nil, or.data)
			diffs[len(diffs)-1].d.Reads = 1
			continue
		}
		if j < 0 {
			res.Missing++
			add(2*i, Missing, or, nil, or.data)
			continue
		}
		tr := theirs[j]
		res.Compared++
		w := What("")
		switch {
		case !inOrder[i]:
			w = Order
		case tr.Bits >= 0 && tr.Bits != or.Bits:
			w = Bits
		case tr.Offset >= 0 && tr.Offset != or.Offset:
			w = Offset
		case !SameValue(or.Kind, or.Value, tr.Value):
			w = Value
		}
		if w == "" {
			res.Equal++
			continue
		}
		add(2*i, w, or, tr, or.data)
	}
	last := -1 // our index matched to the last of their reads seen
	for j, tr := range theirs {
		if i := matchedBy[j]; i >= 0 {
			if inOrder[i] {
				last = i
			}
			continue
		}
		res.Extra++
		var data []byte
		if last >= 0 {
			data = ours[last].data
		} else if len(ours) > 0 {
			data = ours[0].data
		}
		add(2*last+1, Extra, nil, tr, data)
	}
	sort.SliceStable(diffs, func(a, b int) bool { return diffs[a].pos < diffs[b].pos })
	for k := range diffs {
		d := diffs[k].d
		res.Counts[d.What]++
		if res.First == nil {
			res.First = &d
		}
		if o.All {
			res.All = append(res.All, d)
		}
	}
}

// longestIncreasing marks the entries of seq (ignoring -1) that make up a
// longest strictly increasing subsequence: the matched reads in the same
// order on both sides; the others are out of order.
func longestIncreasing(seq []int) []bool {
	in := make([]bool, len(seq))
	tails := []int{}              // indices into seq: tail of the best run of each length
	prev := make([]int, len(seq)) // predecessor in the run
	for i, v := range seq {
		if v < 0 {
			continue
		}
		k := sort.Search(len(tails), func(k int) bool { return seq[tails[k]] >= v })
		if k > 0 {
			prev[i] = tails[k-1]
		} else {
			prev[i] = -1
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	if len(tails) > 0 {
		for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
			in[i] = true
		}
	}
	return in
}

// realign pairs again the reads of a field that one side read more often
// than the other in a tick (rank alone would pair every read after the
// missing one with the one after it): an alignment in order that pairs as
// many reads alike (the same bit offset where theirs give it, else the same
// value) as it can, then as many others. Counts are per field key (nth 0).
func realign(ours, theirs []*Read, match, matchedBy []int, tCount, oCount map[readKey]int32, key func(*Read) readKey) {
	uneven := map[readKey]bool{}
	for k, n := range tCount {
		if oCount[k] != n && oCount[k] > 0 {
			uneven[k] = true
		}
	}
	if len(uneven) == 0 {
		return
	}
	os, ts := map[readKey][]int{}, map[readKey][]int{}
	for i, r := range ours {
		if k := key(r); uneven[k] {
			os[k] = append(os[k], i)
		}
	}
	for j, r := range theirs {
		if k := key(r); uneven[k] {
			ts[k] = append(ts[k], j)
		}
	}
	for k := range uneven {
		o, t := os[k], ts[k]
		if len(o)*len(t) > 1<<20 {
			continue // too many to align: rank it is
		}
		for _, i := range o {
			match[i] = -1
		}
		for _, j := range t {
			matchedBy[j] = -1
		}
		alike := func(a, b int) int32 {
			or, tr := ours[o[a]], theirs[t[b]]
			if tr.Offset >= 0 && tr.Offset == or.Offset || tr.Offset < 0 && SameValue(or.Kind, or.Value, tr.Value) {
				return 3
			}
			return 1
		}
		// score[a][b] is the best alignment of o[a:] and t[b:]: a pair
		// alike counts 3, any other pair 1, a read left alone 0.
		n, m := len(o), len(t)
		score := make([]int32, (n+1)*(m+1))
		at := func(a, b int) int32 { return score[a*(m+1)+b] }
		for a := n - 1; a >= 0; a-- {
			for b := m - 1; b >= 0; b-- {
				score[a*(m+1)+b] = max(alike(a, b)+at(a+1, b+1), at(a+1, b), at(a, b+1))
			}
		}
		for a, b := 0, 0; a < n && b < m; {
			switch at(a, b) {
			case alike(a, b) + at(a+1, b+1):
				match[o[a]], matchedBy[t[b]] = t[b], o[a]
				a, b = a+1, b+1
			case at(a+1, b):
				a++
			default:
				b++
			}
		}
	}
}
