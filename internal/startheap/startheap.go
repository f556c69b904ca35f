// Package startheap puts off a process's first garbage collection until
// its heap has grown to a floor. Opening a replay builds its state from
// nothing (schema, string tables, every entity of the first full frame): a
// short replay's whole decode allocates 5-20 MiB, nearly all of it live to
// the end, so the collections the runtime starts on the way (its first
// comes at 4 MiB times GOGC/100) mark a heap that is only growing and
// free little. The Go compiler puts off its first collection the same way
// (cmd/compile's AdjustStartingHeap).
//
// The runtime's minimum heap goal is 4 MiB times GOGC/100, so a GOGC of
// floor/4 MiB × 100 puts the first collection at the floor. A finalizer on
// a sentinel runs once that collection is over and sets the GOGC the
// process asked for: from then on the collector paces as usual.
package startheap

import (
	"runtime"
	"runtime/debug"
	"sync"
)

// runtimeMinHeap is the runtime's minimum heap goal at GOGC=100.
const runtimeMinHeap = 4 << 20

var state struct {
	sync.Mutex
	pending bool // the first collection has not happened yet
	after   int  // the GOGC to set once it has
}

// Defer sets GOGC to pct, its first collection put off until the heap
// reaches floor bytes. A soft memory limit below floor still holds.
func Defer(pct int, floor uint64) {
	raised := int(floor / runtimeMinHeap * 100)
	if pct <= 0 || raised <= pct {
		SetGCPercent(pct)
		return
	}
	state.Lock()
	defer state.Unlock()
	state.after = pct
	if state.pending {
		return
	}
	state.pending = true
	debug.SetGCPercent(raised)
	// A sentinel of its own size class (the tiny allocator batches
	// objects under 16 bytes, and their finalizers may never run): it is
	// unreachable at once, so its finalizer runs after the first cycle.
	runtime.SetFinalizer(new([32]byte), func(*[32]byte) {
		state.Lock()
		defer state.Unlock()
		state.pending = false
		debug.SetGCPercent(state.after)
	})
}

// SetGCPercent is debug.SetGCPercent, except that while the first
// collection is put off it sets the GOGC to take once that collection is
// over.
func SetGCPercent(pct int) {
	state.Lock()
	defer state.Unlock()
	if state.pending {
		state.after = pct
		return
	}
	debug.SetGCPercent(pct)
}

// pending reports whether the first collection is still put off.
func pending() bool {
	state.Lock()
	defer state.Unlock()
	return state.pending
}
