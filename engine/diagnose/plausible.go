package diagnose

import (
	"math"
	"math/bits"
	"strconv"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/provenance"
)

// This file scores how plausible a repaired message's values are, to rank
// the repairs of damaged bits that all make the message align. Two repairs
// differ only in the values read between the two edits, so the score needs
// to tell a value the game sent from the same bits read one place off:
// a value near the entity's values before and after it (game state moves
// gradually), in the scale of its field (a cell-relative coordinate moves
// within its range, an angle within 360 degrees), of the magnitude its
// neighbours have, a float that is a short decimal (values set by hand or
// by config are), a handle to an entity that exists with that serial, a
// string that shares its neighbours' start.

// plausibility holds what the ranking compares values with.
type plausibility struct {
	future map[futureKey]decoder.Value // the next value of each entity's field
	exists Lookup                      // entities before the message or after a repair of it
	seen   map[seenKey]bool            // values sent outside the repairs' window
	named  map[string]bool             // the fields seen has values of
}

// plausibility of the case, once futureValues has run.
func (c *Case) plausibility() plausibility {
	before, after := LookupIn(c.Before), LookupIn(c.after)
	return plausibility{future: c.future, seen: c.seen, named: c.named, exists: func(index, serial int) bool {
		return before(index, serial) || after(index, serial)
	}}
}

// editCost is how implausible a what-if's decode is over the part of the
// message where the candidates differ, from bit lo to bit hi: each value's
// cost (fieldCost), added up. Every candidate ranked decodes aligned.
func (p plausibility) editCost(rec *provenance.Message, lo, hi uint) float64 {
	cost := 0.0
	for i := range rec.Fields {
		if f := &rec.Fields[i]; within(f, lo, hi) {
			cost += p.fieldCost(rec, f)
		}
	}
	return cost
}

// within reports whether a field's value or its path lies from bit lo to
// bit hi: an edit among an update's paths changes values read far after.
func within(f *provenance.Field, lo, hi uint) bool {
	return f.Start >= lo && f.Start < hi || f.Op.Start >= lo && f.Op.Start < hi
}

// fieldCost is how implausible one value of a recorded message is: its
// anomalies (the handle rule against the entities the repair leaves), how
// far it lies from what its neighbours in time lead one to expect, and its
// intrinsic look (a short decimal, the magnitude of its neighbours).
func (p plausibility) fieldCost(rec *provenance.Message, f *provenance.Field) float64 {
	next, ok := p.future[futureKey{rec.Updates[f.Update].Index, f.Path}]
	prev := f.Prev // a created entity's comes from its instance baseline, a recent state
	cost := weight(Field(f, p.exists)) + expectedChange(prev, next, f.Value, ok, scaleOf(f.Decoder))
	if ok || prev.Kind != decoder.KindNone {
		// A value its neighbours in time vouch for: a repair that reads
		// one more of those is the likelier, not the costlier.
		cost -= agreement
	}
	return cost + digitsCost(f) + magnitudeCost(prev, next, f.Value, ok) + p.unseenCost(f)
}

// seenKey is a discrete value of a field, by the field's name without
// element indexes (every element of m_hMyWeapons is one field here).
type seenKey struct {
	name string
	kind decoder.Kind
	u    uint64
}

// unseenCost is what an id, handle, enum or string that the field holds
// nowhere else costs: a model handle, a weapon name or a team number
// recurs across entities and messages, while a misread is new.
const unseenCost = 0.02

func (p plausibility) unseenCost(f *provenance.Field) float64 {
	k, ok := keyOf(f.Name, f.Value)
	if !ok || !p.named[k.name] || p.seen[k] {
		return 0
	}
	return unseenCost
}

