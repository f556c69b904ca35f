package ui

import (
	"math"
	"runtime/debug"
	"sync"
)

// A seek (the live decoder resuming from the keyframe before the message
// shown and decoding to it) makes 5-25 MiB of garbage. After the index and
// grading passes about 350 MiB stay live on the 100 MB replay (index,
// keyframes, rows), so under the 420 MiB soft limit (tuneGC) the heap's
// goal is only a few tens of MiB above it, and about every other seek
// started a collection that marked the whole heap while the seek helped it
// (mutator assists). Measured in-process with 350 MiB live (40 seeks to
// random ticks each way, interleaved): p50 38 ms, p95 84 ms, max 119 ms,
// against 17, 36 and 41 ms with the limit raised while the seek runs.
// So a seek runs with the soft limit raised by seekRoom and the collection
// comes after it, once the screen has its answer; the process stays under
// the 500 MiB the debugger promises for a full-length replay.
const seekRoom = 64 << 20

var gcRoom struct {
	sync.Mutex
	n     int   // seeks running
	limit int64 // the limit before the first of them
}

// withSeekRoom runs f with the soft memory limit raised by seekRoom (when
// there is a limit).
func withSeekRoom[T any](f func() T) T {
	gcRoom.Lock()
	if gcRoom.n == 0 {
		gcRoom.limit = debug.SetMemoryLimit(-1)
		if gcRoom.limit < math.MaxInt64-seekRoom {
			debug.SetMemoryLimit(gcRoom.limit + seekRoom)
		}
	}
	gcRoom.n++
	gcRoom.Unlock()
	defer func() {
		gcRoom.Lock()
		gcRoom.n--
		if gcRoom.n == 0 && gcRoom.limit < math.MaxInt64-seekRoom {
			debug.SetMemoryLimit(gcRoom.limit)
		}
		gcRoom.Unlock()
	}()
	return f()
}
