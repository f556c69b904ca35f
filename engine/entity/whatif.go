package entity

import (
	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
)

// WhatIf changes how one packet-entities message is decoded, to test a
// hypothesis about a misalignment: another decoder for one field or for a
// whole type, or bits inserted into or removed from the entity data.
type WhatIf struct {
	// Decoder replaces the chosen decoder where the rule matches.
	Decoder *decoder.Decoder
	// Occurrence selects one field by its position in the message's field
	// order (as recorded), or -1 to match by Field or Type instead.
	Occurrence int
	Field      *schema.Field // every occurrence of this field
	Type       string        // every field of this base type

	// Bit edits: at entity-data bit Bit, insert Insert bits (InsertValue,
	// lowest bit first) or drop Skip bits before decoding.
	Bit         uint
	Insert      uint
	InsertValue uint64
	Skip        uint

	// From resumes the decode at an update boundary instead of the
	// message's start; the table must be a snapshot taken there (see
	// Table.OnUpdate). Edits must lie at or after From.Bit. A search that
	// tries hundreds of edits near the end of a large message decodes only
	// what follows each.
	From *Resume
	// StopAt, when set, ends the decode at the first update boundary or
	// value at or past this bit (Result.Unfinished): a search that only
	// needs to know whether an edit reads sensibly for a while past the
	// damage. The table is then left inside an update.
	StopAt uint
	// WholeAfter, when set, keeps StopAt from stopping inside an update
	// whose field paths end past this bit: a search that records what an
	// edit among an update's paths changes needs the values they name.
	WholeAfter uint
}

// Resume is an update boundary inside a message: the update about to be
// read, its first bit, the entity index before it and the fields read
// before it.
type Resume struct {
	Update int
	Bit    uint
	Index  int32
	Fields int
}

// decoderFor returns the override for the n-th field of the message, or
// nil; field names the schema field being read (looked up only when the
// rule matches by field or type).
func (w *WhatIf) decoderFor(field func() *schema.Field, chosen *decoder.Decoder, n int) *decoder.Decoder {
	if w.Decoder == nil {
		return nil
	}
	if w.Occurrence >= 0 {
		if n == w.Occurrence {
			return w.Decoder
		}
		return nil
	}
	if w.Field == nil && w.Type == "" {
		return nil
	}
	f := field()
	if f == nil {
		return nil
	}
	if w.Field == f || (w.Type != "" && (f.Type.Base == w.Type || (f.Type.Generic != nil && f.Type.Generic.Base == w.Type && chosen == f.Elem))) {
		return w.Decoder
	}
	return nil
}

// Edit applies the bit insert or skip to a copy of data.
func (w *WhatIf) Edit(data []byte) []byte {
	if w.Insert == 0 && w.Skip == 0 {
		return data
	}
	total := uint(len(data)) * 8
	at := min(w.Bit, total)
	r := bitio.NewReader(data)
	var out bitio.Writer
	for pos := uint(0); pos < at; {
		n := min(32, at-pos)
		out.Bits(uint64(r.Bits(n)), n)
		pos += n
	}
	// Bits inserted at the very end would lengthen the data: offsets past
	// the message's end would then be reported.
	out.Bits(w.InsertValue, min(w.Insert, total-at))
	r.Skip(min(w.Skip, total-at))
	// Inserted bits push the tail out; the last bits of a message are
	// padding, so the edited data keeps the original length.
	for r.Remaining() > 0 && out.Len() < total {
		n := min(32, r.Remaining(), total-out.Len())
		out.Bits(uint64(r.Bits(n)), n)
	}
	return out.Bytes()
}

// ApplyWhatIf decodes m into t as Apply does, under the what-if. Use it on a
// Snapshot: the table's state changes as with any decode.
func (t *Table) ApplyWhatIf(m *messages.PacketEntities, rec *provenance.Message, w WhatIf) Result {
	t.whatIf = &w
	defer func() { t.whatIf = nil }()
	return t.Apply(m, rec)
}
