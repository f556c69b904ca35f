package replay

import (
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/internal/keep"
)

// buffers are a finished decode's reusable buffers: the decompressed body
// and the packet's inner messages, which grow to the file's largest.
type buffers struct {
	body    []byte
	tables  []byte // the DEM_SendTables body the schema read, when nothing shares it
	inner   []messages.Inner
	scratch []byte
}

// releasedBuffers holds the buffers Release kept, at most one set per
// processor.
var releasedBuffers keep.Pool[buffers]

// Release hands the decode's storage to the next Open of the process: the
// entity table (entity.Table.Release: its state nodes, entities and memo
// sets, unless a snapshot, keyframe or hook was given them), the
// decompression and packet buffers, and the DEM_SendTables body the schema
// read and the schema's own storage (schema.Schema.Release) unless a fork or
// ReuseSchema shares the schema. Neither the replay nor anything read
// from its entity table may be used after it; a keyframe taken from it
// stays valid. Checking many files, benchmarks and tests call it to decode
// into the memory of the decode before instead of new memory.
func (r *Replay) Release() {
	if r == nil || r.cr == nil {
		return
	}
	r.Entities.Release()
	r.Entities = nil
	body := r.cr.Scratch()
	if cap(r.spareBody) > cap(body) {
		body = r.spareBody
	}
	b := buffers{body: body, inner: r.inner[:0], scratch: r.scratch[:0]}
	if !r.lent && r.schemaBody != nil && r.Reuse == nil {
		// The schema is done with too: its body serves the next decode's
		// first bodies, up to its own DEM_SendTables.
		b.tables = r.schemaBody[:0]
		r.Schema.Release() // and its storage the next parse's
	}
	r.Schema, r.SchemaData, r.schemaBody = nil, nil, nil
	r.cr.ResetScratch()
	r.inner, r.scratch, r.spareBody = nil, nil, nil
	releasedBuffers.Put(b)
}

// reuseBuffers gives r the buffers of a released decode, if any.
func (r *Replay) reuseBuffers() {
	b, ok := releasedBuffers.Take()
	if !ok {
		return
	}
	// The body buffer serves once the schema has taken the reader's
	// (DEM_SendTables): before, the bodies are few and small.
	r.spareBody = b.body
	if b.tables != nil {
		r.cr.UseScratch(b.tables)
	}
	r.inner, r.scratch = b.inner, b.scratch
}
