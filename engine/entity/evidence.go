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

// observe counts the value a watched field's decoder has just read (the
// reader is right after it). A value of 2^28 or more took five bytes: the
// fifth says what a 32-bit read cut.
func (t *Table) observe(w uint16, v *decoder.Value, r *bitio.Reader) {
	if t.Evidence == nil || t.whatIf != nil {
		return
	}
	var fifth uint8
	if v.U >= 1<<28 && r.Pos() >= 8 {
		fifth = uint8(r.WindowAt(r.Pos() - 8))
	}
	t.Evidence.Observe(w, v.U, fifth)
}
