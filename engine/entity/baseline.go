package entity

import (
	"errors"
	"fmt"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
)

// BaselineMisaligned says a class's instance baseline did not decode to
// within its last byte: a value read with the wrong decoder shifted the
// rest, though nothing failed.
type BaselineMisaligned struct {
	Class        string
	EndBit, Bits uint
}

func (e *BaselineMisaligned) Error() string {
	return fmt.Sprintf("baseline of %s: decoding ended at bit %s of %d bits (misaligned)", e.Class, bitio.Offset(e.EndBit), e.Bits)
}

// decodeBaseline reads a baseline's fields into state and reports how
// many it read, where it stopped and whether that is inside the data's
// last byte, as a correct decode ends. A what-if numbers the message's own
// fields; a baseline is not part of the message, so it is off meanwhile.
func (t *Table) decodeBaseline(c *Class, data []byte, state *Node, owner uint32, rec *provenance.Message) (int, uint, bool, error) {
	var r bitio.Reader
	r.Reset(data)
	r.Strings = t.Strings
	w := t.whatIf
	t.whatIf = nil
	rd := reading{r: &r, rec: rec, evidence: t.Evidence != nil}
	nf, err := t.readFields(&rd, &state, c, owner, nil, false)
	t.whatIf = w
	bits := uint(len(data)) * 8
	aligned := !r.Overflowed() && r.Pos() <= bits && bits-r.Pos() < 8
	return nf, r.Pos(), aligned, err
}

// startBaselineRecord empties rec for one baseline's decode: one update
// (the baseline itself, entity index -1), bit offsets from its first bit.
func startBaselineRecord(rec *provenance.Message, data []byte, classID int32, class string) {
	rec.Reset()
	rec.DataBits, rec.Data = uint(len(data))*8, data
	rec.Updates = append(rec.Updates, provenance.EntityUpdate{Index: -1, ClassID: classID, Class: class, Op: provenance.Create})
}

// RecordBaseline decodes a class's instance baseline afresh with recording
// on, for showing what a create starts from. The table is not changed. It
// returns nil when the class has no baseline.
func (t *Table) RecordBaseline(classID int32) (*provenance.Message, error) {
	c := t.Class(classID)
	if c == nil {
		return nil, fmt.Errorf("no class %d", classID)
	}
	return t.recordBaseline(c, t.baselines[classID])
}

// BaselineRecorder records baselines kept from a table (classes and data)
// in a table of its own: what a create started from can be recorded when
// it is first shown, long after the table moved on, and beside it. One
// recorder serves many classes (its name cache with them); it is not safe
// for concurrent use.
type BaselineRecorder struct{ t Table }

// NewBaselineRecorder returns a recorder whose string values are interned
// in strings (nil for the default pool), as the table's were.
func NewBaselineRecorder(strings *decoder.Pool) *BaselineRecorder {
	return &BaselineRecorder{Table{Strings: strings}}
}

// Record is RecordBaseline for class c with baseline data.
func (b *BaselineRecorder) Record(c *Class, data []byte) (*provenance.Message, error) {
	if c == nil || c.Serializer == nil {
		return nil, errors.New("no class")
	}
	return b.t.recordBaseline(c, data)
}

func (t *Table) recordBaseline(c *Class, data []byte) (*provenance.Message, error) {
	if len(data) == 0 {
		return nil, nil
	}
	c.Serializer.Load()
	rec := &provenance.Message{}
	startBaselineRecord(rec, data, c.ID, c.Name)
	_, end, aligned, err := t.decodeBaseline(c, data, &Node{}, newOwner(), rec)
	rec.EndBit, rec.Updates[0].End = end, end
	switch {
	case err != nil:
		rec.Err, rec.Problem, rec.ErrField = err, provenance.OtherError, pathField(err)
	case !aligned:
		err = &BaselineMisaligned{Class: c.Name, EndBit: end, Bits: rec.DataBits}
		rec.Err, rec.Problem = err, provenance.Unread
	}
	return rec, err
}

// BaselineDecodes reports whether data decodes as a baseline of a class
// with serializer ser to within its last byte, without an error: the
// cheapest test of a hypothesis about a type a baseline reads. With rec
// non-nil the decode is recorded there (one update, as RecordBaseline
// does). It uses the table only as scratch space.
func (t *Table) BaselineDecodes(ser *schema.Serializer, data []byte, rec *provenance.Message) bool {
	if ser == nil || len(data) == 0 {
		return true
	}
	if rec != nil {
		startBaselineRecord(rec, data, -1, ser.Name)
	}
	_, _, aligned, err := t.decodeBaseline(&Class{ID: -1, Name: ser.Name, Serializer: ser}, data, &Node{}, newOwner(), rec)
	return err == nil && aligned
}

// BaselineState is a class's instance baseline as creates start from it
// (decoded once, then shared): nil when the class has none. The node is
// the table's own, to read and never to write.
func (t *Table) BaselineState(classID int32) (*Node, error) {
	c := t.Class(classID)
	if c == nil {
		return nil, fmt.Errorf("no class %d", classID)
	}
	t.shared.Store(true)
	return t.baseline(c)
}

func (t *Table) markBaselineFailed(classID int32) {
	if t.failedBase == nil {
		t.failedBase = map[int32]bool{}
	}
	t.failedBase[classID] = true
}

// BaselineFailed reports whether this table's decode of a class's
// baseline failed or ended before its last byte.
func (t *Table) BaselineFailed(classID int32) bool { return t.failedBase[classID] }

// pathField is the field a path error names, or nil.
func pathField(err error) *schema.Field {
	var pe *PathError
	if errors.As(err, &pe) {
		return pe.Field
	}
	return nil
}
