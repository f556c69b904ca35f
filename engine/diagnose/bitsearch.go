package diagnose

import (
	"fmt"
	"math"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/provenance"
)

// BitWindow is how many bits before the point where a misaligned message
// stops making sense the search for a dropped or added bit covers, every
// bit of it; MaxBitDecodeBits bounds what those trials decode in all (in
// multiples of the message's size, and at least minBitDecodeBits).
const (
	BitWindow        = 768
	MaxBitDecodeBits = 48
	maxRecorded      = 96      // trials that align, decoded again with recording
	minBitDecodeBits = 8 << 20 // a small message's search may decode this much
	// sensibleFor is how far past the window a trial must read sensibly
	// to be decoded to the end: garbage shows well within it.
	sensibleFor = 4096
)

// SensibleUntil is the bit where a recorded message stops making sense:
// its first value with a strong anomaly (a read by the default decoder is
// none: the seed's rule for enums and ids), else where its decode stopped.
func SensibleUntil(m *provenance.Message, rep Report) uint {
	for i, as := range rep.Anomalies {
		for _, a := range as {
			if a.Rule != Fallback && a.Score >= Threshold {
				return min(m.Fields[i].Start, m.EndBit)
			}
		}
	}
	return m.EndBit
}

// checkpoint is the table at an update boundary of the message, to resume
// a what-if from.
type checkpoint struct {
	at    entity.Resume
	table *entity.Table
}

// checkpoints decodes the message unedited from the snapshot before it and
// keeps the table at every update boundary from the last one at or before
// lo up to hi.
func (c *Case) checkpoints(lo, hi uint) []checkpoint {
	t := c.Before.Snapshot()
	var cps []checkpoint
	t.OnUpdate = func(at entity.Resume) {
		if at.Bit > hi {
			return
		}
		if at.Bit <= lo && len(cps) > 0 && cps[len(cps)-1].at.Bit <= lo {
			cps = cps[:0] // a later one at or before lo will do
		}
		cps = append(cps, checkpoint{at: at, table: t.Snapshot()})
	}
	t.ApplyWhatIf(&c.Msg, nil, entity.WhatIf{Occurrence: -1})
	t.OnUpdate = nil
	return cps
}

// bitEdit is one trial of the bit search.
type bitEdit struct {
	w      entity.WhatIf
	cost   float64
	rec    *provenance.Message
	rep    Report
	lo, hi uint // the bits its cost was counted over
}

// symptoms are the places a misaligned message may have gone wrong at, in
// the order searched: its first path out of order or outside the
// serializer (no real replay has one), its first value with a strong
// anomaly, where its decode stopped. A real value can trip a value rule (a
// 64-bit id read as a 32-bit varint), so each is searched in turn.
func symptoms(m *provenance.Message, rep Report) []uint {
	var out []uint
	add := func(b uint) {
		for _, x := range out {
			if x == b {
				return
			}
		}
		out = append(out, b)
	}
	if i := firstStructural(rep); i >= 0 {
		add(m.Fields[i].Start)
	}
	add(SensibleUntil(m, rep))
	add(m.EndBit)
	return out
}

// firstStructural is the first field of a report with a path out of order
// or outside the serializer, or -1.
func firstStructural(rep Report) int {
	for i, as := range rep.Anomalies {
		for _, a := range as {
			if a.Rule == PathOrder || a.Rule == PathOutside {
				return i
			}
		}
	}
	return -1
}

// windowsBack is how many windows before each symptom are searched, the
// nearest first.
const windowsBack = 3

