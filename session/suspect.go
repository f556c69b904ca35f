package session

import (
	"fmt"
	"strings"

	"github.com/dembug/dembug/engine/bitio"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
)

// SuspectBasis says how the first suspect was found.
type SuspectBasis uint8

const (
	// ByDiagnosis: nothing aligns the message; the diagnosis's first
	// suspicious read (the grading pass names the same read).
	ByDiagnosis SuspectBasis = iota
	// ByWhatIf: another decoder for the read, or a bit edit in it, makes
	// the message align (engine/diagnose's search).
	ByWhatIf
	// ByInference: the first read of a name decoder choice does not know,
	// which the inference says behaves as another (engine/infer).
	ByInference
)

// Suspect is the read where the file's first misaligned message most
// likely goes wrong. `dembug check` (Checked.FirstSuspect) and the TUI
// (File.FirstSuspect) both take it from locateFirstSuspect, so both name
// the same read, and word it here (Reason, Fix, Why).
type Suspect struct {
	// At is the read: the message, the update within it and the read's
	// index within that update in the file's own decode (Upd and Field
	// -1 when not resolved: a read in a baseline, or without the record).
	At    Ref
	Basis SuspectBasis
	// Entity, Class and Name are the read's entity, its class and the
	// field's name.
	Entity      int32
	Class, Name string
	// Bit is the read's first bit in the message's entity data (in the
	// class's instance baseline when InBaseline).
	Bit        uint
	InBaseline bool
	Decoder    string
	Family     string // the decoder family's stable name ("" when unknown)
	// Reason is the diagnosis's (ByDiagnosis); Explain the what-if that
	// aligns the message (ByWhatIf), a bit edit at EditBit when BitEdit.
	Reason, Explain string
	BitEdit         bool
	EditBit         uint
	Inferred        *InferredName // ByInference: what the name behaves as
	// Header is what the header check says of the message ("" when the
	// message was not captured or the check has nothing to say).
	Header string
}

// InferredName is what one name decoder choice does not know behaves as.
type InferredName = infer.Finding

// BreakingRead is the first read of the first inferred name.
type BreakingRead = infer.UnknownRead

// Inference is what the inference found in a file: the names it inferred,
// the read that breaks alignment and the aliases that decode the file
// (those asked for plus the inferred). Unlike infer.Checked it keeps no
// decoded replay.
type Inference struct {
	Findings []InferredName
	Break    *BreakingRead
	Aliases  schema.Aliases
}

// InferenceOf keeps what ch found (nil when it found nothing).
func InferenceOf(ch *infer.Checked) *Inference {
	if ch == nil || len(ch.Findings) == 0 {
		return nil
	}
	return &Inference{Findings: ch.Findings, Break: ch.Break, Aliases: ch.Aliases}
}

// capturer decodes a file up to a message and keeps it.
type capturer func(Location) (*diagnose.Case, error)

// locateFirstSuspect names where the first misaligned message, at, most
// likely goes wrong: inference's breaking read when inf has one; else the
// read whose other decoder or bit edit makes the message align; else the
// diagnosis's first suspect. With record it also resolves the read in the
// message's decode (Update, Field) and the header check, which a breaking
// read does not need otherwise (check asks without). nil when the message
// cannot be decoded again. The one place the first suspect is worked out:
// check asks it through Checked.FirstSuspect, the TUI File.FirstSuspect.
func locateFirstSuspect(capture capturer, at Location, inf *Inference, record bool) *Suspect {
	if inf != nil && inf.Break != nil && len(inf.Findings) > 0 {
		return breakingSuspect(capture, at, inf, record)
	}
	c, err := capture(at)
	if err != nil || c == nil {
		return nil
	}
	s := &Suspect{At: entitiesRef(at)}
	if record {
		s.Header = headerCheck(c)
	}
	if fix, err := c.Locate(); err == nil && fix.Field >= 0 && fix.Field < len(fix.Record.Fields) {
		s.Basis, s.Explain = ByWhatIf, fix.Explain
		if fix.WhatIf.Decoder != nil {
			s.fromRead(c.Record, fix.Field) // the original record's field
			return s
		}
		// A bit edit: the read is the repaired record's (what the bits
		// are), its offset shifted back to the file's bits; the TUI
		// selects the file's read that holds the edited bit.
		s.BitEdit, s.EditBit = true, fix.WhatIf.Bit
		s.fromRead(fix.Record, fix.Field)
		if s.Bit > fix.WhatIf.Bit {
			s.Bit = s.Bit - fix.WhatIf.Insert + fix.WhatIf.Skip
		}
		s.At.Upd, s.At.Field = -1, -1
		if i := readHolding(c.Record, fix.WhatIf.Bit); i >= 0 {
			f := &c.Record.Fields[i]
			s.At.Upd, s.At.Field = f.Update, i-c.Record.Updates[f.Update].FirstField
		}
		return s
	}
	first := c.Report.First
	if first == nil {
		return nil
	}
	s.Basis, s.Reason = ByDiagnosis, first.Reason
	s.Entity, s.Class, s.Name, s.Bit, s.Decoder = first.Entity, first.Class, first.Name, first.Bit, first.Decoder
	s.At.Upd = first.Update
	if first.Field >= 0 && first.Field < len(c.Record.Fields) {
		f := &c.Record.Fields[first.Field]
		if f.Decoder != nil {
			s.Family = f.Decoder.Family.ID()
		}
		if f.Update >= 0 && f.Update < len(c.Record.Updates) {
			s.At.Field = first.Field - c.Record.Updates[f.Update].FirstField
		}
	}
	return s
}

