package entity

import (
	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/evidence"
	"github.com/dembug/dembug/engine/schema"
)

// GatherEvidence makes the table count, as it decodes, what the values of
// the schema's watched fields look like (package evidence). Call it before
// the schema is set; copies and snapshots of the table gather nothing.
func (t *Table) GatherEvidence() {
	if t.Evidence == nil {
		t.Evidence = &evidence.Set{}
	}
}

// sizeEvidence makes room for schema s's watched fields. A schema of its
// own (a file that sends its tables again) numbers its fields afresh: the
// tallies start over with it.
func (t *Table) sizeEvidence(s *schema.Schema) {
	if t.Evidence == nil || s == nil {
		return
	}
	if root := s.Root(); t.Evidence.Owner != root {
		*t.Evidence = evidence.Set{Owner: root}
	}
	t.Evidence.Resize(s.WatchCount() + 1)
}

func (t *Table) beginEvidence() {
	if t.Evidence != nil && t.whatIf == nil {
		t.Evidence.Begin()
	}
}

// discardEvidence forgets the values of a message that misaligned: past
// the read that broke it they are garbage, and before it they cannot be
// told apart.
func (t *Table) discardEvidence() {
	if t.Evidence != nil {
		t.Evidence.Discard()
	}
}

// observe counts the value a watched field's decoder d has just read (the
// reader is right after it) as the varint it was on the wire. For the
// default decoder a value of 2^28 or more took five bytes: the fifth says
// what a 32-bit read cut. A corrected field's value (a zigzag or 64-bit
// read) is turned back into the varint it came from.
func (t *Table) observe(d *decoder.Decoder, v *decoder.Value, r *bitio.Reader) {
	if t.Evidence == nil || t.whatIf != nil {
		return
	}
	switch d.Family {
	case decoder.FamUnsigned, decoder.FamDefault, decoder.FamHandle:
		// a 32-bit read: what it cut is in the reader (below)
	default:
		if raw, ok := d.Varint(*v); ok {
			t.Evidence.ObserveWide(d.Watch, raw)
		} else {
			t.Evidence.Touch(d.Watch) // not a varint: that it was read, and where first
		}
		return
	}
	var fifth uint8
	if v.U >= 1<<28 && r.Pos() >= 8 {
		fifth = uint8(r.WindowAt(r.Pos() - 8))
	}
	t.Evidence.Observe(d.Watch, v.U, fifth)
}
