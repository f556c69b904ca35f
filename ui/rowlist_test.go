package ui

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/dembug/dembug/views"
)

// The row list answers as the plain list of its rows would: each row by
// index, the last, and the first row of a command at or after any.
func TestRowListIsItsRows(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var l rowList
		var want []tlRow
		cmd := int32(0)
		for range rapid.IntRange(0, 200).Draw(rt, "rows") {
			cmd += int32(rapid.IntRange(0, 3).Draw(rt, "gap"))
			r := tlRow{views.RowCommand, cmd, -1, -1}
			switch rapid.IntRange(0, 5).Draw(rt, "kind") {
			case 0:
				r = tlRow{views.RowMessage, cmd, 0, -1}
			case 1:
				r = tlRow{views.RowUpdate, cmd, 0, 1}
			}
			l.add(r)
			want = append(want, r)
		}
		if rapid.Bool().Draw(rt, "end") {
			r := tlRow{views.RowNote, -1, -1, -1}
			l.add(r)
			want = append(want, r)
		}
		if l.Len() != len(want) {
			rt.Fatalf("Len %d, want %d", l.Len(), len(want))
		}
		for i, w := range want {
			if got := l.At(i); got != w {
				rt.Fatalf("At(%d) = %v, want %v", i, got, w)
			}
		}
		if last, ok := l.Last(); ok != (len(want) > 0) || ok && last != want[len(want)-1] {
			rt.Fatalf("Last = %v %v", last, ok)
		}
		for c := int32(-1); c <= cmd+2; c++ {
			first := len(want)
			for i, w := range want {
				if w.cmd >= c || isEnd(w.kind) {
					first = i
					break
				}
			}
			if got := l.firstAtOrAfter(c); got != first {
				rt.Fatalf("firstAtOrAfter(%d) = %d, want %d", c, got, first)
			}
		}
		// Commands one after another are one run.
		if len(l.runs) > len(want) {
			rt.Fatalf("%d runs for %d rows", len(l.runs), len(want))
		}
	})
}

func TestRowListRunsConsecutiveCommands(t *testing.T) {
	var l rowList
	for c := range int32(1000) {
		l.add(tlRow{views.RowCommand, c, -1, -1})
	}
	if len(l.runs) != 1 || l.Len() != 1000 || l.At(999).cmd != 999 {
		t.Fatalf("1000 commands: %d runs, %d rows, last %v", len(l.runs), l.Len(), l.At(999))
	}
}

// rows returns every row, in order.
func (l *rowList) rows() []tlRow {
	out := make([]tlRow, 0, l.n)
	for i := range l.n {
		out = append(out, l.At(i))
	}
	return out
}
