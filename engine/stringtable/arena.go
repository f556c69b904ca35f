package stringtable

import "unsafe"

// arena hands out the keys and values one Apply decodes from a few shared
// blocks instead of one allocation each: a replay's first tables carry
// thousands of entries (Dota 2's signon, some 7,000), and each allocation
// is also an object for the collector to trace. A block's bytes are never
// written again once handed out (values are capacity-clipped, keys are
// strings over them), so keys and values from one block stay as they were
// while any of them lives. Small updates, the in-game stream, allocate as
// before: a block would only hold their few entries longer.
type arena struct {
	buf  []byte
	next int // size of the next block
}

// minArenaEntries is the entry count from which Apply uses an arena.
const minArenaEntries = 32

func newArena(dataLen int) *arena {
	return &arena{next: min(max(dataLen+dataLen/4, 1<<10), 1<<20)}
}

// take returns an empty slice with room for exactly n bytes.
func (a *arena) take(n int) []byte {
	if a == nil || n == 0 {
		return make([]byte, 0, n) // never nil, as before arenas
	}
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, max(n, a.next))
	}
	l := len(a.buf)
	a.buf = a.buf[:l+n]
	return a.buf[l : l : l+n]
}

// str returns b as a string, copied into the arena.
func (a *arena) str(b []byte) string {
	if a == nil || len(b) == 0 {
		return string(b)
	}
	c := append(a.take(len(b)), b...)
	return unsafe.String(unsafe.SliceData(c), len(c))
}
