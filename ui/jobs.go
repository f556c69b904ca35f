package ui

// The one generation rule for work off the loop. Every tea.Cmd that
// decodes carries back the stamp of its start; Update applies a result
// only when its stamp is still its kind's latest start under the open
// file. Starting a kind again supersedes what runs (a new selection's
// decode, a new search, esc leaving a what-if), and reopening the file
// under other aliases supersedes everything started before.

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

// jobs hands out stamps.
type jobs struct {
	file uint64
	n    [numJobs]uint64
}

// start starts work of kind k, superseding k's earlier work.
func (j *jobs) start(k job) stamp {
	j.n[k]++
	return j.now(k)
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
// start is superseded.
func (j jobs) reopened() jobs {
	j.file++
	return j
}