// keyOf is a field's value as a seenKey, where the value is discrete.
func keyOf(name string, v decoder.Value) (seenKey, bool) {
	switch v.Kind {
	case decoder.KindUint, decoder.KindInt, decoder.KindHandle, decoder.KindString:
	default:
		return seenKey{}, false
	}
	// m_hMyWeapons.0003 is m_hMyWeapons; m_vecDataTeam.0003.m_iKills
	// is m_vecDataTeam.m_iKills.
	b := make([]byte, 0, len(name))
	for i := 0; i < len(name); {
		j := i
		for j < len(name) && name[j] != '.' {
			j++
		}
		part := name[i:j]
		digits := len(part) > 0
		for k := 0; k < len(part); k++ {
			digits = digits && part[k] >= '0' && part[k] <= '9'
		}
		if !digits {
			if len(b) > 0 {
				b = append(b, '.')
			}
			b = append(b, part...)
		}
		i = j + 1
	}
	return seenKey{name: string(b), kind: v.Kind, u: v.U}, true
}

// learnValues keeps the discrete values the message sends outside the
// window from bit lo to bit end, where every repair reads the same (the
// unedited decode before lo, rec from end, a repair's record), and those
// the next messages send.
func (c *Case) learnValues(rec *provenance.Message, lo, end uint) {
	c.seen, c.named = map[seenKey]bool{}, map[string]bool{}
	add := func(name string, v decoder.Value) {
		if k, ok := keyOf(name, v); ok {
			c.seen[k], c.named[k.name] = true, true
		}
	}
	for i := range c.Record.Fields {
		if f := &c.Record.Fields[i]; f.Start < lo {
			add(f.Name, f.Value)
		}
	}
	if rec != nil {
		for i := range rec.Fields {
			if f := &rec.Fields[i]; f.Start >= end {
				add(f.Name, f.Value)
			}
		}
	}
	for i := range c.nextRecs {
		for j := range c.nextRecs[i].Fields {
			f := &c.nextRecs[i].Fields[j]
			add(f.Name, f.Value)
		}
	}
}

// scaleOf is the span a field's values move in, where its decoder says:
// a quantized float's range, an angle's 360 degrees; 0 where it does not
// (a change is then measured against the value's own size).
func scaleOf(d *decoder.Decoder) float64 {
	if d == nil {
		return 0
	}
	switch d.Family {
	case decoder.FamQuantized:
		if d.Q != nil && d.Q.High > d.Q.Low {
			return float64(d.Q.High - d.Q.Low)
		}
	case decoder.FamQAngleBits, decoder.FamQAngleCoord, decoder.FamQAnglePitchYaw, decoder.FamQAnglePrecise:
		return 360
	case decoder.FamVector:
		return scaleOf(d.Elem)
	}
	return 0
}

// expectedChange is how far v is from what the values around it lead one
// to expect: game state moves gradually, so a number lies near the middle
// of the one before it and the one after it when it moves steadily, or at
// either when it steps (a little worse); a misread lies anywhere. scale is
// the field's span (scaleOf), or 0.
func expectedChange(prev, next, v decoder.Value, haveNext bool, scale float64) float64 {
	if prev.Kind == decoder.KindNone {
		if !haveNext {
			// Nothing to compare with: a field never sent before nor
			// after, which a misread path names more often than a real
			// one does.
			return noEvidence
		}
		return change(next, v, scale)
	}
	if !haveNext {
		if (v.Kind == decoder.KindInt || v.Kind == decoder.KindUint) && prev.Kind == v.Kind {
			// Counters, enums and indexes jump: with nothing after it,
			// how far an integer moved says little, mostly whether it did
			// (and a little, how far in bits).
			return jump(prev, v)
		}
		return change(prev, v, scale)
	}
	pv, okP := number(prev)
	n, okN := number(next)
	x, okX := number(v)
	if okP && okN && okX && prev.Kind == v.Kind && next.Kind == v.Kind {
		mid := (pv + n) / 2
		c := min(relative(mid, x, scale), change(prev, v, scale)+step, change(next, v, scale)+step)
		if v.Kind == decoder.KindInt || v.Kind == decoder.KindUint {
			// Or an enum or flags that jumped to or from v.
			c = min(c, jump(prev, v)+step, jump(next, v)+step)
		}
		return c
	}
	if prev.Kind == decoder.KindVector && next.Kind == decoder.KindVector && v.Kind == decoder.KindVector && prev.N == v.N && next.N == v.N {
		mid := prev
		for i := 0; i < int(v.N); i++ {
			mid.F[i] = (prev.F[i] + next.F[i]) / 2
		}
		return min(change(mid, v, scale), change(prev, v, scale)+step, change(next, v, scale)+step)
	}
	return min(change(prev, v, scale), change(next, v, scale))
}

