package diagnose

import (
	"errors"
	"fmt"
	"math"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// Candidates are the decoders tried in place of a suspect's: the families
// that differ in how many bits they read.
var Candidates = []*decoder.Decoder{
	{Family: decoder.FamUnsigned}, {Family: decoder.FamUnsigned64}, {Family: decoder.FamBool},
	{Family: decoder.FamNoScale}, {Family: decoder.FamFixed64}, {Family: decoder.FamString},
	{Family: decoder.FamCoord}, {Family: decoder.FamNormal}, {Family: decoder.FamQAngleCoord},
	{Family: decoder.FamVector, Components: 3, Elem: &decoder.Decoder{Family: decoder.FamNoScale}},
}

// MaxTries bounds the re-decodes one search may run, and MaxDecodeBytes the
// entity data they may decode in all (about a second of work), so that a
// large broken message is searched less widely but as quickly.
const (
	MaxTries       = 1500
	MaxDecodeBytes = 8 << 20
)

// Fix is a what-if that makes a misaligned message decode cleanly.
type Fix struct {
	Field   int // index into the original record's fields
	Name    string
	WhatIf  entity.WhatIf
	Explain string // "m_flFoo read with raw 32-bit float aligns the message"
	// Ambiguous counts the bit positions where the same edit gives the
	// same data (a run of equal bits); 1 or 0 when the place is certain.
	Ambiguous uint
	Report    Report
	Record    *provenance.Message
}

// Case is one misaligned message with the state needed to re-decode it.
type Case struct {
	Loc    replay.Location
	Before *entity.Table // snapshot taken just before the message
	Msg    messages.PacketEntities
	Record *provenance.Message
	Report Report
	// Next are the packet-entities messages that follow (up to
	// NextMessages): the values they send next tell which repair of a
	// damaged value is the plausible one.
	Next []messages.PacketEntities

	future map[futureKey]decoder.Value // see futureValues
	after  *entity.Table               // the table a repair leaves, for handles
	// The next messages as decoded after a repair, and the discrete values
	// sent outside the repairs' window (see learnValues).
	nextRecs []*provenance.Message
	seen     map[seenKey]bool
	named    map[string]bool
}

// NextMessages is how many messages after the captured one are kept.
const NextMessages = 8

// Capture decodes data up to the first misaligned packet-entities message
// and returns it with a snapshot of the entity table before it; nil when
// every message aligns.
func Capture(data []byte) (*Case, error) {
	r, err := replay.Open(data)
	if err != nil {
		return nil, err
	}
	var at *replay.Location
	r.Hooks.Entities = func(loc replay.Location, _ *messages.PacketEntities, res entity.Result, _ *provenance.Message) {
		if at == nil && res.Misaligned {
			l := loc
			at = &l
		}
	}
	runErr := r.Run(func(*container.Command) bool { return at != nil })
	if at == nil {
		return nil, runErr
	}
	return CaptureAt(data, *at)
}

// CaptureAt decodes data up to the packet-entities message at loc and
// returns it with a snapshot of the entity table before it.
func CaptureAt(data []byte, at replay.Location) (*Case, error) {
	return CaptureAtWith(data, at, schema.Aliases{})
}

// CaptureAtWith is CaptureAt decoding under aliases (--as).
func CaptureAtWith(data []byte, at replay.Location, a schema.Aliases) (*Case, error) {
	r, err := replay.Open(data)
	if err != nil {
		return nil, err
	}
	r.Aliases = a
	return CaptureIn(r, at)
}

// CaptureIn is CaptureAt decoding on with r, a replay not yet past the
// message (one opened at the start, or resumed from a keyframe before
// it); r's hooks are the capture's.
func CaptureIn(r *replay.Replay, at replay.Location) (*Case, error) {
	var before *entity.Table
	var found *Case
	rec := &provenance.Message{}
	same := func(l replay.Location) bool { return l.Command == at.Command && l.Message == at.Message }
	r.Hooks.Record = func(loc replay.Location) *provenance.Message {
		if !same(loc) {
			return nil
		}
		before = r.Entities.Snapshot()
		return rec
	}
	r.Hooks.Entities = func(loc replay.Location, m *messages.PacketEntities, res entity.Result, got *provenance.Message) {
		if found != nil && !res.Skipped && len(found.Next) < NextMessages {
			c := *m
			c.EntityData = append([]byte(nil), m.EntityData...)
			found.Next = append(found.Next, c)
		}
		if found == nil && same(loc) {
			c := *m
			c.EntityData = append([]byte(nil), m.EntityData...)
			kept := *got
			kept.Updates = append([]provenance.EntityUpdate(nil), got.Updates...)
			kept.Fields = append([]provenance.Field(nil), got.Fields...)
			found = &Case{Loc: loc, Before: before, Msg: c, Record: &kept}
			found.Report = Message(found.Record, LookupIn(before))
		}
	}
	commands := 0
	runErr := r.Run(func(*container.Command) bool {
		if found != nil {
			commands++
		}
		return found != nil && (len(found.Next) >= NextMessages || commands > 64)
	})
	if found != nil {
		return found, nil
	}
	if runErr == nil {
		runErr = fmt.Errorf("no packet-entities message at command %d, message %d", at.Command, at.Message)
	}
	return nil, runErr
}

// LookupIn says whether t holds a live entity with this index and serial.
func LookupIn(t *entity.Table) Lookup {
	return func(index, serial int) bool {
		if t == nil || index < 0 || index >= entity.MaxEntities {
			return false
		}
		e := t.Entities[index]
		return e != nil && int(e.Serial) == serial
	}
}

// Try decodes the case's message under a what-if and diagnoses the result.
func (c *Case) Try(w entity.WhatIf) (entity.Result, *provenance.Message, Report) {
	res, rec, rep, _ := c.TryTable(w)
	return res, rec, rep
}

// TryTable is Try that also returns the entity table as the what-if decode
// left it, for showing the entities' states under the hypothesis.
func (c *Case) TryTable(w entity.WhatIf) (entity.Result, *provenance.Message, Report, *entity.Table) {
	t := c.Before.Snapshot()
	rec := &provenance.Message{}
	res := t.ApplyWhatIf(&c.Msg, rec, w)
	return res, rec, Message(rec, LookupIn(c.Before)), t
}

// ErrNoFix says no what-if within the search made the message align.
var ErrNoFix = errors.New("no single decoder change or bit edit near the suspect makes the message align")

// Locate searches for the what-if that best explains a misaligned
// message: another decoder for one field, or a bit inserted or dropped
// anywhere in the BitWindow bits before the point where the message stops
// making sense (searchBits). A candidate must make the whole message decode
// aligned with no strong anomaly; among those, the one with the weakest
// anomalies and the values closest to the entity's previous ones wins
// (game state changes gradually; a shifted read does not). Decoder changes
// are tried for the fields up to that point, since a shift shows up after
// the field that caused it.
func (c *Case) Locate() (*Fix, error) {
	fields := c.Record.Fields
	end := SensibleUntil(c.Record, c.Report)
	last := len(fields) - 1
	for i := range fields {
		if fields[i].Start >= end {
			last = i
			break
		}
	}
	var best *Fix
	var bestCost float64
	tries := 0
	limit := min(MaxTries, MaxDecodeBytes/max(1, len(c.Msg.EntityData)))
	consider := func(w entity.WhatIf, orig *provenance.Field, rec *provenance.Message, rep Report, cost float64) {
		// Ties: a decoder change at the earliest field wins, a bit edit
		// already found stays (searchBits ranks its own).
		if best == nil || cost < bestCost-1e-9 {
			i, name := blame(rec, w)
			best, bestCost = &Fix{Field: i, Name: name, WhatIf: w, Report: rep, Record: rec}, cost
			f := &rec.Fields[i]
			if w.Decoder != nil && orig != nil {
				f = orig
			}
			best.Explain = explain(f, w)
		}
	}
	// Bit edits first: their search fixes the part of the message every
	// candidate is costed over.
	lo, hi := uint(0), c.Record.DataBits
	e, run := c.searchBits()
	if e != nil {
		lo, hi = e.lo, e.hi
		consider(e.w, nil, e.rec, e.rep, e.cost)
		best.Explain += explainAmbiguity(run)
		best.Ambiguous = run
	}
	tried := map[*schema.Field]bool{}
	// From the symptom back: a misread shows within a few fields of it.
	for i := min(last, len(fields)-1); i >= 0 && i >= last-32; i-- {
		f := &fields[i]
		// Another decoder for this read, or (a patch that changed the
		// field's settings) for every read of the field in the message.
		type trial struct {
			w     entity.WhatIf
			d     *decoder.Decoder
			field bool
		}
		var trials []trial
		if f.Schema != nil && !tried[f.Schema] {
			tried[f.Schema] = true
			for _, d := range variants(f) {
				trials = append(trials, trial{entity.WhatIf{Occurrence: -1, Field: f.Schema, Decoder: d}, d, true})
			}
		}
		for _, d := range Candidates {
			if d.Family != f.Decoder.Family || d.Family == decoder.FamVector {
				trials = append(trials, trial{entity.WhatIf{Occurrence: i, Decoder: d}, d, false})
			}
		}
		for _, tr := range trials {
			if tries >= limit {
				break
			}
			tries++
			res, rec, rep := c.Try(tr.w)
			if !aligns(res) {
				continue
			}
			cost := c.plausibility().editCost(rec, lo, hi)
			if kindOf(tr.d.Family) != kindOf(f.Decoder.Family) {
				cost += 0.25 // a float stays a float more often than it becomes a vector
			}
			if f.Decoder.Family != decoder.FamDefault && !tr.field {
				// Decoder choice for a known type matches every public
				// parser on every shared replay: overriding one read of it
				// is a bolder claim than one damaged bit.
				cost += 0.25
			}
			consider(tr.w, f, rec, rep, cost)
		}
	}
	if best == nil {
		return nil, ErrNoFix
	}
	return best, nil
}

// kindOf groups families by the kind of value they produce.
func kindOf(f decoder.Family) int {
	switch {
	case f.IsFloat():
		return 1
	case f == decoder.FamString || f == decoder.FamBinaryBlock:
		return 2
	case f == decoder.FamVector || f == decoder.FamNormal || f == decoder.FamQAngleBits || f == decoder.FamQAngleCoord ||
		f == decoder.FamQAnglePitchYaw || f == decoder.FamQAnglePrecise:
		return 3
	case f == decoder.FamBool:
		return 4
	}
	return 0
}

// Continuity is the mean relative change of a message's values against
// the entities' previous values (0 identical, 1 unrelated): game state moves
// gradually, a misread does not.
func Continuity(rec *provenance.Message) float64 {
	if len(rec.Fields) == 0 {
		return 0
	}
	sum := 0.0
	for i := range rec.Fields {
		f := &rec.Fields[i]
		sum += Change(f.Prev, f.Value)
	}
	return sum / float64(len(rec.Fields))
}

// Change is how far v moved from prev: 0 the same, 1 unrelated (another
// kind, or a relative change of 100% or more), 0.5 where nothing tells.
func Change(prev, v decoder.Value) float64 {
	if prev.Kind == decoder.KindNone {
		return 0.5
	}
	if prev.Kind != v.Kind {
		return 1
	}
	var a, b float64
	switch v.Kind {
	case decoder.KindUint, decoder.KindHandle:
		a, b = float64(prev.U), float64(v.U)
	case decoder.KindInt:
		a, b = float64(prev.Int64()), float64(v.Int64())
	case decoder.KindFloat:
		a, b = prev.F[0], v.F[0]
	case decoder.KindBool:
		if prev.U == v.U {
			return 0
		}
		return 0.5
	case decoder.KindVector:
		if prev.N != v.N || v.N == 0 {
			return 1
		}
		sum := 0.0 // the mean over components
		for i := 0; i < int(v.N); i++ {
			sum += Change(decoder.Float(prev.F[i]), decoder.Float(v.F[i]))
		}
		return sum / float64(v.N)
	default:
		if prev.Equal(v) {
			return 0
		}
		return 0.5
	}
	d := math.Abs(a-b) / (math.Abs(a) + 1)
	if math.IsNaN(d) {
		return 1
	}
	return math.Min(d, 1)
}

// blame names the field a successful what-if changed: the overridden field,
// or the field whose path op or value holds the edited bit.
func blame(rec *provenance.Message, w entity.WhatIf) (int, string) {
	if w.Decoder != nil && w.Occurrence >= 0 && w.Occurrence < len(rec.Fields) {
		return w.Occurrence, rec.Fields[w.Occurrence].Name
	}
	if w.Decoder != nil && w.Field != nil {
		// Every read of the field: the first is where the message breaks.
		for i := range rec.Fields {
			if rec.Fields[i].Schema == w.Field {
				return i, rec.Fields[i].Name
			}
		}
	}
	for i := range rec.Fields {
		f := &rec.Fields[i]
		if (w.Bit >= f.Op.Start && w.Bit < f.Op.Start+f.Op.Bits) || (w.Bit >= f.Start && w.Bit < f.Start+f.Bits) {
			return i, f.Name
		}
	}
	// Between spans (a finish op, a header): the next field after the bit.
	for i := range rec.Fields {
		if rec.Fields[i].Op.Start >= w.Bit || rec.Fields[i].Start >= w.Bit {
			return i, rec.Fields[i].Name
		}
	}
	return len(rec.Fields) - 1, ""
}

func explain(f *provenance.Field, w entity.WhatIf) string {
	switch {
	case w.Decoder != nil && w.Field != nil:
		return fmt.Sprintf("every read of %s with %s instead of %s aligns the message (did a patch change the field's settings?)", w.Field.Name, w.Decoder.Describe(), f.Decoder.Describe())
	case w.Decoder != nil:
		return fmt.Sprintf("%s read with %s instead of %s aligns the message", f.Name, w.Decoder.Describe(), f.Decoder.Describe())
	case w.Insert > 0:
		return fmt.Sprintf("inserting %d bit(s) (value %d) at bit %d (%s) aligns the message", w.Insert, w.InsertValue, w.Bit, f.Name)
	default:
		return fmt.Sprintf("dropping %d bit(s) at bit %d (%s) aligns the message", w.Skip, w.Bit, f.Name)
	}
}

// variants are the decoders a patch that changed a field's settings would
// call for: a quantized float with a bit count one or two away (the range
// and flags kept), and simulation time for a float.
func variants(f *provenance.Field) []*decoder.Decoder {
	var out []*decoder.Decoder
	if f.Decoder.Family == decoder.FamQuantized && f.Schema != nil {
		s := f.Schema
		for _, d := range []int32{-1, 1, -2, 2} {
			if q, err := decoder.NewQuantized(s.BitCount+d, s.EncodeFlags, s.Low, s.LowSet, s.High, s.HighSet); err == nil {
				out = append(out, &decoder.Decoder{Family: decoder.FamQuantized, Q: &q})
			}
		}
	}
	if f.Decoder.Family.IsFloat() && f.Decoder.Family != decoder.FamSimTime {
		out = append(out, &decoder.Decoder{Family: decoder.FamSimTime, TickInterval: 1.0 / 30})
	}
	return out
}
