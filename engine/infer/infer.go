package infer

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// Window is how many packet-entities messages, from the first misaligned
// one on, a hypothesis must decode aligned to win outright; MaxCommands
// bounds the commands one test decodes past that message, and MaxNames how
// many unknown names one inference tries.
const (
	Window      = 16
	MaxCommands = 4000
	MaxNames    = 24
	// MaxTestBytes bounds the first misaligned message's bytes that one
	// inference (each of its workers) decodes over all its tests: a real
	// message of 50 KB gets all the tests it needs, a crafted 10 MB one a
	// few dozen.
	MaxTestBytes = 512 << 20
	MaxTests     = 400 // and how many tests, whatever the message's size
)

// errBudget says an inference has used its MaxTestBytes.
var errBudget = errors.New("inference budget spent")

// Finding is the inference for one unknown name.
type Finding struct {
	Kind    schema.Kind
	Unknown string
	As      string   // the known name it behaves as
	Fields  int      // schema fields carrying the unknown name
	Same    []string // other known names under which the fields decode identically
	Tied    []string // names that align as well, with less plausible values
	// Over the test window: messages that aligned of those decoded.
	Aligned, Messages int
	Evidence          string
	// Basis is what the finding rests on: BasisAlignment (decoded under
	// it, the file aligns) or BasisValues (the values read show the type
	// read wrongly while every bit lines up; values.go).
	Basis string
	// Values (BasisValues) is how many values it rests on, Reads what they
	// read now and would read as As.
	Values uint64
	Reads  string
}

// Score is how well the file decodes under a hypothesis; better scores
// compare greater (see Better).
type Score struct {
	Aligned   int     // packet-entities messages decoded aligned, from the fork on
	Progress  uint    // in the first failing message, the bit where it stopped making sense
	Failed    bool    // a message misaligned within the window
	End       uint    // where the failing message's decode stopped
	Anomalies float64 // anomaly weight of the first misaligned message, when it aligns
	Change    float64 // in the first misaligned message, the mean change of values against the entity's previous ones (0..1)
	Messages  int     // messages decoded from the first misaligned one on
	recorded  bool    // the first misaligned message was recorded: Anomalies and Change are set
}

// Better reports whether a beats b: more messages aligned, then a later
// failure, then fewer anomalies, then values closer to the previous ones.
func (a Score) Better(b Score) bool {
	if a.Aligned != b.Aligned {
		return a.Aligned > b.Aligned
	}
	if a.Failed && b.Failed && a.Progress != b.Progress {
		return a.Progress > b.Progress
	}
	if d := a.Anomalies - b.Anomalies; d < -1e-9 || d > 1e-9 {
		return d < 0
	}
	return a.Change < b.Change-1e-9
}

// Fork is the point to infer from: a replay forked just before the command
// that holds the first misaligned message, and that message's location.
type Fork struct {
	Start *replay.Replay
	At    replay.Location

	// New are the unknown names an earlier build's schema lacks: tried
	// first (schema.NewUnknowns).
	New map[schema.Name]bool
	// Ctx, when set, stops the inference once done (the debugger's work
	// superseded): each test decode ends at its next command, and no
	// further test starts.
	Ctx context.Context

	buf     *provenance.Message // record buffer, reused
	scratch *entity.Table       // for baseline tests
	workers []*Fork             // for scoreAll, each with a fork of Start
	spent   int64               // message bytes its tests decoded (MaxTestBytes)
	tests   int                 // tests run (MaxTests)
}

// Evaluate decodes from the case's start under aliases a, through the
// first misaligned message and up to Window messages after it, and scores
// the result. ob, when non-nil, receives the record of the message at At
// and of the baselines it creates from.
func (c *Fork) Evaluate(a schema.Aliases, ob *Observed) (Score, error) {
	return c.evaluate(a, ob, Window, true)
}