// searchBits tries, at every bit from a symptom back over BitWindow bits
// (and windowsBack windows before that while nothing aligns), inserting a
// 0, inserting a 1 and dropping the bit there. Each trial resumes from the
// update boundary before the edit, so it decodes only what follows, and
// stops at the first path out of order. Those that make the message align
// are decoded again with recording from the window's first boundary and
// ranked by the anomalies and the change of values against the entities'
// previous ones (editCost): the edit that puts back the original bits
// restores the original values. Of equal costs the latest edit wins, the
// one nearest the first symptom. ambiguous counts the positions (a run of
// equal bits) where the winning edit gives the same data.
func (c *Case) searchBits() (best *bitEdit, ambiguous uint) {
	data := uint(len(c.Msg.EntityData)) * 8
	budget := max(int64(MaxBitDecodeBits)*int64(data), minBitDecodeBits)
	searched := map[uint]bool{} // window ends already searched
	for _, at := range symptoms(c.Record, c.Report) {
		hi := min(at+16, data)
		for k := 0; k < windowsBack && best == nil && budget > 0; k++ {
			if !searched[hi] {
				searched[hi] = true
				best = c.searchWindow(hi, &budget)
			}
			if hi <= BitWindow {
				break
			}
			hi -= BitWindow
		}
		if best != nil || budget <= 0 {
			break
		}
	}
	if best == nil {
		return nil, 0
	}
	// The winner decoded whole, for the record every view shows.
	res, rec, rep := c.Try(best.w)
	if !aligns(res) {
		return nil, 0
	}
	best.rec, best.rep = rec, rep
	if best.w.Insert > 0 {
		ambiguous = c.equalRun(best.w)
	}
	return best, ambiguous
}

// aligns reports whether a decode ended where its data does, with no
// error and no deletion of a missing entity.
func aligns(res entity.Result) bool {
	return !res.Misaligned && res.Err == nil && res.BadDeletions == 0
}

// editCost is how implausible a what-if's decode is over the part of the
// message where the candidates differ, from bit lo to bit hi: the
// anomalies of its values and how far they are from the entities'
// previous values and, where future has them, the next ones, added up.
func editCost(rec *provenance.Message, rep Report, lo, hi uint, future map[futureKey]decoder.Value) float64 {
	cost := 0.0
	for i := range rec.Fields {
		f := &rec.Fields[i]
		if f.Start < lo || f.Start >= hi {
			continue
		}
		next, ok := future[futureKey{rec.Updates[f.Update].Index, f.Path}]
		cost += expectedChange(f.Prev, next, f.Value, ok) + weight(rep.Anomalies[i])
	}
	if rep.End != nil {
		cost += rep.End.Score
	}
	return cost
}

func (c *Case) searchWindow(hi uint, budget *int64) *bitEdit {
	lo := uint(0)
	if hi > BitWindow {
		lo = hi - BitWindow
	}
	cps := c.checkpoints(lo, hi)
	if len(cps) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var aligned []entity.WhatIf
	for q := hi; q+1 > lo && *budget > 0 && len(aligned) < maxRecorded; q-- {
		cp := cps[0]
		for _, k := range cps {
			if k.at.Bit <= q {
				cp = k
			}
		}
		if cp.at.Bit > q {
			break
		}
		for _, w := range []entity.WhatIf{
			{Occurrence: -1, Bit: q, Insert: 1}, {Occurrence: -1, Bit: q, Insert: 1, InsertValue: 1}, {Occurrence: -1, Bit: q, Skip: 1},
		} {
			// A run of equal bits: the same data as an edit already tried.
			key := string(w.Edit(c.Msg.EntityData))
			if seen[key] {
				continue
			}
			seen[key] = true
			from := cp.at
			w.From = &from
			// Far enough past the symptom without a path out of order or
			// an error: a candidate, decoded to the end below.
			w.StopAt = hi + sensibleFor
			t := cp.table.Snapshot()
			res := t.ApplyWhatIf(&c.Msg, nil, w)
			*budget -= int64(res.EndBit - min(res.EndBit, cp.at.Bit))
			if aligns(res) || res.Unfinished {
				w.StopAt = 0
				aligned = append(aligned, w)
			}
		}
		if q == 0 {
			break
		}
	}
	var best *bitEdit
	first := cps[0]
	for _, w := range aligned {
		// Recorded from the window's first boundary: what comes before is
		// the same for every trial.
		from := first.at
		w.From = &from
		t := first.table.Snapshot()
		rec := &provenance.Message{}
		res := t.ApplyWhatIf(&c.Msg, rec, w)
		if !aligns(res) {
			continue
		}
		w.From = nil
		future := c.futureValues(t)
		e := &bitEdit{w: w, cost: editCost(rec, Message(rec, LookupIn(c.Before)), lo, hi+64, future)}
		if best == nil || e.cost < best.cost-1e-9 {
			best = e
		}
	}
	if best != nil {
		best.lo, best.hi = lo, hi+64
	}
	return best
}

