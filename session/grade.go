package session

import (
	"time"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// Grader is the grading pass: after the index pass it decodes the file
// again, recording every field, and grades each with package diagnose; the
// anomaly marks and stops come from it. It runs in steps like the index
// pass, and only what it finds travels back (a few messages in a file).
type Grader struct {
	data    []byte
	aliases schema.Aliases
	ks      *replay.Keyframes // the index pass's, filled in on the way
	p       *Pass
	rec     provenance.Message
	out     []Grade
	done    bool
}

// Grade is the diagnosis of one packet-entities message that has an
// anomaly or a problem.
type Grade struct {
	At       Ref // the message
	Sev      diagnose.Severity
	Problem  string
	Suspect  *Suspect                  // the first suspicious read of a message with a problem
	Fields   map[Ref]diagnose.Severity // graded fields only
	Names    map[Ref]string            // the names of the strong ones
	Findings []FieldAnomaly
}

// GradeChunk is what one step of the grading pass found.
type GradeChunk struct {
	Grades []Grade
	Pos    int
	Done   bool
	Err    string // a panic stopped grading
}

// newGrader prepares the grading pass, which also fills in the index
// pass's keyframes ks (nil: none) midway between each two.
func newGrader(data []byte, a schema.Aliases, ks *replay.Keyframes) *Grader {
	return &Grader{data: data, aliases: a, ks: ks}
}

func (g *Grader) entities(msg Ref, _ Location, m *messages.PacketEntities, res entity.Result, rec *provenance.Message) {
	if rec == nil {
		return
	}
	exists := diagnose.LookupIn(g.p.r.Entities)
	gr := Grade{At: msg}
	for i, u := range rec.Updates {
		for fi := range u.NumFields {
			f := &rec.Fields[u.FirstField+fi]
			at := Ref{msg.Cmd, msg.Msg, i, int(fi)}
			as := diagnose.Field(f, exists)
			for _, a := range as {
				if diagnose.Counted(a) {
					gr.Findings = append(gr.Findings, FieldAnomaly{At: at, Rule: a.Rule, Strong: a.Score >= diagnose.Threshold, Name: f.Name})
				}
			}
			sv := diagnose.Grade(as)
			if sv == diagnose.SevNone {
				continue
			}
			if gr.Fields == nil {
				gr.Fields, gr.Names = map[Ref]diagnose.Severity{}, map[Ref]string{}
			}
			gr.Fields[at] = sv
			if sv == diagnose.SevStrong {
				gr.Names[at] = f.Name
			}
			gr.Sev = max(gr.Sev, sv)
		}
	}
	if res.Misaligned || rec.Err != nil || rec.BadDeletions > 0 {
		// Rare: the full report, for the message's problem and suspect.
		rep := diagnose.Message(rec, exists)
		if rep.End != nil {
			gr.Problem = rep.End.String()
			gr.Sev = diagnose.SevStrong
		}
		if s := rep.First; s != nil && s.Update >= 0 && s.Update < len(rec.Updates) {
			sus := &Suspect{At: Ref{msg.Cmd, msg.Msg, s.Update, -1}, Basis: ByDiagnosis, Reason: s.Reason}
			if s.Field >= 0 {
				sus.At.Field = s.Field - rec.Updates[s.Update].FirstField
				sus.Name = rec.Fields[s.Field].Name
			}
			gr.Suspect = sus
			if rep.End != nil {
				gr.Findings = append(gr.Findings, FieldAnomaly{At: sus.At, Rule: rep.End.Rule, Strong: true, Name: sus.Name})
			}
		}
	}
	if gr.Sev != diagnose.SevNone || gr.Problem != "" || gr.Suspect != nil || len(gr.Findings) > 0 {
		g.out = append(g.out, gr)
	}
}

// Step grades for about budget.
func (g *Grader) Step(budget time.Duration) *GradeChunk {
	ch := &GradeChunk{}
	if g.done {
		ch.Done = true
		return ch
	}
	panicked := runStep(budget, 8, func() bool {
		if g.p == nil {
			p, err := openPass(start{data: g.data, aliases: g.aliases}, Visitor{
				Record:   func(Ref, Location) *provenance.Message { return &g.rec },
				Entities: g.entities,
			})
			if err != nil {
				g.done = true
				return true
			}
			g.p = p
		}
		if _, err := g.p.Step(); err != nil {
			g.done = true
			return true
		}
		if g.ks != nil {
			g.ks.Fill(g.p.r)
		}
		return false
	})
	if panicked != nil || g.p == nil {
		// A panic ends grading; the index pass reports decoding errors.
		g.done, ch.Done = true, true
		if panicked != nil {
			ch.Err = panicked.Error()
		}
		return ch
	}
	ch.Grades, g.out = g.out, nil
	ch.Pos, ch.Done = g.p.r.Pos(), g.done
	if g.done {
		ch.Pos = len(g.data)
		g.p = nil
	}
	return ch
}

// ApplyGrades puts a chunk of the grading pass into the index: marks,
// problems, suspects and anomaly stops.
func (ix *Index) ApplyGrades(ch *GradeChunk) {
	for _, g := range ch.Grades {
		msg := ix.Msg(g.At.Cmd, g.At.Msg)
		if msg == nil || msg.PE == nil {
			continue
		}
		pe := msg.PE
		pe.Sev = max(pe.Sev, g.Sev)
		if g.Problem != "" {
			pe.Problem = g.Problem
		}
		pe.fieldSev = g.Fields
		pe.Suspect = g.Suspect
		for at, sv := range g.Fields {
			if u := at.Upd; u < len(pe.Updates) {
				setUpdateSev(&pe.Updates[u], max(UpdateSev(&pe.Updates[u]), sv))
			}
		}
		c := &ix.Commands[g.At.Cmd]
		c.Sev = max(c.Sev, pe.Sev)
		ix.Anoms = appendStops(ix.Anoms, pe, g.At, g)
		for _, f := range g.Findings {
			if len(ix.Findings) < MaxFindings {
				ix.Findings = append(ix.Findings, f)
			}
		}
	}
	ix.GradePos, ix.GradeDone = ch.Pos, ch.Done
}

// appendStops adds the anomaly stops of message msg in field order: every
// field with a strong anomaly, and the suspect of a message with a problem.
func appendStops(out []AnomalyRef, pe *PEInfo, msg Ref, g Grade) []AnomalyRef {
	s := pe.Suspect
	suspect := s != nil
	for u := range pe.Updates {
		upd := Ref{msg.Cmd, msg.Msg, u, -1}
		if suspect && s.At.Upd == u && s.At.Field < 0 {
			out = append(out, AnomalyRef{At: upd})
			suspect = false
		}
		for fi := range pe.Updates[u].Fields() {
			at := Ref{msg.Cmd, msg.Msg, u, int(fi)}
			isSuspect := suspect && s.At.Upd == u && s.At.Field == int(fi)
			if isSuspect || pe.FieldSev(at) == diagnose.SevStrong {
				name := g.Names[at]
				var rule diagnose.Rule
				if isSuspect {
					name = s.Name
				} else {
					rule = strongRule(g.Findings, at)
				}
				out = append(out, AnomalyRef{At: at, Name: name, Rule: rule})
			}
			if isSuspect {
				suspect = false
			}
		}
	}
	return out
}

// strongRule is the first strong rule found on the field at at.
func strongRule(fs []FieldAnomaly, at Ref) diagnose.Rule {
	for _, f := range fs {
		if f.At == at && f.Strong {
			return f.Rule
		}
	}
	return ""
}