// evaluate is Evaluate over window messages from the first misaligned one;
// without record the message is not recorded, and the score has no
// anomalies, change or sensible-until point (a failure's Progress is
// where its decode stopped).
func (c *Fork) evaluate(a schema.Aliases, ob *Observed, window int, record bool) (Score, error) {
	c.tests++
	if c.spent += int64(max(c.At.MsgSize, 1)); c.spent > MaxTestBytes || c.tests > MaxTests {
		return Score{Failed: true}, errBudget
	}
	var rec *provenance.Message
	if ob != nil {
		rec = &provenance.Message{}
		ob.Rec, ob.Baselines, ob.Data = rec, map[int32]*provenance.Message{}, map[int32][]byte{}
	}
	r := c.Start.Fork()
	if err := r.RealiasDecodeOnly(a); err != nil {
		// The aliases lay out some class's state otherwise (an element
		// type read as a string): only a decode from the start can use
		// them.
		if r, err = resumeBefore(c.Start.Data, a, nil, c.At.Command, c.Start.Entities.Strings); err != nil {
			return Score{Failed: true}, err
		}
	}
	var sc Score
	from := false // at or past the first misaligned message
	stop := false
	commands := 0
	buf := c.record()
	r.Hooks.Record = func(loc replay.Location) *provenance.Message {
		if (record || rec != nil) && loc.Command == c.At.Command && loc.Message == c.At.Message {
			m := buf
			if rec != nil {
				m = rec
			}
			// Grown once to what the message may hold (a field takes 16
			// bits or more), not by doubling over thousands of fields.
			if want := loc.MsgSize / 2; cap(m.Fields) < want {
				m.Fields = make([]provenance.Field, 0, want)
			}
			return m
		}
		return nil
	}
	var lookup diagnose.Lookup
	r.Hooks.Entities = func(loc replay.Location, _ *messages.PacketEntities, res entity.Result, got *provenance.Message) {
		if stop {
			return
		}
		if loc.Command > c.At.Command || loc.Command == c.At.Command && loc.Message >= c.At.Message {
			from = true
			sc.Messages++
		}
		if got != nil && got == rec {
			for _, u := range got.Updates {
				if u.Op == provenance.Create && r.Entities.BaselineFailed(u.ClassID) {
					if _, done := ob.Baselines[u.ClassID]; !done {
						ob.Baselines[u.ClassID], _ = r.Entities.RecordBaseline(u.ClassID)
						ob.Data[u.ClassID] = r.Entities.Baseline(u.ClassID)
					}
				}
			}
		}
		if res.Misaligned || res.Err != nil {
			sc.Failed, stop = true, true
			sc.Progress, sc.End = res.EndBit, res.EndBit
			if got != nil {
				if lookup == nil {
					lookup = diagnose.LookupIn(r.Entities)
				}
				sc.Progress = min(diagnose.SensibleUntil(got, diagnose.Message(got, lookup)), res.EndBit)
			}
			return
		}
		sc.Aligned++
		if got != nil {
			sc.recorded = true
			if lookup == nil {
				lookup = diagnose.LookupIn(r.Entities)
			}
			sc.Anomalies += diagnose.Message(got, lookup).Weight()
			sc.Change = diagnose.Continuity(got)
		}
		if from && sc.Messages >= window {
			stop = true
		}
	}
	err := r.Run(func(*container.Command) bool {
		if from {
			commands++
		}
		return stop || commands > MaxCommands || c.canceled()
	})
	if err == nil && c.canceled() {
		err = c.Ctx.Err()
	}
	return sc, err
}

// canceled reports whether the fork's context is done.
func (c *Fork) canceled() bool { return c.Ctx != nil && c.Ctx.Err() != nil }

