package ui

import (
	"math"
	"runtime/debug"
	"testing"
)

// A seek runs with the soft limit raised by seekRoom, nested seeks share
// the raise, and the limit comes back after the last; with no limit set
// nothing changes.
func TestWithSeekRoom(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)

	debug.SetMemoryLimit(300 << 20)
	got := withSeekRoom(func() int64 {
		inner := withSeekRoom(func() int64 { return debug.SetMemoryLimit(-1) })
		if inner != 300<<20+seekRoom {
			t.Errorf("nested seek: limit %d MiB, want %d", inner>>20, (300<<20+seekRoom)>>20)
		}
		return debug.SetMemoryLimit(-1)
	})
	if got != 300<<20+seekRoom {
		t.Errorf("during a seek: limit %d MiB, want %d", got>>20, (300<<20+seekRoom)>>20)
	}
	if l := debug.SetMemoryLimit(-1); l != 300<<20 {
		t.Errorf("after the seek: limit %d MiB, want 300", l>>20)
	}

	debug.SetMemoryLimit(math.MaxInt64)
	if l := withSeekRoom(func() int64 { return debug.SetMemoryLimit(-1) }); l != math.MaxInt64 {
		t.Errorf("no limit: raised to %d", l)
	}
}
