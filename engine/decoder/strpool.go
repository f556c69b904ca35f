package decoder

import "sync"

// The string pool gives every distinct string value a small id. Networked
// strings are few and repeat (names, models), so the pool stays small.
var pool struct {
	sync.RWMutex
	ids  map[string]uint64
	strs []string
}

func intern(s string) uint64 {
	pool.RLock()
	id, ok := pool.ids[s]
	pool.RUnlock()
	if ok {
		return id
	}
	return add(s)
}

func internBytes(b []byte) uint64 {
	pool.RLock()
	id, ok := pool.ids[string(b)] // no allocation for a map lookup
	pool.RUnlock()
	if ok {
		return id
	}
	return add(string(b))
}

func add(s string) uint64 {
	pool.Lock()
	defer pool.Unlock()
	if id, ok := pool.ids[s]; ok {
		return id
	}
	if pool.ids == nil {
		pool.ids = map[string]uint64{}
	}
	id := uint64(len(pool.strs))
	pool.strs = append(pool.strs, s)
	pool.ids[s] = id
	return id
}

func lookup(id uint64) string {
	pool.RLock()
	defer pool.RUnlock()
	if id < uint64(len(pool.strs)) {
		return pool.strs[id]
	}
	return ""
}
