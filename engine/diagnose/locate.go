package diagnose

import (
	"errors"
	"fmt"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
)

// Candidates are the decoders tried in place of a suspect's: the families
// that differ in how many bits they read.
var Candidates = []*decoder.Decoder{
	{Family: decoder.FamUnsigned}, {Family: decoder.FamUnsigned64}, {Family: decoder.FamBool},
	{Family: decoder.FamNoScale}, {Family: decoder.FamFixed64}, {Family: decoder.FamString},
	{Family: decoder.FamCoord}, {Family: decoder.FamNormal}, {Family: decoder.FamQAngleCoord},
	{Family: decoder.FamVector, Components: 3, Elem: &decoder.Decoder{Family: decoder.FamNoScale}},
}

// MaxTries bounds the re-decodes one search may run.
const MaxTries = 4000

// Fix is a what-if that makes a misaligned message decode cleanly.
type Fix struct {
	Field   int // index into the original record's fields
	Name    string
	WhatIf  entity.WhatIf
	Explain string // "m_flFoo read with raw 32-bit float aligns the message"
	Report  Report
	Record  *provenance.Message
}

// Case is one misaligned message with the state needed to re-decode it.
type Case struct {
	Loc    replay.Location
	Before *entity.Table // snapshot taken just before the message
	Msg    messages.PacketEntities
	Record *provenance.Message
	Report Report
}

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
	r, err := replay.Open(data)
	if err != nil {
		return nil, err
	}
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
		if found == nil && same(loc) {
			c := *m
			c.EntityData = append([]byte(nil), m.EntityData...)
			kept := *got
			kept.Updates = append([]provenance.EntityUpdate(nil), got.Updates...)
			kept.Fields = append([]provenance.Field(nil), got.Fields...)
			found = &Case{Loc: loc, Before: before, Msg: c, Record: &kept}
			found.Report = Message(found.Record, lookupIn(before))
		}
	}
	runErr := r.Run(func(*container.Command) bool { return found != nil })
	if found != nil {
		return found, nil
	}
	if runErr == nil {
		runErr = fmt.Errorf("no packet-entities message at command %d, message %d", at.Command, at.Message)
	}
	return nil, runErr
}

func lookupIn(t *entity.Table) Lookup {
	return func(index, serial int) bool {
		if index < 0 || index >= entity.MaxEntities {
			return false
		}
		e := t.Entities[index]
		return e != nil && int(e.Serial) == serial
	}
}

// Try decodes the case's message under a what-if and diagnoses the result.
func (c *Case) Try(w entity.WhatIf) (entity.Result, *provenance.Message, Report) {
	t := c.Before.Snapshot()
	rec := &provenance.Message{}
	res := t.ApplyWhatIf(&c.Msg, rec, w)
	return res, rec, Message(rec, lookupIn(c.Before))
}

func clean(res entity.Result, rep Report) bool {
	if res.Misaligned || res.Err != nil {
		return false
	}
	for _, as := range rep.Anomalies {
		for _, a := range as {
			if a.Score >= Threshold {
				return false
			}
		}
	}
	return true
}

// ErrNoFix says no what-if within the search made the message align.
var ErrNoFix = errors.New("no single decoder change or bit edit near the suspect makes the message align")

// Locate searches, in stream order, for the first field whose decoder
// changed (or a bit inserted or dropped at its path op or value) makes the
// whole message decode aligned with no strong anomaly. The search covers
// the fields up to the first strong anomaly, since a shift shows up after
// the field that caused it.
func (c *Case) Locate() (*Fix, error) {
	fields := c.Record.Fields
	last := len(fields) - 1
	if c.Report.First != nil && c.Report.First.Field >= 0 {
		last = c.Report.First.Field
	}
	first := max(0, last-64)
	tries := 0
	for i := first; i <= last && i < len(fields); i++ {
		f := &fields[i]
		var whatifs []entity.WhatIf
		for _, d := range Candidates {
			if d.Family == f.Decoder.Family && d.Family != decoder.FamVector {
				continue
			}
			whatifs = append(whatifs, entity.WhatIf{Occurrence: i, Decoder: d})
		}
		for _, at := range []uint{f.Op.Start, f.Start} {
			for n := uint(1); n <= 2; n++ {
				whatifs = append(whatifs, entity.WhatIf{Occurrence: -1, Bit: at, Insert: n}, entity.WhatIf{Occurrence: -1, Bit: at, Skip: n})
			}
		}
		for _, w := range whatifs {
			if tries++; tries > MaxTries {
				return nil, ErrNoFix
			}
			res, rec, rep := c.Try(w)
			if clean(res, rep) {
				return &Fix{Field: i, Name: f.Name, WhatIf: w, Explain: explain(f, w), Report: rep, Record: rec}, nil
			}
		}
	}
	return nil, ErrNoFix
}

func explain(f *provenance.Field, w entity.WhatIf) string {
	switch {
	case w.Decoder != nil:
		return fmt.Sprintf("%s read with %s instead of %s aligns the message", f.Name, w.Decoder.Describe(), f.Decoder.Describe())
	case w.Insert > 0:
		return fmt.Sprintf("inserting %d bit(s) at bit %d (%s) aligns the message", w.Insert, w.Bit, f.Name)
	default:
		return fmt.Sprintf("dropping %d bit(s) at bit %d (%s) aligns the message", w.Skip, w.Bit, f.Name)
	}
}
