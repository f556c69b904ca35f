package session

import (
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/forecast"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// CheckOptions are the settings of check's decode (File.Check).
type CheckOptions struct {
	// Infer infers what names decoder choice does not know behave as
	// where a message misaligns.
	Infer bool
	// Since is the schema of an earlier build: names unknown now that it
	// lacks are the likeliest suspects.
	Since *schema.Schema
	// Confirm decodes the rest of the file again under what was inferred.
	Confirm bool
	// Strings is the pool the decodes intern string values in (nil: the
	// default pool).
	Strings *decoder.Pool
}

// Checked is check's decode of a file: the whole file decoded under its
// aliases, watching what the public parsers read otherwise, and what the
// inference found where a message misaligned.
type Checked struct {
	// First is the decode under the file's aliases; Last, with Confirm,
	// the decode on under what was inferred (First when nothing was).
	First, Last *Pass
	FirstErr    error
	Findings    []InferredName
	// Aliases are the file's plus the inferred.
	Aliases schema.Aliases
	// Inference is what the inference found (nil: nothing).
	Inference *Inference
	// Parsers is how each public parser of the file's game reads it.
	Parsers []ParserForecast

	file *File
	// The capture of the decode's first misaligned message, made once for
	// its suspect and its header check: each decodes the file up to the
	// message again otherwise (three decodes of a file of 65,536 wide
	// creates took check 4 s of its 10).
	captured   *diagnose.Case
	captureErr error
	capturedAt Location
	didCapture bool
}

// capture is the file's capture of at, kept for the next ask of the same
// message (check asks in turn, never at once).
func (c *Checked) capture(at Location) (*diagnose.Case, error) {
	if !c.didCapture || c.capturedAt != at {
		c.captured, c.captureErr = c.file.capture(at)
		c.capturedAt, c.didCapture = at, true
	}
	return c.captured, c.captureErr
}

// HeaderCheck is the header check of the decode's first misaligned
// message (File.HeaderCheck), nil without one.
func (c *Checked) HeaderCheck() *HeaderCheck {
	at, _, ok := c.First.FirstMisaligned()
	if !ok {
		return nil
	}
	cs, err := c.capture(at)
	if err != nil || cs == nil {
		return nil
	}
	return headerCheckOf(cs)
}

// Check decodes the whole file as `dembug check` does (infer.Run): nil
// with the error when it could not start.
func (f *File) Check(o CheckOptions) (*Checked, error) {
	ch, err := infer.Run(f.data, f.aliases, infer.Options{Infer: o.Infer, Since: o.Since, Confirm: o.Confirm, Strings: o.Strings,
		Watch: forecast.Watch})
	if ch == nil {
		return nil, err
	}
	c := &Checked{First: decoded(ch.First), Last: decoded(ch.Last), FirstErr: ch.FirstErr, Findings: ch.Findings,
		Aliases: ch.Aliases, Inference: InferenceOf(ch), file: f}
	if ch.Last == ch.First {
		c.Last = c.First
	}
	c.Parsers = forecastOf(ch, f.data, f.aliases)
	return c, nil
}

// FirstSuspect is the first suspect of the decode's first misaligned
// message, found as the TUI finds it (File.FirstSuspect) but not resolved
// in the message's decode: nil without a misaligned message, or when the
// inference found no breaking read and search is false (a search for
// what aligns the message is slower).
func (c *Checked) FirstSuspect(search bool) *Suspect {
	at, _, ok := c.First.FirstMisaligned()
	if !ok || !search && (c.Inference == nil || c.Inference.Break == nil) {
		return nil
	}
	return locateFirstSuspect(c.capture, at, c.Inference, false)
}

// decoded is a finished decode of the engine's, as a Pass to ask (nil for
// nil): no visitor, as the decode is over.
func decoded(r *replay.Replay) *Pass {
	if r == nil {
		return nil
	}
	return &Pass{r: r}
}

// TallyAnomalies decodes the whole file recording every field and tallies
// the anomaly rules' findings into t (its muted rules and fields left
// out), interning string values in pool (nil: the default pool): check
// --anomalies.
func (f *File) TallyAnomalies(t *Tally, pool *decoder.Pool) error {
	var rec provenance.Message
	var p *Pass
	p, err := f.Pass(Visitor{
		Record: func(Ref, Location) *provenance.Message { return &rec },
		Entities: func(_ Ref, loc Location, _ *messages.PacketEntities, _ Result, m *provenance.Message) {
			if m == nil {
				return
			}
			rep := diagnose.Message(m, diagnose.LookupIn(p.r.Entities))
			if rep.Count == 0 {
				return
			}
			t.AddMessage(m, rep, diagnose.Where{Tick: loc.Tick, Command: loc.Command, Message: loc.Message})
		},
	})
	if err != nil {
		return err
	}
	p.r.Entities.Strings = pool
	return p.Run(nil)
}
