package ui

import "testing"

// The generation rule: a result is applied only when it is its kind's
// latest start under the open file; a start of one kind leaves the others
// current, and reopening the file supersedes every kind.
func TestOneGenerationRule(t *testing.T) {
	var j jobs
	file := j.now(jobFile)
	a := j.start(jobWhatIf)
	if !j.fresh(jobWhatIf, a) || !j.fresh(jobFile, file) {
		t.Fatal("a fresh start is not current")
	}
	b := j.start(jobWhatIf)
	if j.fresh(jobWhatIf, a) || !j.fresh(jobWhatIf, b) {
		t.Fatal("a second start does not supersede the first")
	}
	s := j.start(jobScan)
	if !j.fresh(jobWhatIf, b) || !j.fresh(jobScan, s) {
		t.Fatal("starting a scan superseded the what-if")
	}
	j = j.reopened()
	for k, st := range map[job]stamp{jobFile: file, jobWhatIf: b, jobScan: s} {
		if j.fresh(k, st) {
			t.Errorf("kind %d: a result from before the file was reopened is current", k)
		}
	}
	if c := j.start(jobWhatIf); c == b || !j.fresh(jobWhatIf, c) {
		t.Errorf("a what-if on the reopened file: %+v, before %+v", c, b)
	}
}

// A cut is written to disk whatever the file's aliases since: its result
// stays fresh across a reopen, and only a later cut supersedes it.
func TestCutOutlivesReopen(t *testing.T) {
	var j jobs
	c := j.start(jobCut)
	j = j.reopened()
	if !j.fresh(jobCut, c) {
		t.Fatal("a cut started before a reopen is dropped")
	}
	if j.start(jobCut); j.fresh(jobCut, c) {
		t.Fatal("a second cut does not supersede the first")
	}
}

// Superseded work is stopped: a kind's context is done once the kind
// starts again or the file is reopened, and the other kinds' stay live.
func TestSupersededWorkIsStopped(t *testing.T) {
	var j jobs
	whatIf, file := j.context(jobWhatIf), j.context(jobFile)
	if j.context(jobFile) != file || file.Err() != nil {
		t.Fatal("a kind's context changed or ended without a start")
	}
	j.start(jobWhatIf)
	if whatIf.Err() == nil || file.Err() != nil {
		t.Fatalf("a new what-if: the old one's context %v, the file's %v", whatIf.Err(), file.Err())
	}
	scan := j.context(jobScan)
	j = j.reopened()
	if file.Err() == nil || scan.Err() == nil {
		t.Fatalf("reopened: the file's work %v, the scan %v", file.Err(), scan.Err())
	}
	if j.context(jobFile).Err() != nil {
		t.Fatal("the reopened file's work starts stopped")
	}
}
