package session

import (
	"io"
	"time"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// Scan decodes the file again, recording, to find the updates whose class
// or field names match a query (the index keeps no field names). A search
// runs forward from a place, resuming from the keyframe before it, to the
// first match, wrapping at the end of the file; a filter runs over the
// whole file and keeps every match. It runs in steps (Step), off the UI's
// loop; dropping it cancels it.
type Scan struct {
	data    []byte
	aliases schema.Aliases
	ks      *replay.Keyframes
	mt      *Matcher
	seen    map[string]bool
	all     bool
	after   Ref // a search's place: matches count after its update (before it once wrapped)
	from    int // the command the scan started decoding at
	total   int // commands in the file

	p       *Pass
	rec     provenance.Message
	wrapped bool
	done    bool
	passed  int // commands decoded so far
	hits    []Ref
	err     error
}

// newSearch prepares a search for the first update after after's update
// (after.Msg or after.Upd -1: before the command's first, or the
// message's) matching mt; commands is the number of commands in the file.
func newSearch(data []byte, a schema.Aliases, ks *replay.Keyframes, mt *Matcher, after Ref, commands int) *Scan {
	return &Scan{data: data, aliases: a, ks: ks, mt: mt, seen: map[string]bool{}, after: after, total: commands}
}

// newFilter prepares a scan of the whole file for every update matching mt.
func newFilter(data []byte, a schema.Aliases, mt *Matcher, commands int) *Scan {
	return &Scan{data: data, aliases: a, mt: mt, seen: map[string]bool{}, all: true, after: Ref{-1, -1, -1, -1}, total: commands}
}

// ScanStep is what one step of a scan found: each hit an update, at the
// first of its fields whose name matches (Field 0 when only the class
// does).
type ScanStep struct {
	Hits     []Ref
	Done     bool
	Progress float64 // 0..1 of the file scanned
	Err      error
}

func (s *Scan) open() error {
	st := start{data: s.data, aliases: s.aliases}
	if !s.all && !s.wrapped {
		st.ks, st.before = s.ks, s.after.Cmd
	}
	p, err := openPass(st, Visitor{
		Record: func(at Ref, _ Location) *provenance.Message {
			if s.wrapped || s.all || at.Cmd >= s.after.Cmd {
				return &s.rec
			}
			return nil
		},
		Entities: s.entities,
	})
	if err != nil {
		return err
	}
	s.p, s.from = p, p.from
	return nil
}

func (s *Scan) name(n string) bool {
	ok, seen := s.seen[n]
	if !seen {
		ok = s.mt.FieldName(n)
		s.seen[n] = ok
	}
	return ok
}

func (s *Scan) entities(msg Ref, _ Location, _ *messages.PacketEntities, _ entity.Result, rec *provenance.Message) {
	if rec == nil {
		return
	}
	after := s.after.Update()
	for u := range rec.Updates {
		h := Ref{msg.Cmd, msg.Msg, u, -1}
		if !s.all {
			if past := after.Compare(h) < 0; !s.wrapped && !past || s.wrapped && past {
				continue
			}
		}
		for fi, f := range rec.UpdateFields(u) {
			if s.name(f.Name) {
				h.Field = fi
				break
			}
		}
		if h.Field < 0 {
			if !s.mt.Class(rec.Updates[u].Class) {
				continue
			}
			h.Field = 0
		}
		s.hits = append(s.hits, h)
		if !s.all {
			s.done = true
			return
		}
	}
}

// Step scans for about budget. A search's step ends at its first hit.
func (s *Scan) Step(budget time.Duration) (st ScanStep) {
	if s.done {
		return ScanStep{Done: true, Progress: 1}
	}
	panicked := runStep(budget, 8, func() bool {
		if s.p == nil {
			if err := s.open(); err != nil {
				s.done, s.err = true, err
				return true
			}
		}
		c, err := s.p.Step()
		if err != nil {
			if err != io.EOF {
				// A broken file ends the scan where decoding stops.
				s.err = err
			}
			if s.all || s.wrapped {
				s.done = true
				return true
			}
			// A search wraps: from the start to its place.
			s.wrapped, s.p = true, nil
			s.passed = s.total - s.after.Cmd + s.from
			if err := s.open(); err != nil {
				s.done = true
				return true
			}
			return false
		}
		s.passed++
		if s.wrapped && c.Index >= s.after.Cmd {
			s.done = true
		}
		return s.done
	})
	if panicked != nil {
		s.done, s.err = true, panicked
		return ScanStep{Done: true, Err: s.err, Progress: 1}
	}
	st = ScanStep{Hits: s.hits, Done: s.done, Err: s.err}
	s.hits = nil
	if s.total > 0 {
		st.Progress = min(1, float64(s.passed)/float64(s.total))
	}
	if s.done {
		st.Progress = 1
		s.p = nil
	}
	return st
}
