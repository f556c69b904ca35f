package compare

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// A parser often numbers ticks otherwise than the demo commands dembug goes
// by (the server's net_Tick, say, or ticks from the game's start): every
// read then looks missing on our side and extra on theirs, and the first
// difference says nothing of why. The comparer keeps a sample of both
// sides' reads of their first ticks and, when fewer than half of their
// reads agree, looks for the one tick shift under which most of the sample
// does.

const (
	// shiftTicks is how many of their first ticks are sampled; ours are
	// from shiftWindow before the first to shiftWindow after the last,
	// the largest shift found.
	shiftTicks  = 64
	shiftWindow = 128
	// shiftReads bounds each side's sample.
	shiftReads = 1 << 14
	// shiftTicksPerValue bounds the ticks one (entity, field, value) is
	// looked for at: a field holding 0 at every tick tells no shift.
	shiftTicksPerValue = 4
	// shiftPerTick bounds the reads of one tick of theirs sampled: a full
	// frame's thousands, at a tick ours may lack, would outweigh the rest.
	shiftPerTick = 64
)

// TickShift is a constant difference between their ticks and ours under
// which their reads agree with ours: their tick is ours plus By.
type TickShift struct {
	By      int64
	Agree   int // sampled reads of theirs that agree once shifted
	Sampled int // their reads sampled
}

// sampleKey is a read as the shift search matches it: where, what and
// the value.
type sampleKey struct {
	entity int32
	name   string
	value  string
}

// shiftSample is what the comparer keeps for the search: reads as they
// came (values are normalised only if the search runs).
type shiftSample struct {
	ours   []ourSample
	theirs []*Read
	// net maps the server's tick at each packet-entities message to its
	// demo tick (the first message's), where the two differ.
	net map[int64]int64
}

// NetTicks says their trace is ticked by the server's tick (net_Tick)
// where the file's demo commands carry another: of their Ticks distinct
// ticks, Net are server ticks of packet-entities messages; Example is
// one of them and Demo its demo tick.
type NetTicks struct {
	Ticks, Net    int
	Example, Demo int64
}

// NetTick notes the server's tick at a packet-entities message of demo
// tick demo.
func (c *Comparer) NetTick(demo, net int64) {
	if demo == net {
		return
	}
	if c.shift.net == nil {
		c.shift.net = map[int64]int64{}
	}
	if _, ok := c.shift.net[net]; !ok {
		c.shift.net[net] = demo
	}
}

// netTicks is NetTicks when at least nine in ten of their ticks are
// server ticks that differ from the demo tick, else nil.
func (c *Comparer) netTicks() *NetTicks {
	if len(c.shift.net) == 0 || len(c.ticks) == 0 {
		return nil
	}
	n := &NetTicks{Ticks: len(c.ticks), Example: -1}
	for _, t := range c.ticks {
		if d, ok := c.shift.net[t]; ok {
			n.Net++
			if n.Example < 0 {
				n.Example, n.Demo = t, d
			}
		}
	}
	if n.Net*10 < n.Ticks*9 {
		return nil
	}
	return n
}

// sampleValue is a read's value as both sides may write it: numbers in a
// normal form (parsers print floats with more or fewer digits), arrays of
// them without spaces, anything else as written.
func sampleValue(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	return string(appendSampleValue(nil, v))
}

func appendSampleValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case float64:
		return strconv.AppendFloat(b, x, 'g', 6, 64)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendSampleValue(b, e)
		}
		return append(b, ']')
	}
	q, _ := json.Marshal(v)
	return append(b, q...)
}

// ourSample is one of our reads kept for the search. The value's bytes
// are the decode's, which it never reuses.
type ourSample struct {
	tick   int64
	entity int32
	name   string
	value  []byte
}

// addOurs samples our reads of one tick inside the scope's sample span.
func (s *shiftSample) addOurs(tick int64, ours []Read, scope *Scope) {
	if !scope.Sample.Has(tick) {
		return
	}
	for i := range ours {
		r := &ours[i]
		if len(s.ours) >= shiftReads {
			return
		}
		if !r.Baseline && scope.HasEntity(r.Entity) {
			s.ours = append(s.ours, ourSample{tick, r.Entity, r.Name, r.Value})
		}
	}
}

// find is the shift under which most of their sample agrees with ours, or
// nil when none does: agreeing must hold for at least half of the sample
// and for twice as many reads as agree unshifted.
func (s *shiftSample) find() *TickShift {
	if len(s.theirs) == 0 || len(s.ours) == 0 {
		return nil
	}
	at := map[sampleKey][]int64{} // our ticks of each read, up to shiftTicksPerValue
	for _, o := range s.ours {
		k := sampleKey{o.entity, o.name, sampleValue(o.value)}
		if ts := at[k]; len(ts) < shiftTicksPerValue && (len(ts) == 0 || ts[len(ts)-1] != o.tick) {
			at[k] = append(ts, o.tick)
		}
	}
	votes := map[int64]int{}
	for _, r := range s.theirs {
		ts := at[sampleKey{r.Entity, r.Name, sampleValue(r.Value)}]
		for i, t := range ts {
			if !slices.Contains(ts[:i], t) { // a read votes for a shift once
				votes[r.Tick-t]++
			}
		}
	}
	best := &TickShift{Sampled: len(s.theirs)}
	for d, n := range votes {
		if d != 0 && (n > best.Agree || n == best.Agree && abs(d) < abs(best.By)) {
			best.By, best.Agree = d, n
		}
	}
	if best.Agree*2 < best.Sampled || best.Agree < 2*votes[0] {
		return nil
	}
	return best
}

func abs(d int64) int64 {
	if d < 0 {
		return -d
	}
	return d
}

// TickHint says, in a sentence, how their trace numbers ticks when that is
// why most of its reads part from ours; "" otherwise.
func (r *Result) TickHint() string {
	const ours = "dembug's ticks are the demo commands' (docs/compare.md)"
	switch n, sh := r.NetTicks, r.Shift; {
	case n != nil:
		return fmt.Sprintf("their ticks look like the server's (net_Tick): %d of their %d ticks are one, their tick %d is demo tick %d; %s", n.Net, n.Ticks, n.Example, n.Demo, ours)
	case sh != nil:
		return fmt.Sprintf("their ticks look shifted by %+d: %d of the %d reads of their first ticks agree with ours %d ticks earlier; %s", sh.By, sh.Agree, sh.Sampled, sh.By, ours)
	}
	return ""
}