// readHolding is the file's read that holds a bit edit at bit: the last
// read whose path op or value starts at or before it.
func readHolding(rec *provenance.Message, bit uint) int {
	j := -1
	for k := range rec.Fields {
		if f := &rec.Fields[k]; f.Op.Start <= bit || f.Start <= bit {
			j = k
		}
	}
	return j
}

// fromRead fills the suspect's read from field i of rec.
func (s *Suspect) fromRead(rec *provenance.Message, i int) {
	f := &rec.Fields[i]
	u := &rec.Updates[f.Update]
	s.At.Upd, s.At.Field = f.Update, i-u.FirstField
	s.Entity, s.Class, s.Name, s.Bit = u.Index, u.Class, f.Name, f.Start
	if f.Decoder != nil {
		s.Decoder, s.Family = f.Decoder.Describe(), f.Decoder.Family.ID()
	}
}

// Account is the suspect's one wording, check's and the TUI's: why the
// read is suspect, and what aligns the message ("" for nothing).
func (s *Suspect) Account() (reason, fix string) {
	switch s.Basis {
	case ByInference:
		f := s.Inferred
		reason = fmt.Sprintf("first read of %s %s, which decoder choice does not know", f.Kind, f.Unknown)
		if s.InBaseline {
			reason += " (in the instance baseline of " + s.Class + ", read when the entity is created)"
		}
		return reason, fmt.Sprintf("read %s as %s (--as %s=%s): %s", f.Unknown, f.As, f.Unknown, f.As, f.Evidence)
	case ByWhatIf:
		if s.BitEdit {
			return "the message aligns with a bit edit at " + bitio.Offset(s.EditBit) + ", in this read", s.Explain
		}
		return "the message aligns when this read changes", s.Explain
	}
	return s.Reason, ""
}

// Why is the suspect in one line, as the TUI's inspector shows it beside
// the read it selects: check's reason and fix (Account), the same words
// ("" for no suspect).
func (s *Suspect) Why() string {
	if s == nil {
		return ""
	}
	reason, fix := s.Account()
	if fix == "" {
		return reason
	}
	return reason + ": " + fix
}

// breakingSuspect is inference's breaking read; with record, resolved in
// a decode of the message (a read in the message, not in a baseline).
func breakingSuspect(capture capturer, at Location, inf *Inference, record bool) *Suspect {
	b := inf.Break
	s := &Suspect{At: entitiesRef(at), Basis: ByInference, Entity: b.Entity, Class: b.Class, Name: b.FieldName,
		Bit: b.Bit, InBaseline: b.InBaseline, Decoder: b.Decoder, Inferred: &inf.Findings[0]}
	if !record || b.InBaseline {
		return s
	}
	c, err := capture(at)
	if err != nil || c == nil {
		return s
	}
	s.Header = headerCheck(c)
	if b.Update < 0 || b.Update >= len(c.Record.Updates) {
		return s
	}
	u := &c.Record.Updates[b.Update]
	for fi := 0; fi < u.NumFields; fi++ {
		if f := &c.Record.Fields[u.FirstField+fi]; f.Start == b.Bit && f.Name == b.FieldName {
			s.At.Upd, s.At.Field = b.Update, fi
			if f.Decoder != nil {
				s.Family = f.Decoder.Family.ID()
			}
		}
	}
	return s
}

// HeaderCheck is what the header check (engine/diagnose) says of a
// misaligned message: the header assumption its bits contradict ("" when
// it broke in a field), the alternatives that align it, and every
// alternative tried.
type HeaderCheck struct {
	Broken        string
	Aligns, Tried []string
}

func headerCheckOf(c *diagnose.Case) *HeaderCheck {
	a := diagnose.Assumptions(c)
	if a == nil {
		return nil
	}
	h := &HeaderCheck{Broken: a.Broken, Aligns: a.Aligning()}
	for _, t := range a.Tried {
		h.Tried = append(h.Tried, t.Name)
	}
	return h
}

// headerCheck is the header check's account of a misaligned message in a
// line, as the first suspect carries it: "" when it has nothing to say.
func headerCheck(c *diagnose.Case) string {
	a := headerCheckOf(c)
	if a == nil {
		return ""
	}
	var parts []string
	if a.Broken != "" {
		parts = append(parts, "breaks in an update header: "+a.Broken)
	}
	if len(a.Aligns) > 0 {
		parts = append(parts, "aligns with "+strings.Join(a.Aligns, "; or with "))
	} else {
		parts = append(parts, "no other header assumption aligns it")
	}
	return strings.Join(parts, "; ")
}
