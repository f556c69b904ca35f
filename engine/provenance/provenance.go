// Package provenance holds what the engine records while decoding a
// packet-entities message with recording on: for each entity update and each
// field, which bits were read, by which decoder, to which value. This is the
// data every debugger pane is drawn from.
package provenance

import (
	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/schema"
)

// Op is what an entity update did.
type Op uint8

const (
	Update Op = iota
	Create
	Leave
	Delete // leave and delete
)

func (o Op) String() string {
	return [...]string{"update", "create", "leave", "delete"}[o]
}

// Field is one value read from the entity data.
type Field struct {
	Update  int            // index into Message.Updates
	Path    fieldpath.Path // e.g. [3 12 0]
	Op      fieldpath.OpRecord
	Name    string // CBodyComponent.m_cellX, m_iCaptainPlayerIDs.0001
	Schema  *schema.Field
	Decoder *decoder.Decoder
	Why     string // why this decoder was chosen
	Start   uint   // first value bit, from the start of the entity data
	Bits    uint
	Value   decoder.Value
	Prev    decoder.Value // the value before this update (KindNone if unset)
}

// Span is the value's bits.
func (f *Field) Span() bitio.Span { return bitio.Span{Start: f.Start, Bits: f.Bits} }

// EntityUpdate is one entry of the message's update list.
type EntityUpdate struct {
	Index      int32
	Serial     uint32
	ClassID    int32
	Class      string
	Op         Op
	Start      uint // first header bit (index delta)
	HeaderBits uint // index delta, command and create header
	PathStart  uint // first field-path bit
	PathBits   uint // all path ops including the finish op
	FirstField int  // index of the first field in Message.Fields
	NumFields  int
	End        uint  // bit after the update's last value
	Skipped    bool  // PVS bits said the update carries no fields
	Err        error // decode error inside this update, if any
}

// HeaderSpan is the update's header: index delta, command and create
// header.
func (u *EntityUpdate) HeaderSpan() bitio.Span { return bitio.Span{Start: u.Start, Bits: u.HeaderBits} }

// PathSpan is the update's field-path ops, the finish op included.
func (u *EntityUpdate) PathSpan() bitio.Span { return bitio.Span{Start: u.PathStart, Bits: u.PathBits} }

// Span is the whole update, header to last value.
func (u *EntityUpdate) Span() bitio.Span {
	return bitio.Span{Start: u.Start, Bits: max(u.End, u.Start) - u.Start}
}

// Problem says how a message's decode went wrong.
type Problem uint8

const (
	NoProblem  Problem = iota
	OverRead           // a read needed bits past the end of the entity data
	Unread             // the updates ended a byte or more before the data
	BadPath            // a field path did not fit the serializer
	OtherError         // any other decode error
)

// Message is the record of one packet-entities message.
type Message struct {
	Updates  []EntityUpdate
	Fields   []Field
	Finishes []fieldpath.OpRecord // the finish op of each update with fields
	DataBits uint                 // bits in the entity data
	// Data is the entity data itself (not a copy: valid while the
	// message's buffer is), so that a read can be recomputed, such as
	// the whole of a varint a 32-bit decoder cut.
	Data []byte
	// The explicit deletion list that ends a delta message.
	DeletionStart, DeletionBits uint
	Deletions                   int
	BadDeletions                int  // deletions of entities that do not exist
	EndBit                      uint // where decoding stopped
	Err                         error
	Problem                     Problem // what Err is about
	// ErrField is the field a field path did not fit, when that is what
	// Err is: its type gives it a shape (array, nested table) the path
	// disagrees with.
	ErrField *schema.Field
}

// DeletionSpan is the explicit deletion list that ends a delta message.
func (m *Message) DeletionSpan() bitio.Span {
	return bitio.Span{Start: m.DeletionStart, Bits: m.DeletionBits}
}

// Reset empties the record for reuse.
func (m *Message) Reset() {
	m.Updates = m.Updates[:0]
	m.Fields = m.Fields[:0]
	m.Finishes = m.Finishes[:0]
	m.DataBits, m.EndBit, m.Err, m.Problem, m.ErrField, m.Data = 0, 0, nil, NoProblem, nil, nil
	m.DeletionStart, m.DeletionBits, m.Deletions, m.BadDeletions = 0, 0, 0, 0
}

// NextField appends a field to m.Fields and returns it to be filled in
// place. Its members hold whatever an earlier use of the buffer left, so
// the caller sets every one: a field is large, and building one apart and
// copying it in, or zeroing it first, cost the recording decode measurably.
func (m *Message) NextField() *Field {
	n := len(m.Fields)
	if n == cap(m.Fields) {
		m.ReserveFields(1)
	}
	m.Fields = m.Fields[:n+1]
	return &m.Fields[n]
}

// ReserveFields makes room for n more fields, at least doubling the room
// when it grows. An update reserves its fields before reading them: a
// baseline's single update is then one allocation, and a full frame's
// thousands of fields, recorded from empty, are copied about once rather
// than the four times append's growth (a quarter at a time for large
// slices) copies them.
func (m *Message) ReserveFields(n int) {
	l := len(m.Fields)
	if cap(m.Fields)-l >= n {
		return
	}
	fs := make([]Field, l, max(l+n, 2*cap(m.Fields)))
	copy(fs, m.Fields)
	m.Fields = fs
}

// UpdateFields returns the fields of update i.
func (m *Message) UpdateFields(i int) []Field {
	u := &m.Updates[i]
	return m.Fields[u.FirstField : u.FirstField+u.NumFields]
}
