package schema

import "github.com/dembug/dembug/internal/keep"

// storage is a released schema's memory that the next parse of the
// process reads into instead of new memory (Schema.Release): the raw
// fields and serializers, the index check's edges, the serializers
// themselves, the field blocks and the maps, some 1.5 MB on a Dota 2
// schema. The symbols' bytes are not kept: strings a reader took from the
// schema stay as they were.
type storage struct {
	raws    []rawField
	rsers   []rawSerializer
	symEnds []int32
	symbols []string
	hasSer  []bool
	edges   []nestEdge
	starts  []int32
	sers    []Serializer
	serPtrs []*Serializer
	fields  []*Field
	blocks  [][]Field // every block fields were built in
	lists   slab[*Field]
	hots    slab[Hot]
	byName  map[string]*Serializer
	types   map[string]VarType
	memo    choiceMemo
}

// maxReleasedFields bounds the schemas whose storage is kept: a crafted
// schema's hundreds of thousands of fields are left to the collector.
const maxReleasedFields = 1 << 15

// released holds the storage Release kept, at most a set per processor.
var released keep.Pool[*storage]

// Release hands the parsed schema's storage to the next parse of the
// process: nothing may use the schema, its serializers or fields again
// (the strings read from it stay valid). A Realias copy, or a schema
// ParseLazy did not build, is left to the collector.
func (s *Schema) Release() {
	if s == nil || s.under != nil || s.src == nil {
		return
	}
	p := s.src
	p.mu.Lock()
	st := p.store
	p.store = nil
	p.mu.Unlock()
	if st == nil || len(st.raws) > maxReleasedFields {
		return
	}
	released.Put(st)
}

// takeStorage is a released schema's storage, or an empty one.
func takeStorage() *storage {
	st, ok := released.Take()
	if !ok {
		return &storage{}
	}
	st.lists.reset()
	st.hots.reset()
	return st
}

// slab hands out runs of Ts from chunks of them, zeroed, instead of an
// allocation each: the serializers' field lists and Hot arrays, a few
// hundred of each per replay. A released schema's chunks serve again.
type slab[T any] struct {
	chunks [][]T
	next   int // chunks handed out so far
	free   []T // the rest of the last one
}

// slabChunk is how many Ts a chunk holds; a longer run is allocated alone.
const slabChunk = 2048

// take is a run of n zero Ts, its capacity n.
func (s *slab[T]) take(n int) []T {
	if n > len(s.free) {
		if n > slabChunk/4 {
			return make([]T, n)
		}
		if s.next < len(s.chunks) {
			s.free = s.chunks[s.next]
			clear(s.free)
		} else {
			s.free = make([]T, slabChunk)
			s.chunks = append(s.chunks, s.free)
		}
		s.next++
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// reset hands the chunks out again from the first.
func (s *slab[T]) reset() { s.next, s.free = 0, nil }

// room is s emptied with room for n, zeroed up to n: s's array when it is
// large enough, else a new one.
func room[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, n)
	}
	clear(s[:n])
	return s[:0]
}

// block is the next block of fields, zeroed: one the storage kept when
// there is one left.
func (st *storage) block(used int) []Field {
	if used < len(st.blocks) {
		b := st.blocks[used]
		clear(b)
		return b
	}
	b := make([]Field, fieldBlock)
	st.blocks = append(st.blocks, b)
	return b
}