// equalRun counts the positions at which the same insertion gives the
// same edited data: the inserted bit joins a run of equal bits, and the
// data cannot say where in the run the bit was lost.
func (c *Case) equalRun(w entity.WhatIf) uint {
	want := string(w.Edit(c.Msg.EntityData))
	n := uint(1)
	for q := w.Bit; q > 0 && n < 64; q-- {
		v := w
		v.Bit = q - 1
		if string(v.Edit(c.Msg.EntityData)) != want {
			break
		}
		n++
	}
	for q := w.Bit + 1; n < 64; q++ {
		v := w
		v.Bit = q
		if q >= uint(len(c.Msg.EntityData))*8 || string(v.Edit(c.Msg.EntityData)) != want {
			break
		}
		n++
	}
	return n
}

func explainAmbiguity(n uint) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf(" (ambiguous: the bit joins a run of %d equal bits, and inserting it anywhere in the run gives the same data)", n)
}

// futureKey names a value: an entity and a field path.
type futureKey struct {
	index int32
	path  fieldpath.Path
}

// futureValues decodes the messages after the case's one from after (the
// table as a repair of it leaves it) and keeps the first value each sends
// for each entity's field. Messages after do not depend on the values the
// repairs disagree on, only on which entities exist, so one repair's table
// serves for all. Computed once.
func (c *Case) futureValues(after *entity.Table) map[futureKey]decoder.Value {
	if c.future != nil {
		return c.future
	}
	c.future = map[futureKey]decoder.Value{}
	t := after.Snapshot()
	rec := &provenance.Message{}
	for i := range c.Next {
		// Only a message that decodes aligned tells what came next: one
		// that does not is misread as the damaged one may be.
		if res := t.Apply(&c.Next[i], rec); !aligns(res) {
			break
		}
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

// expectedChange is how far v is from what the values around it lead one
// to expect: game state moves gradually, so a number lies near the middle
// of the one before it and the one after it when it moves steadily, or at
// either when it steps (a little worse); a misread lies anywhere.
func expectedChange(prev, next, v decoder.Value, haveNext bool) float64 {
	if prev.Kind == decoder.KindNone {
		if !haveNext {
			return 0 // nothing to compare with: no evidence either way
		}
		return Change(next, v)
	}
	if !haveNext {
		if (v.Kind == decoder.KindInt || v.Kind == decoder.KindUint) && prev.Kind == v.Kind {
			// Counters, enums and indexes jump: with nothing after it,
			// how far an integer moved says little, only whether it did.
			if prev.U == v.U {
				return 0
			}
			return step
		}
		return Change(prev, v)
	}
	p, okP := number(prev)
	n, okN := number(next)
	x, okX := number(v)
	if okP && okN && okX && prev.Kind == v.Kind && next.Kind == v.Kind {
		mid := (p + n) / 2
		d := math.Abs(x-mid) / (math.Abs(mid) + 1)
		return min(math.Min(d, 1), Change(prev, v)+step, Change(next, v)+step)
	}
	if prev.Kind == decoder.KindVector && next.Kind == decoder.KindVector && v.Kind == decoder.KindVector && prev.N == v.N && next.N == v.N {
		mid := prev
		for i := 0; i < int(v.N); i++ {
			mid.F[i] = (prev.F[i] + next.F[i]) / 2
		}
		return min(Change(mid, v), Change(prev, v)+step, Change(next, v)+step)
	}
	return min(Change(prev, v), Change(next, v))
}

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