// infer tries every unknown name of the case's schema that the first
// misaligned message (or a baseline it decodes) reads, most suspect first
// (see best), and adopts the best hypothesis; where the message still
// fails, it goes on with the next. It returns what it adopted, the
// aliases that decode with all of it, and the first read of the first
// adopted name: the read that breaks alignment.
func (c *Fork) infer() ([]Finding, schema.Aliases, *UnknownRead, error) {
	aliases := c.Start.Aliases
	var found []Finding
	var first *UnknownRead
	for len(found) < MaxNames {
		ob := &Observed{}
		cur, err := c.Evaluate(aliases, ob)
		if err != nil || !cur.Failed {
			return found, aliases, first, err
		}
		best, ok := c.best(aliases, ob, c.rankNew(Suspects(ob, cur.End)), cur)
		if !ok {
			break
		}
		if first == nil {
			s := best.sus
			first = &s
		}
		aliases = best.aliases
		found = append(found, best.finding(cur))
		if !best.sc.Failed {
			break
		}
	}
	return found, aliases, first, nil
}

// hypothesis is one suspect read as one group of known names.
type hypothesis struct {
	sus   UnknownRead
	g     Group
	fixes int // failed baselines it makes decode
	// baseAnomalies weighs the anomalies of the baselines it mends.
	baseAnomalies float64
	sc            Score
	aliases       schema.Aliases
	readSig       string // see readSignature, once computed
}

func (h *hypothesis) finding(was Score) Finding {
	return Finding{Kind: h.sus.Kind, Unknown: h.sus.Name, As: h.g.Names[0], Fields: h.g.Fields, Same: h.g.Names[1:],
		Tied: h.g.tied, Aligned: h.sc.Aligned, Messages: h.sc.Messages, Evidence: evidence(*h, was), Basis: BasisAlignment}
}

// MaxFull bounds the hypotheses decoded over the whole window per name
// adopted; the cheap tests before it pick which.
const MaxFull = 8

// MaxDataNames bounds the names tried on a message whose baselines all
// decode, where each test decodes the message.
const MaxDataNames = 24

