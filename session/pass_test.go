package session

import (
	"strings"
	"testing"
	"time"
)

// runStep ends a step when the pass is over, when the budget is spent
// (looked at every few commands), and on a panic, which it names.
func TestRunStep(t *testing.T) {
	n := 0
	if err := runStep(time.Hour, 8, func() bool { n++; return n == 5 }); err != nil || n != 5 {
		t.Fatalf("over at 5: ran %d, %v", n, err)
	}
	n = 0
	if err := runStep(0, 8, func() bool { n++; return false }); err != nil || n != 8 {
		t.Fatalf("budget spent: ran %d (want 8: the clock is read every 8), %v", n, err)
	}
	n = 0
	err := runStep(time.Hour, 8, func() bool {
		if n++; n == 3 {
			panic("bad input")
		}
		return false
	})
	if err == nil || !strings.Contains(err.Error(), "bad input") || n != 3 {
		t.Fatalf("panic at 3: ran %d, %v", n, err)
	}
}
