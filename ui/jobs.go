package ui

import "context"

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

// current reports whether a result stamped s is k's latest.
func (j *jobs) current(k job, s stamp) bool { return s == j.now(k) }

// latest reports whether a result stamped s is k's latest start under
// this file or one it was reopened from: for work whose effect outlives
// the file's decode (a cut written to disk is reported after a reopen).
func (j *jobs) latest(k job, s stamp) bool { return s.n == j.n[k] }

// reopened is the stamps after the file is opened again: every earlier
// start is superseded, and its work stopped.
func (j jobs) reopened() jobs {
	for k := range numJobs {
		j.stop(k)
	}
	j.file++
	return j
}