// best finds the hypothesis that most improves on cur.
//
// Where baselines of the message failed, each hypothesis about a name
// they read re-decodes just those baselines: the cheapest test there is,
// and only those that mend the most go on. Otherwise the names read in
// the message's own data are tried, those read before it stops
// making sense, in the order they are first read (up to MaxDataNames).
// Each hypothesis decodes the message alone; trying names stops at the
// first under which the message aligns. The best few then decode the
// whole window.
func (c *Fork) best(base schema.Aliases, ob *Observed, sus []UnknownRead, cur Score) (hypothesis, bool) {
	hyps := func(s UnknownRead) []hypothesis {
		var hs []hypothesis
		for _, g := range Hypotheses(c.Start.Schema, base, s.Kind, s.Name) {
			if !g.Current {
				hs = append(hs, hypothesis{sus: s, g: g, aliases: base.With(s.Kind, s.Name, g.Names[0])})
			}
		}
		return hs
	}
	var hs []hypothesis
	for _, s := range sus {
		if s.BaselineFailed {
			hs = append(hs, hyps(s)...)
		}
	}
	if c.baselineTest(ob, hs) {
		// Mending a baseline can be chance (an enum read as a bool may
		// make up the bits another name misread): every mender decodes the
		// message, most mended first.
		hs = menders(hs)
		if len(hs) > MaxFull {
			hs = hs[:MaxFull]
		}
		// Most mended, most plausible first; once one aligns the whole
		// window, those that mend less or read less plausibly are not
		// decoded.
		for i := range hs {
			if i > 0 && !hs[i-1].sc.Failed && hs[i-1].sc.Messages >= Window && menderWorse(hs[i], hs[i-1]) {
				hs = hs[:i]
				break
			}
			// Menders alike so far will likely tie on the window too:
			// record the message now for the tie-break, not again later
			// (unless they read every field the message reads alike, as
			// char[N] and CUtlString do where no array of symbols is sent:
			// the record would tell them apart by nothing).
			tied := []int{i}
			for _, j := range []int{i - 1, i + 1} {
				if j >= 0 && j < len(hs) && hs[j].sus.Name == hs[i].sus.Name && !menderWorse(hs[j], hs[i]) && !menderWorse(hs[i], hs[j]) {
					tied = append(tied, j)
				}
			}
			hs[i].sc = c.score(&hs[i], Window, len(tied) > 1 && !c.allReadAlike(ob, hs, tied))
		}
	} else {
		hs = hs[:0]
		data := make([]UnknownRead, 0, len(sus))
		for _, s := range sus {
			if !s.InBaseline {
				data = append(data, s)
			}
		}
		for n, s := range data {
			if n == MaxDataNames {
				break
			}
			nh := hyps(s)
			c.scoreAll(nh, 1)
			hs = append(hs, nh...)
			aligned := false
			for _, h := range nh {
				aligned = aligned || !h.sc.Failed
			}
			if aligned {
				break
			}
		}
	}
	sort.SliceStable(hs, func(i, j int) bool {
		if hs[i].sc.Better(hs[j].sc) || hs[j].sc.Better(hs[i].sc) {
			return hs[i].sc.Better(hs[j].sc)
		}
		return hs[i].fixes > hs[j].fixes
	})
	// On: every hypothesis under which the message aligns, or failing
	// that the best one.
	n := 0
	for n < len(hs) && n < MaxFull && (hs[n].sc.Better(cur) || hs[n].fixes > 0) && (n == 0 || !hs[n].sc.Failed) {
		n++
	}
	hs = hs[:n]
	for i := range hs {
		if hs[i].sc.Messages < Window && !hs[i].sc.Failed {
			hs[i].sc = c.score(&hs[i], Window, true)
		}
	}
	if len(hs) == 0 {
		return hypothesis{}, false
	}
	// Alike in alignment: the values decide, so record those.
	if tied := alignedAlike(hs); len(tied) > 1 && !c.allReadAlike(ob, hs, tied) {
		for _, i := range tied {
			if !hs[i].sc.recorded {
				// Only the first misaligned message is recorded: decode
				// that alone, keeping the window's counts.
				w := c.score(&hs[i], 1, true)
				hs[i].sc.Anomalies, hs[i].sc.Change, hs[i].sc.recorded = w.Anomalies, w.Change, true
			}
		}
	}
	sort.SliceStable(hs, func(i, j int) bool { return hs[i].sc.Better(hs[j].sc) })
	b := hs[0]
	// Adopted: a hypothesis under which the message aligns, or one that
	// mends baselines (another name may still break the message). Reading
	// on further in a message that still fails is no evidence: garbage
	// can read on as well.
	if !b.sc.Better(cur) || (b.sc.Failed && b.fixes == 0) {
		return hypothesis{}, false
	}
	for _, h := range hs[1:] {
		if h.sc.Aligned == b.sc.Aligned && !h.sc.Failed && !b.sc.Failed && h.sus.Name == b.sus.Name {
			b.g.tied = append(b.g.tied, h.g.Names[0])
		}
	}
	return b, true
}

// baselineTest scores each hypothesis by the failed baselines of the
// message it mends; false when none failed or none is mended.
func (c *Fork) baselineTest(ob *Observed, hs []hypothesis) bool {
	var failed []int32
	for id, b := range ob.Baselines {
		if b != nil {
			failed = append(failed, id)
		}
	}
	if len(failed) == 0 {
		return false
	}
	if c.scratch == nil {
		c.scratch = entity.NewTable()
	}
	buf := c.record()
	className := map[int32]string{}
	for _, u := range ob.Rec.Updates {
		className[u.ClassID] = u.Class
	}
	fixed := false
	for i := range hs {
		h := &hs[i]
		if !h.sus.BaselineFailed {
			continue // cannot mend a baseline it is not read in
		}
		s := c.Start.Schema.RealiasLazy(h.aliases)
		for _, id := range failed {
			if ser := s.Serializer(className[id]); c.scratch.BaselineDecodes(ser, ob.Data[id], nil) {
				c.scratch.BaselineDecodes(ser, ob.Data[id], buf)
				h.fixes++
				// What the mended baseline holds counts too: bits made up
				// by chance read as implausible values.
				h.baseAnomalies += diagnose.Message(buf, nil).Weight()
			}
		}
		fixed = fixed || h.fixes > 0
	}
	return fixed
}

