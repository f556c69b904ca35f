package decoder

import (
	"sync"
	"sync/atomic"
)

// A Pool gives every distinct string value a small id. Networked strings
// are few and repeat (names, models), so a pool stays small.
//
// Misaligned or corrupt data decodes random bytes as strings, each
// distinct, and a pool never forgets one (values hold ids), so its size is
// capped: once it holds MaxPoolBytes bytes, a new string is not interned
// and its value reads as PoolFullString instead.
//
// A decode interns into its own pool when its owner gives it one
// (entity.Table.Strings, which the table hands its readers as
// bitio.Reader.Strings; dembug check gives each file its own), so that one
// corrupt file cannot fill the pool for the files decoded beside it, and
// releases it when done; otherwise into the shared default pool. A value
// carries its pool's number above its id.
type Pool struct {
	mu    sync.RWMutex
	ids   map[string]uint64
	strs  []string
	bytes int
	limit int    // bytes kept at most; 0 for maxPoolBytes
	num   uint64 // the pool's number, shifted into place
}

// MaxPoolBytes bounds the bytes of all strings of one pool together.
const MaxPoolBytes = 64 << 20

// PoolFullString is the value of a string decoded after its pool filled up.
const PoolFullString = "<string not kept: string pool full>"

// maxPoolBytes is MaxPoolBytes; a variable so that a test can lower it.
var maxPoolBytes = MaxPoolBytes

// poolShift places a pool's number in a string value's U: ids below 2^40.
const poolShift = 40

// pools holds every pool by number, the default one at 0; a released
// pool's slot is nil. Readers load the slice without a lock.
var pools struct {
	sync.Mutex
	all atomic.Pointer[[]*Pool]
}

// defaultPool is the pool of values made without one.
var defaultPool = register(&Pool{})

func register(p *Pool) *Pool {
	pools.Lock()
	defer pools.Unlock()
	var all []*Pool
	if cur := pools.all.Load(); cur != nil {
		all = *cur
	}
	p.num = uint64(len(all)) << poolShift
	all = append(all[:len(all):len(all)], p)
	pools.all.Store(&all)
	return p
}

// NewPool returns a pool of its own for one decode.
func NewPool() *Pool { return register(&Pool{}) }

// Release forgets the pool's strings: values from it read as "" after.
func (p *Pool) Release() {
	if p == nil || p == defaultPool {
		return
	}
	pools.Lock()
	defer pools.Unlock()
	all := append([]*Pool(nil), *pools.all.Load()...)
	all[p.num>>poolShift] = nil
	pools.all.Store(&all)
}

// String makes a string value in p (nil: the default pool).
func (p *Pool) String(s string) Value {
	if p == nil {
		p = defaultPool
	}
	return Value{Kind: KindString, U: p.intern(s)}
}

// StringBytes makes a string value from bytes in p (nil: the default
// pool), without allocating when the string was seen before.
func (p *Pool) StringBytes(b []byte) Value {
	if p == nil {
		p = defaultPool
	}
	p.mu.RLock()
	id, ok := p.ids[string(b)] // no allocation for a map lookup
	p.mu.RUnlock()
	if ok {
		return Value{Kind: KindString, U: id}
	}
	return Value{Kind: KindString, U: p.add(string(b))}
}

func (p *Pool) intern(s string) uint64 {
	p.mu.RLock()
	id, ok := p.ids[s]
	p.mu.RUnlock()
	if ok {
		return id
	}
	return p.add(s)
}

func (p *Pool) add(s string) uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if id, ok := p.ids[s]; ok {
		return id
	}
	if p.ids == nil {
		p.ids = map[string]uint64{}
	}
	limit := p.limit
	if limit == 0 {
		limit = maxPoolBytes
	}
	if p.bytes+len(s) > limit && s != PoolFullString {
		if id, ok := p.ids[PoolFullString]; ok {
			return id
		}
		s = PoolFullString
	}
	id := p.num | uint64(len(p.strs))
	p.strs = append(p.strs, s)
	p.ids[s] = id
	p.bytes += len(s)
	return id
}

// lookup finds a string value's text in its pool.
func lookup(u uint64) string {
	all := *pools.all.Load()
	n := u >> poolShift
	if n >= uint64(len(all)) || all[n] == nil {
		return ""
	}
	p := all[n]
	p.mu.RLock()
	defer p.mu.RUnlock()
	if i := u & (1<<poolShift - 1); i < uint64(len(p.strs)) {
		return p.strs[i]
	}
	return ""
}
