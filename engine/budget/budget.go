// Package budget bounds the memory a decode may hold. A replay's decoded
// state is proportional to what the file sends, but a crafted file can send
// little and ask for much (a wide class created thousands of times, arrays
// written at their last index); the engine checks the budget as it grows
// its state and stops with a located error instead of running out of
// memory, which a Go program cannot recover from.
package budget

import (
	"fmt"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

var limit atomic.Int64

// Set makes Check fail once the live heap passes bytes (0: no budget). It
// also asks the garbage collector to keep the whole process under soft,
// so that garbage never pushes it past what the budget allows (0: leave
// the collector's limit as it is). It never raises a lower limit already
// set (GOMEMLIMIT in the environment, say).
func Set(bytes, soft int64) {
	limit.Store(bytes)
	if soft > 0 && soft < debug.SetMemoryLimit(-1) {
		debug.SetMemoryLimit(soft)
	}
}

// Limit is the budget in bytes, 0 for none.
func Limit() int64 { return limit.Load() }

// Error says the budget is spent.
type Error struct{ Live, Limit int64 }

func (e *Error) Error() string {
	return fmt.Sprintf("decoded state passes the memory budget (%d MiB live, budget %d MiB): the file asks for far more state than it sends",
		e.Live>>20, e.Limit>>20)
}

var (
	mu     sync.Mutex
	sample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
)

// Check returns an *Error when the heap the last garbage collection found
// live is past the budget. It collects nothing itself: Set's soft limit
// makes the collector run before the process grows past it, and each run
// measures what is live.
func Check() error {
	l := limit.Load()
	if l <= 0 {
		return nil
	}
	mu.Lock()
	defer mu.Unlock()
	metrics.Read(sample)
	if live := int64(sample[0].Value.Uint64()); live >= l {
		return &Error{Live: live, Limit: l}
	}
	return nil
}
