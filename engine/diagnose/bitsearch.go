package diagnose

import (
	"fmt"
	"math"
	"sort"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/provenance"
)

// BitWindow is how many bits before the point where a misaligned message
// stops making sense the search for a dropped or added bit covers, every
// bit of it; MaxBitDecodeBits bounds what those trials decode in all (in
// multiples of the message's size, and at least minBitDecodeBits).
const (
	BitWindow        = 768
	MaxBitDecodeBits = 48
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

// symptomEnd is the bit after the value that starts at a symptom (a long
// varint or string can hold the damage that made it odd), or the symptom.
func (c *Case) symptomEnd(at uint) uint {
	for i := range c.Record.Fields {
		if f := &c.Record.Fields[i]; f.Start == at {
			return at + f.Bits
		}
	}
	return at
}

// windowsBack is how many windows before each symptom are searched, the
// nearest first.
const windowsBack = 5

// searchBits tries, at every bit from a symptom back over BitWindow bits
// (and windowsBack windows before that while nothing aligns), inserting a
// 0, inserting a 1 and dropping the bit there (searchWindow). Each trial
// resumes from the update boundary before the edit, so it decodes only
// what follows, and stops at the first path out of order or a little past
// the window. Those that read sensibly are recorded over the window and
// ranked by how plausible their values are there (plausible.go): the edit
// that puts back the original bits restores the original values. The
// cheapest that decodes to the end aligned wins; of equal costs the latest
// edit, the one nearest the first symptom. ambiguous counts the positions
// (a run of equal bits) where the winning edit gives the same data.
func (c *Case) searchBits() (best *bitEdit, ambiguous uint) {
	data := uint(len(c.Msg.EntityData)) * 8
	budget := max(int64(MaxBitDecodeBits)*int64(data), minBitDecodeBits)
	searched := map[uint]bool{} // window ends already searched
	for _, at := range symptoms(c.Record, c.Report) {
		hi := min(c.symptomEnd(at)+16, data)
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

// spent is what a trial's decode from bit from, of an edit at bit q,
// costs the budget: the bits it read past the edit, and a 32nd of those
// before it (a full frame's long update is read again from its start by
// every trial inside it, quickly: nothing differs there).
func spent(res entity.Result, from, q uint) int64 {
	end := max(res.EndBit, from)
	q = min(max(q, from), end)
	return int64(end-q) + int64(q-from)/32
}

// searchWindow is searchBits over the window of BitWindow bits that ends
// at bit hi: nil when no edit there makes the message decode aligned.
func (c *Case) searchWindow(hi uint, budget *int64) *bitEdit {
	lo := uint(0)
	if hi > BitWindow {
		lo = hi - BitWindow
	}
	cps := c.checkpoints(lo, hi)
	if len(cps) == 0 {
		return nil
	}
	// Every edit, resumed from the boundary before it and read far
	// enough past the window to tell garbage.
	bit := func(q uint) uint64 { return uint64(c.Msg.EntityData[q/8] >> (q % 8) & 1) }
	data := uint(len(c.Msg.EntityData)) * 8
	var alive []trial
	for q := hi; q+1 > lo && *budget > 0; q-- {
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
			// A run of equal bits: the same data as an edit already tried
			// (inserting v before a bit v is inserting it after; dropping
			// either of two equal bits is the same).
			if q+1 < data && q < hi && (w.Insert > 0 && bit(q) == w.InsertValue || w.Skip > 0 && bit(q) == bit(q+1)) {
				continue
			}
			from := cp.at
			w.From = &from
			// Far enough past the symptom without a path out of order or
			// an error: a candidate, decoded to the end when ranked.
			w.StopAt = hi + sensibleFor
			res := cp.table.Snapshot().ApplyWhatIf(&c.Msg, nil, w)
			*budget -= spent(res, cp.at.Bit, q)
			if aligns(res) || res.Unfinished {
				alive = append(alive, trial{w: w, cp: cp})
			}
		}
		if q == 0 {
			break
		}
	}
	// Each candidate recorded over the window (and a little past it): the
	// values before its boundary are the unedited message's.
	end := hi + 64
	rec := &provenance.Message{}
	for i := range alive {
		tr := &alive[i]
		w := tr.w
		w.StopAt, w.WholeAfter = end, lo
		res := tr.cp.table.Snapshot().ApplyWhatIf(&c.Msg, rec, w)
		*budget -= spent(res, tr.cp.at.Bit, tr.w.Bit)
		// Only what is costed is kept: hundreds of trials in a full
		// frame's long update would otherwise hold its every value each.
		kept := &provenance.Message{Updates: append([]provenance.EntityUpdate(nil), rec.Updates...)}
		for i := range rec.Fields {
			if within(&rec.Fields[i], lo, end) {
				kept.Fields = append(kept.Fields, rec.Fields[i])
			}
		}
		tr.rec = kept
	}
	// The values the message's entities send next and the values the
	// message sends outside the window, from the first candidate (by a
	// ranking without them) that decodes to the end.
	if c.future == nil {
		c.rank(alive, lo, end)
		for i := range alive {
			if i >= maxVerified || *budget <= 0 {
				return nil
			}
			if t, rec, ok := c.finish(&alive[i], budget, true); ok {
				c.futureValues(t)
				c.learnValues(rec, lo, end)
				break
			}
		}
		if c.future == nil {
			return nil
		}
	}
	// The cheapest that decodes to the end aligned wins; of equal costs the
	// latest edit, the one nearest the symptom (alive runs backwards).
	c.rank(alive, lo, end)
	for i := range alive {
		if i >= maxVerified || *budget <= 0 {
			break
		}
		if _, _, ok := c.finish(&alive[i], budget, false); ok {
			w := alive[i].w
			w.From, w.StopAt = nil, 0
			return &bitEdit{w: w, cost: alive[i].cost, lo: lo, hi: end}
		}
	}
	return nil
}

// rank costs each trial over bits lo to end with what the case knows so
// far (plausibility) and sorts them, cheapest first, keeping the order of
// equal costs.
func (c *Case) rank(alive []trial, lo, end uint) {
	p := c.plausibility()
	prefix := c.prefixCosts(p, lo)
	for i := range alive {
		tr := &alive[i]
		tr.cost = p.editCost(tr.rec, max(lo, tr.cp.at.Bit), end) + prefix(tr.cp.at.Bit)
	}
	sort.SliceStable(alive, func(i, j int) bool { return alive[i].cost < alive[j].cost-1e-9 })
}

// maxVerified bounds how many ranked candidates are decoded to the end in
// search of one that aligns.
const maxVerified = 16

// trial is an edit of the bit search that reads sensibly past its window.
type trial struct {
	w    entity.WhatIf
	cp   checkpoint
	rec  *provenance.Message // from its boundary to a little past the window
	cost float64
}

// finishStops are how far past the window a trial is decoded before it is
// decoded to the end: garbage that read sensibly for a while stops sooner.
var finishStops = []uint{1 << 14, 1 << 17}

// finish decodes a trial to the end of the message from its boundary
// (recorded when record is set) and returns the table it leaves and
// whether it aligns.
func (c *Case) finish(tr *trial, budget *int64, record bool) (*entity.Table, *provenance.Message, bool) {
	data := uint(len(c.Msg.EntityData)) * 8
	for _, d := range finishStops {
		w := tr.w
		if w.StopAt = w.StopAt + d; w.StopAt >= data {
			break
		}
		res := tr.cp.table.Snapshot().ApplyWhatIf(&c.Msg, nil, w)
		*budget -= spent(res, tr.cp.at.Bit, tr.w.Bit)
		if !res.Unfinished {
			if !aligns(res) {
				return nil, nil, false
			}
			break
		}
	}
	w := tr.w
	w.StopAt = 0
	t := tr.cp.table.Snapshot()
	var rec *provenance.Message
	if record {
		rec = &provenance.Message{}
	}
	res := t.ApplyWhatIf(&c.Msg, rec, w)
	*budget -= spent(res, tr.cp.at.Bit, tr.w.Bit)
	return t, rec, aligns(res)
}

// prefixCosts returns, for a boundary bit, the cost of the unedited
// message's values from bit lo up to it: what a candidate resumed there
// shares with the message as decoded.
func (c *Case) prefixCosts(p plausibility, lo uint) func(uint) float64 {
	var starts []uint
	var sums []float64
	sum := 0.0
	for i := range c.Record.Fields {
		f := &c.Record.Fields[i]
		if !within(f, lo, math.MaxUint) {
			continue
		}
		sum += p.fieldCost(c.Record, f)
		starts, sums = append(starts, f.Start), append(sums, sum)
	}
	return func(b uint) float64 {
		n := sort.Search(len(starts), func(i int) bool { return starts[i] >= b })
		if n == 0 {
			return 0
		}
		return sums[n-1]
	}
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