// change is Change with numbers measured against the field's scale when
// it has one, strings by the start they share, handles by being the same.
func change(prev, v decoder.Value, scale float64) float64 {
	switch {
	case prev.Kind == decoder.KindString && v.Kind == decoder.KindString:
		a, b := prev.Str(), v.Str()
		if a == b {
			return 0
		}
		n := 0
		for n < len(a) && n < len(b) && a[n] == b[n] {
			n++
		}
		return 0.5 * (1 - float64(n)/float64(max(len(a), len(b))))
	case prev.Kind == decoder.KindHandle && v.Kind == decoder.KindHandle:
		// An entity or another: how near two handles' numbers lie says
		// nothing.
		if prev.U == v.U {
			return 0
		}
		return 0.5
	case scale <= 0 || prev.Kind != v.Kind:
		return Change(prev, v)
	case v.Kind == decoder.KindFloat:
		return relative(prev.F[0], v.F[0], scale)
	case v.Kind == decoder.KindVector && prev.N == v.N && v.N > 0:
		sum := 0.0
		for i := 0; i < int(v.N); i++ {
			sum += relative(prev.F[i], v.F[i], scale)
		}
		return sum / float64(v.N)
	}
	return Change(prev, v)
}

// jump is what an integer's moving from prev to v costs where integers
// jump (counters, enums, flags, indexes): whether it moved, and a little,
// growing with how many bits the move takes (a health of 582 does not
// become 513796).
func jump(prev, v decoder.Value) float64 {
	if prev.U == v.U {
		return 0
	}
	a, b := prev.U, v.U
	if v.Kind == decoder.KindInt {
		a, b = uint64(prev.Int64()-math.MinInt64), uint64(v.Int64()-math.MinInt64)
	}
	d := a - b
	if b > a {
		d = b - a
	}
	n := float64(bits.Len64(d)) / 8
	return step * (1 + n*n)
}

// relative is how far b is from a, against scale (or a's own size), at
// most 1.
func relative(a, b, scale float64) float64 {
	den := math.Abs(a) + 1
	if scale > 0 {
		den = scale
	}
	d := math.Abs(a-b) / den
	if math.IsNaN(d) {
		return 1
	}
	return math.Min(d, 1)
}

// noEvidence is what a value with no neighbour in time costs: about what a
// value sent costs against its neighbours.
const noEvidence = 0.03

// agreement is what a value with a neighbour in time earns: more than a
// value that moves steadily costs, less than a misread.
const agreement = 0.02

// step is what being equal to a neighbour rather than between them, or
// an integer's moving at all, costs.
const step = 0.01

// number is a scalar value as a float64.
func number(v decoder.Value) (float64, bool) {
	switch v.Kind {
	case decoder.KindFloat:
		return v.F[0], !math.IsNaN(v.F[0])
	case decoder.KindUint:
		return float64(v.U), true
	case decoder.KindInt:
		return float64(v.Int64()), true
	}
	return 0, false
}

// digitCost is what each significant decimal digit of a raw float costs:
// a value set by hand or by config is a short decimal (0.25, 0.001713),
// while the same bits read one place off need seven to nine digits. Real
// computed values need as many, so this only tells apart repairs that
// differ in a short value.
const digitCost = 0.003

// maxDigits is where digits stop counting: a value computed by the game
// needs six to nine, and which of those it needs says nothing.
const maxDigits = 6