// menders keeps the hypotheses that mend a baseline, most mended first.
func menders(hs []hypothesis) []hypothesis {
	var out []hypothesis
	for _, h := range hs {
		if h.fixes > 0 {
			out = append(out, h)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return menderWorse(out[j], out[i]) })
	return out
}

// menderWorse reports whether a mends fewer baselines than b, or as many
// with less plausible values.
func menderWorse(a, b hypothesis) bool {
	if a.fixes != b.fixes {
		return a.fixes < b.fixes
	}
	return a.baseAnomalies > b.baseAnomalies+1e-9
}

// score evaluates a hypothesis over window messages, counting the
// anomalies of the baselines it mends with the message's.
func (c *Fork) score(h *hypothesis, window int, record bool) Score {
	sc, err := c.evaluate(h.aliases, nil, window, record)
	if err != nil {
		return Score{Failed: true}
	}
	sc.Anomalies += h.baseAnomalies
	return sc
}

// alignedAlike lists the hypotheses that align the whole window, when
// more than one does.
func alignedAlike(hs []hypothesis) []int {
	var out []int
	for i := range hs {
		if !hs[i].sc.Failed && hs[i].sc.Messages >= Window {
			out = append(out, i)
		}
	}
	return out
}

// scoreAll scores hypotheses unrecorded over window messages, on as many
// goroutines as there are cores: each worker resumes from a fork of its
// own, since forking writes to the replay forked.
func (c *Fork) scoreAll(hs []hypothesis, window int) {
	n := min(runtime.GOMAXPROCS(0), len(hs))
	if n <= 1 {
		for i := range hs {
			hs[i].sc = c.score(&hs[i], window, false)
		}
		return
	}
	for len(c.workers) < n {
		c.workers = append(c.workers, &Fork{Start: c.Start.Fork(), At: c.At, Ctx: c.Ctx})
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var panicked atomic.Value
	for _, w := range c.workers[:n] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A panic here would end the process with a stack trace:
			// it goes on in the caller's goroutine instead, whose
			// caller turns it into an error.
			defer func() {
				if p := recover(); p != nil {
					panicked.CompareAndSwap(nil, fmt.Sprint(p))
				}
			}()
			for i := int(next.Add(1)) - 1; i < len(hs); i = int(next.Add(1)) - 1 {
				hs[i].sc = w.score(&hs[i], window, false)
			}
		}()
	}
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(p)
	}
}

// readSignature is how a hypothesis reads the fields of its name that the
// first misaligned message and its failed baselines read.
func (c *Fork) readSignature(ob *Observed, h *hypothesis) string {
	if h.readSig != "" {
		return h.readSig
	}
	seen := map[*schema.Field]bool{}
	var fields []*schema.Field
	collect := func(m *provenance.Message) {
		if m == nil {
			return
		}
		for i := range m.Fields {
			if f := m.Fields[i].Schema; f != nil && !seen[f] && f.Carries(h.sus.Kind, h.sus.Name) {
				seen[f] = true
				fields = append(fields, f)
			}
		}
	}
	collect(ob.Rec)
	for _, b := range ob.Baselines {
		collect(b)
	}
	h.readSig = signature(schema.Under(fields, h.aliases, c.Start.Game)) + "/" + h.sus.Name
	return h.readSig
}

// allReadAlike reports whether the hypotheses hs[tied] are about one name
// and read every field of it that the first misaligned message reads
// alike: recording the message would tell them apart by nothing.
func (c *Fork) allReadAlike(ob *Observed, hs []hypothesis, tied []int) bool {
	if ob == nil {
		return false
	}
	key := c.readSignature(ob, &hs[tied[0]]) // names the name too
	for _, i := range tied[1:] {
		if c.readSignature(ob, &hs[i]) != key {
			return false
		}
	}
	return true
}

// record is the case's reused record buffer.
func (c *Fork) record() *provenance.Message {
	if c.buf == nil {
		c.buf = &provenance.Message{}
	}
	return c.buf
}
