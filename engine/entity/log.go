package entity

import "github.com/dembug/dembug/engine/provenance"

// UpdateRecord is one applied update as the table logs it (Table.Logging):
// 12 bytes and no pointers, as an index of a file keeps one for each of
// its millions of updates. A caller appending to a slab of its own hands
// the table the slab's free tail as Log before a message. An update ends
// where the next one of its message starts, the last where LogEnd says.
type UpdateRecord struct {
	Start     uint32 // first bit in the message's entity data
	Entity    int16  // entity index
	Class     uint16 // the table's class id; NoClass when there is none
	NumFields uint16 // field values read; saturates at 65535
	Op        provenance.Op
	// Flags: RecordSkipped is the table's; the other bits are the
	// caller's to mark the record with.
	Flags uint8
}

// NoClass is UpdateRecord.Class for an update of no entity (a leave of an
// empty slot) or a class id past 16 bits.
const NoClass = 1<<16 - 1

// RecordSkipped marks an update the PVS bits said carries no fields.
const RecordSkipped = 1

// Skipped reports whether the PVS bits said the update carries no fields.
func (u *UpdateRecord) Skipped() bool { return u.Flags&RecordSkipped != 0 }

// Fields is the number of field values the update read (saturates at
// 65535).
func (u *UpdateRecord) Fields() int { return int(u.NumFields) }

// NewUpdateRecord is the record of an update: field count saturated,
// skip flag set. The table logs its updates so; an index building records
// from a recording decode does too.
func NewUpdateRecord(start uint, entity int32, class uint16, fields int, op provenance.Op, skipped bool) UpdateRecord {
	u := UpdateRecord{Start: uint32(start), Entity: int16(entity), Class: class, NumFields: uint16(min(fields, maxRecordFields)), Op: op}
	if skipped {
		u.Flags = RecordSkipped
	}
	return u
}

// maxRecordFields is where UpdateRecord.NumFields saturates.
const maxRecordFields = 1<<16 - 1

// log appends an applied update's record to Log. It is the whole cost of
// an index over a plain decode, once for each update of a file, so it
// stores no pointer and calls nothing that is not inlined.
func (t *Table) log(idx int32, op provenance.Op, e *Entity, start, end uint, fields int, skipped bool) {
	class := uint16(NoClass)
	if e != nil && e.Class != nil && e.Class.ID >= 0 && e.Class.ID < NoClass {
		class = uint16(e.Class.ID)
	}
	t.Log = append(t.Log, NewUpdateRecord(start, idx, class, fields, op, skipped))
	t.LogEnd = end
}
