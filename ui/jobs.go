package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
)

// The one generation rule for work off the loop. Every tea.Cmd that
// decodes carries back the stamp of its start; Update applies a result
// only when its stamp is still its kind's latest start under the open
// file. Starting a kind again supersedes what runs (a new selection's
// decode, a new search, esc leaving a what-if), and reopening the file
// under other aliases supersedes everything started before.

// Superseded work is also stopped where it can be: jobs.context is a
// context for work of a kind that is done once the kind starts again or
// the file is reopened, so a long decode whose result would be dropped
// does not run on beside its successor.

// Every piece of work off the loop is started by run (or runAfter, for a
// timer) and comes back as a done message: its kind, the stamp of its
// start and what it found. onDone drops it unless fresh says its stamp is
// still its kind's latest (the one rule), then hands the result to the
// kind's handler (done.go).

// job is a kind of work off the loop.
type job uint8

const (
	jobFile   job = iota // the file's own passes: the index, inference, first suspect, promotion count
	jobDetail            // the selected message's live decode
	jobGrade             // the grading pass
	jobScan              // a search or filter
	jobCount             // the count of a search's matches
	jobWhatIf            // a what-if decode
	jobWalk              // a string table's bit walk
	jobCut               // a tick window written as a replay (cut.go)
	jobAlign             // the picker's check of which decoders align (pickalign.go)
	jobTable             // a string-table message's entries (header.go)
	numJobs
)

// stamp is what a result carries back: the file it was asked of and the
// start of its kind.
type stamp struct{ file, n uint64 }

// jobs hands out stamps, and contexts that end with them.
type jobs struct {
	file   uint64
	n      [numJobs]uint64
	ctx    [numJobs]context.Context
	cancel [numJobs]context.CancelFunc
}

// start starts work of kind k, superseding (and stopping) k's earlier work.
func (j *jobs) start(k job) stamp {
	j.stop(k)
	j.n[k]++
	return j.now(k)
}

// context is the context of k's latest start: done when k starts again or
// the file is reopened.
func (j *jobs) context(k job) context.Context {
	if j.ctx[k] == nil {
		j.ctx[k], j.cancel[k] = context.WithCancel(context.Background())
	}
	return j.ctx[k]
}

// stop ends the context of k's latest start, if it has one.
func (j *jobs) stop(k job) {
	if j.cancel[k] != nil {
		j.cancel[k]()
		j.ctx[k], j.cancel[k] = nil, nil
	}
}

// now is the stamp of k's latest start (work of the file itself starts
// with the file).
func (j jobs) now(k job) stamp { return stamp{j.file, j.n[k]} }

// fresh is the one rule a result is applied by: its stamp is its kind's
// latest start under the open file; for a cut, whose effect outlives the
// file's decode (a file written to disk is reported after a reopen), its
// kind's latest start under this file or one it was reopened from.
func (j *jobs) fresh(k job, s stamp) bool {
	if k == jobCut {
		return s.n == j.n[k]
	}
	return s == j.now(k)
}

// done is the one message work off the loop sends back: the kind of work,
// the stamp of its start and its result (nil for none).
type done struct {
	kind job
	at   stamp
	v    any
}

// run runs f off the loop as work of kind k under k's latest start (start
// k first for work that supersedes what runs); a panic in f becomes a
// panicMsg. Its result comes back as a done.
func (m *Model) run(k job, f func() any) tea.Cmd {
	at := m.jobs.now(k)
	return safe(func() tea.Msg { return done{k, at, f()} })
}

// runAfter is run for a timer: after d, f runs and its result comes back
// as a done of kind k (the grading pass waiting out the keys, a cut's
// progress).
func (m *Model) runAfter(k job, d time.Duration, f func() any) tea.Cmd {
	at := m.jobs.now(k)
	return tea.Tick(d, func(time.Time) tea.Msg { return done{k, at, f()} })
}

// reopened is the stamps after the file is opened again: every earlier
// start is superseded, and its work stopped.
func (j jobs) reopened() jobs {
	for k := range numJobs {
		j.stop(k)
	}
	j.file++
	return j
}
