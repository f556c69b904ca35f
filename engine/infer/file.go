package infer

import (
	"context"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// MaxRounds bounds how many times inference starts again where a decode
// under what it found misaligns further on.
//
// The checked run keeps no forks as it goes: a fork makes every entity's
// state shared, and the run then copies each node it writes, which cost an
// ordinary check a sixth of its time (forks taken during the signon only,
// with no entity yet, still cost a tenth for the string tables' copies and
// saved a patched check nothing measurable). Inference decodes afresh up to
// the first misaligned message, most often early in the file.
const MaxRounds = 3

// Checked is a whole-file decode, and what inference made of it.
type Checked struct {
	First    *replay.Replay // the decode under the aliases asked for
	FirstErr error
	Findings []Finding
	// Break is the read that breaks alignment: the first read of the
	// first inferred name in the first misaligned message (nil when
	// nothing was inferred).
	Break *UnknownRead
	// Aliases are the ones asked for plus the inferred; Last is the
	// decode under them (First when nothing was inferred).
	Aliases schema.Aliases
	Last    *replay.Replay
	LastErr error
}

// Options says how far a checked run goes.
type Options struct {
	Infer bool // infer unknown names when a message misaligns
	// Confirm decodes the rest of the file again under what was
	// inferred, and infers again where a message misaligns further on
	// (up to MaxRounds times). Without it, inference costs the messages it
	// tests, and the findings rest on them.
	Confirm bool
	// Since is the schema of an earlier build: names unknown now that it
	// does not have are the likeliest suspects (what the patch brought).
	Since *schema.Schema
	// Strings is the pool the decodes intern string values in (nil: the
	// default pool; see decoder.Pool).
	Strings *decoder.Pool
	// Watch picks, given the file's game, fields the first decode's
	// evidence counts besides the unknown and corrected ones
	// (replay.Replay.WatchFor).
	Watch func(game.Game) func(*schema.Field) bool
}

// Run decodes the whole file under aliases a; when a message misaligns and
// the schema has unknown names, it infers them from the first misaligned
// message (see Options).
func Run(data []byte, a schema.Aliases, o Options) (*Checked, error) {
	r, err := decode(data, a, o.Strings, o.Watch)
	if r == nil {
		return nil, err
	}
	ch := &Checked{First: r, FirstErr: err, Aliases: a, Last: r, LastErr: err}
	if !o.Infer {
		return ch, nil
	}
	for round := 0; round < MaxRounds; round++ {
		last := ch.Last
		if last.FirstMisaligned == nil || last.Schema == nil || len(last.Schema.Unknowns()) == 0 {
			break
		}
		at := last.FirstMisaligned.Loc
		start, err := resumeBefore(data, ch.Aliases, last, at.Command, o.Strings)
		if err != nil {
			break
		}
		c := &Fork{Start: start, At: at, New: last.Schema.NewUnknowns(o.Since)}
		found, aliases, sus, err := c.infer()
		if err != nil || len(found) == 0 {
			break
		}
		if ch.Break == nil {
			ch.Break = sus
		}
		ch.Findings = append(ch.Findings, found...)
		ch.Aliases = aliases
		if !o.Confirm {
			break
		}
		ch.Last, ch.LastErr = verify(start, aliases)
		if ch.Last == nil {
			ch.Last = last
			break
		}
		if nl := ch.Last.FirstMisaligned; nl != nil && (nl.Loc.Command < at.Command || nl.Loc.Command == at.Command && nl.Loc.Message <= at.Message) {
			break // no further on: another round would find the same
		}
	}
	ch.addValueFindings(ValueEvidence(ch.First))
	return ch, nil
}

// From is Run's inference without its decodes (one round, no Confirm),
// for a caller that decoded the whole file under aliases a already: start
// is a replay under a positioned at or before the command of at, that
// decode's first misaligned message (a keyframe's Resume, say, so the
// inference decodes from there rather than from byte 0), nil when no
// message misaligned; values are that decode's ValueEvidence. First and
// Last are nil.
//
// ctx stops it once done (nil: never); what it found by then is kept.
func From(ctx context.Context, a schema.Aliases, start *replay.Replay, at replay.Location, values []NameEvidence) *Checked {
	ch := &Checked{Aliases: a}
	if start != nil && start.Schema != nil && len(start.Schema.Unknowns()) > 0 && reach(start, at.Command) {
		c := &Fork{Start: start, At: at, Ctx: ctx}
		if found, aliases, sus, err := c.infer(); err == nil && len(found) > 0 {
			ch.Break, ch.Findings, ch.Aliases = sus, found, aliases
		}
	}
	ch.addValueFindings(values)
	return ch
}

// reach decodes r up to just before command cmd; false when decoding
// broke first (Run's resumeBefore: nothing is inferred then).
func reach(r *replay.Replay, cmd int) bool {
	if r.Stats.Commands >= cmd {
		return true
	}
	return r.Run(func(c *container.Command) bool { return c.Index+1 >= cmd }) == nil
}

// decode runs a whole file under aliases a, interning strings in p.
func decode(data []byte, a schema.Aliases, p *decoder.Pool, watch func(game.Game) func(*schema.Field) bool) (*replay.Replay, error) {
	r, err := replay.Open(data)
	if err != nil {
		return nil, err
	}
	r.Aliases, r.Entities.Strings, r.WatchFor = a, p, watch
	r.Entities.GatherEvidence()
	return r, r.Run(nil)
}

// verify decodes the rest of the file from start (a replay positioned
// before the first misaligned message) under aliases a: a run as if the
// whole file had been decoded with them, but for the values decoded
// before start.
func verify(start *replay.Replay, a schema.Aliases) (*replay.Replay, error) {
	r := start.Fork()
	if err := r.Realias(a); err != nil {
		return nil, err
	}
	r.FirstMisaligned = nil
	return r, r.Run(nil)
}

// resumeBefore returns a replay decoded under aliases a up to just before
// command cmd, taking the schema an earlier decode (from) parsed; strings
// go to p.
func resumeBefore(data []byte, a schema.Aliases, from *replay.Replay, cmd int, p *decoder.Pool) (*replay.Replay, error) {
	r, err := replay.Open(data)
	if err != nil {
		return nil, err
	}
	r.Aliases, r.Entities.Strings = a, p
	if from != nil {
		r.ReuseSchema(from)
	}
	if cmd > 0 {
		if err := r.Run(func(c *container.Command) bool { return c.Index+1 >= cmd }); err != nil {
			return nil, err
		}
	}
	return r, nil
}
