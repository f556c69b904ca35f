// Package keep holds what a finished decode hands to the next decode of
// the process (an entity table, a schema's storage, a replay's buffers),
// at most one of each per processor. Unlike sync.Pool it keeps them
// across collections: a benchmark's or a checker's next decode comes after
// the collector has run.
package keep

import (
	"runtime"
	"sync"
)

// Pool holds kept things of one kind. Its zero value is empty.
type Pool[T any] struct {
	mu    sync.Mutex
	items []T
}

// Full reports whether the pool holds one per processor already: a
// caller can skip preparing what Put would not keep.
func (p *Pool[T]) Full() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.items) >= runtime.GOMAXPROCS(0)
}

// Put keeps x unless the pool is full.
func (p *Pool[T]) Put(x T) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.items) < runtime.GOMAXPROCS(0) {
		p.items = append(p.items, x)
	}
}

// Take removes and returns the last thing kept; ok is false when there is
// none.
func (p *Pool[T]) Take() (x T, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.items) - 1
	if n < 0 {
		return x, false
	}
	x, p.items[n] = p.items[n], x
	p.items = p.items[:n]
	return x, true
}
