package entity

import (
	"errors"
	"fmt"

	"github.com/dembug/dembug/engine/bitio"
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

// baselineAligned reports whether a baseline decode ended inside the
// data's last byte, as a correct decode does.
func baselineAligned(r *bitio.Reader, data []byte) bool {
	bits := uint(len(data)) * 8
	return !r.Overflowed() && r.Pos() <= bits && bits-r.Pos() < 8
}

// RecordBaseline decodes a class's instance baseline afresh with recording
// on, for showing what a create starts from: one update (the baseline
// itself, entity index -1) with every field read, bit offsets counted from
// the baseline's first bit. The table is not changed. It returns nil when
// the class has no baseline.
func (t *Table) RecordBaseline(classID int32) (*provenance.Message, error) {
	if classID < 0 || int(classID) >= len(t.Classes) || t.Classes[classID] == nil || t.Classes[classID].Serializer == nil {
		return nil, fmt.Errorf("no class %d", classID)
	}
	c := t.Classes[classID]
	data := t.baselines[classID]
	if len(data) == 0 {
		return nil, nil
	}
	rec := &provenance.Message{DataBits: uint(len(data)) * 8}
	rec.Updates = append(rec.Updates, provenance.EntityUpdate{Index: -1, ClassID: classID, Class: c.Name, Op: provenance.Create})
	var r bitio.Reader
	r.Reset(data)
	w := t.whatIf
	t.whatIf = nil
	_, err := t.readFields(&r, c, &Node{}, newOwner(), rec, 0, nil)
	t.whatIf = w
	rec.EndBit = r.Pos()
	rec.Updates[0].End = r.Pos()
	switch {
	case err != nil:
		rec.Err, rec.Problem, rec.ErrField = err.Error(), provenance.OtherError, pathField(err)
	case !baselineAligned(&r, data):
		err = &BaselineMisaligned{Class: c.Name, EndBit: r.Pos(), Bits: rec.DataBits}
		rec.Err, rec.Problem = err.Error(), provenance.Unread
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
		rec.Reset()
		rec.DataBits = uint(len(data)) * 8
		rec.Updates = append(rec.Updates, provenance.EntityUpdate{Index: -1, ClassID: -1, Class: ser.Name, Op: provenance.Create})
	}
	var r bitio.Reader
	r.Reset(data)
	w := t.whatIf
	t.whatIf = nil
	_, err := t.readFields(&r, &Class{ID: -1, Name: ser.Name, Serializer: ser}, &Node{}, newOwner(), rec, 0, nil)
	t.whatIf = w
	return err == nil && baselineAligned(&r, data)
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
