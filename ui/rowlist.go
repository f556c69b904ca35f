package ui

import (
	"sort"

	"github.com/dembug/dembug/views"
)

// rowList is the timeline's visible rows, held as runs: a stretch of
// collapsed commands one after another is one entry, whatever its length.
// A file of millions of tiny commands has millions of rows; as a list of
// rows they took 16 bytes each and were copied as the list grew, which
// took the debugger past its memory bound. Expanded commands, their
// messages and updates, a filter's scattered commands and the end's row
// are entries of their own.
type rowList struct {
	runs []rowRun
	n    int
}

// rowRun is one entry: row, and when it is a command row, the n-1
// commands after it as well, starting at row index start.
type rowRun struct {
	start int32
	n     int32
	row   tlRow
}

// Len is the number of rows.
func (l *rowList) Len() int { return l.n }

// reset empties the list, keeping its storage.
func (l *rowList) reset() {
	l.runs, l.n = l.runs[:0], 0
}

// add appends a row, extending the last run when it is the command row
// after the run's last.
func (l *rowList) add(r tlRow) {
	if k := len(l.runs) - 1; k >= 0 && r.kind == views.RowCommand {
		last := &l.runs[k]
		if last.row.kind == views.RowCommand && last.row.cmd+last.n == r.cmd {
			last.n++
			l.n++
			return
		}
	}
	l.runs = append(l.runs, rowRun{start: int32(l.n), n: 1, row: r})
	l.n++
}

// run is the entry holding row i (i in range).
func (l *rowList) run(i int) int {
	return sort.Search(len(l.runs), func(k int) bool { return int(l.runs[k].start) > i }) - 1
}

// At returns row i (0 ≤ i < Len).
func (l *rowList) At(i int) tlRow {
	run := l.runs[l.run(i)]
	r := run.row
	if off := int32(i) - run.start; off > 0 {
		r.cmd += off
	}
	return r
}

// Last returns the last row; false when there is none.
func (l *rowList) Last() (tlRow, bool) {
	if l.n == 0 {
		return tlRow{}, false
	}
	return l.At(l.n - 1), true
}

// firstAtOrAfter is the first row of a command at or after cmd (Len when
// none): the rows are in command order, the end's row (command -1) last.
func (l *rowList) firstAtOrAfter(cmd int32) int {
	k := sort.Search(len(l.runs), func(k int) bool {
		r := l.runs[k]
		return r.row.cmd+r.n-1 >= cmd || isEnd(r.row.kind)
	})
	if k == len(l.runs) {
		return l.n
	}
	r := l.runs[k]
	if off := cmd - r.row.cmd; off > 0 && r.row.kind == views.RowCommand && !isEnd(r.row.kind) {
		return int(r.start + off)
	}
	return int(r.start)
}