// digitsCost is digitCost per significant digit a raw 32-bit float (each
// component of a vector of them) needs fewer than maxDigits, taken off: a
// bonus, so that reading one more float costs nothing in itself.
func digitsCost(f *provenance.Field) float64 {
	d := f.Decoder
	if d == nil {
		return 0
	}
	if d.Family == decoder.FamVector && d.Elem != nil {
		d = d.Elem
	}
	if d.Family != decoder.FamNoScale {
		return 0
	}
	v := f.Value
	n := 1
	if v.Kind == decoder.KindVector {
		n = int(v.N)
	} else if v.Kind != decoder.KindFloat {
		return 0
	}
	cost := 0.0
	for i := 0; i < n; i++ {
		cost -= digitCost * float64(maxDigits-min(significantDigits(v.F[i]), maxDigits))
	}
	return cost
}

// significantDigits counts the digits of the shortest decimal that reads
// back as x in 32 bits (0 for zero, 9 for what is not finite).
func significantDigits(x float64) int {
	if x == 0 {
		return 0
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 9
	}
	s := strconv.FormatFloat(x, 'e', -1, 32)
	n := 0
	for _, c := range s {
		if c == 'e' {
			break
		}
		if c >= '0' && c <= '9' {
			n++
		}
	}
	return n
}

// magnitudeCost is what a float's leaving the magnitude of its neighbours
// costs (each component of a vector against the same component): a speed
// of 1e-26 stays about that small, while a misread jumps decades. A change
// measured against the value's size (Change) cannot see it among numbers
// far below 1. With no neighbour of any size, a float below 1e-20 costs a
// little: the low bits of a small integer or of flags read as a float.
func magnitudeCost(prev, next, v decoder.Value, haveNext bool) float64 {
	n := 0
	switch v.Kind {
	case decoder.KindFloat:
		n = 1
	case decoder.KindVector:
		n = int(v.N)
	}
	cost := 0.0
	for c := 0; c < n; c++ {
		var around []float64
		for i, w := range []decoder.Value{prev, next} {
			if w.Kind == v.Kind && w.N == v.N && w.F[c] != 0 && (i == 0 || haveNext) {
				around = append(around, w.F[c])
			}
		}
		cost += magnitude(v.F[c], around)
	}
	return cost
}

// magnitude is magnitudeCost for one number x and its nonzero neighbours.
func magnitude(x float64, around []float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	l := math.Log10(math.Abs(x))
	if len(around) == 0 {
		if l < -20 {
			return 0.02
		}
		return 0
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, a := range around {
		if math.IsInf(a, 0) || math.IsNaN(a) {
			return 0
		}
		la := math.Log10(math.Abs(a))
		lo, hi = math.Min(lo, la), math.Max(hi, la)
	}
	out := max(lo-l, l-hi, 0)
	return 0.05 * math.Min(1, out/8)
}

// futureKey names a value: an entity and a field path.
type futureKey struct {
	index int32
	path  fieldpath.Path
}

// futureValues decodes the messages after the case's one from after (the
// table as a repair of it leaves it) and keeps the first value each sends
// for each entity's field; after is kept for the handles a repair's
// values name. Messages after do not depend on the values the repairs
// disagree on, only on which entities exist, so one repair's table serves
// for all. Computed once.
func (c *Case) futureValues(after *entity.Table) map[futureKey]decoder.Value {
	if c.future != nil {
		return c.future
	}
	c.after = after
	c.future = map[futureKey]decoder.Value{}
	t := after.Snapshot()
	for i := range c.Next {
		// Only a message that decodes aligned tells what came next: one
		// that does not is misread as the damaged one may be.
		rec := &provenance.Message{}
		if res := t.Apply(&c.Next[i], rec); !aligns(res) {
			break
		}
		c.nextRecs = append(c.nextRecs, rec)
		for j := range rec.Fields {
			f := &rec.Fields[j]
			k := futureKey{rec.Updates[f.Update].Index, f.Path}
			if _, ok := c.future[k]; !ok {
				c.future[k] = f.Value
			}
		}
	}
	return c.future
}
