package decoder

import "sync"

// The string pool gives every distinct string value a small id. Networked
// strings are few and repeat (names, models), so the pool stays small.
//
// Misaligned or corrupt data decodes random bytes as strings, each distinct,
// and the pool never forgets one (values hold ids), so its size is capped:
// once it holds MaxPoolBytes bytes, a new string is not interned and its
// value reads as PoolFullString instead.
var pool struct {
	sync.RWMutex
	ids   map[string]uint64
	strs  []string
	bytes int
}

// MaxPoolBytes bounds the bytes of all interned strings together.
const MaxPoolBytes = 64 << 20

// PoolFullString is the value of a string decoded after the pool filled up.
const PoolFullString = "<string not kept: string pool full>"

// maxPoolBytes is MaxPoolBytes; a variable so that a test can lower it.
var maxPoolBytes = MaxPoolBytes

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
	if pool.bytes+len(s) > maxPoolBytes && s != PoolFullString {
		if id, ok := pool.ids[PoolFullString]; ok {
			return id
		}
		s = PoolFullString
	}
	id := uint64(len(pool.strs))
	pool.strs = append(pool.strs, s)
	pool.ids[s] = id
	pool.bytes += len(s)
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
