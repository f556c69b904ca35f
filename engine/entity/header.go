package entity

import (
	"fmt"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/provenance"
)

// HeaderPart is one value of an entity update's header or of a deletion
// list, re-read from the entity data: what it is, where it is and its raw
// value.
type HeaderPart struct {
	Name       string // "index delta", "command", "class id", "serial", "spawn group", "pvs", "count", "delete"
	Start, Len uint   // bit offset in the entity data, bits
	Value      uint64
}

// ReadHeader re-reads the header of update ui of a recorded message from
// its entity data: the index delta (a ubitvar), the two command bits, and
// for a create the class id (classBits wide), the serial and the spawn
// group varint; for an update whose header is longer than that, the two
// PVS bits. It reads what the decode read, by the recorded operation.
func ReadHeader(data []byte, rec *provenance.Message, ui int, classBits uint) []HeaderPart {
	u := &rec.Updates[ui]
	r := bitio.NewReader(data)
	r.Seek(u.Start)
	var out []HeaderPart
	read := func(name string, f func() uint64) {
		at := r.Pos()
		v := f()
		if !r.Overflowed() {
			out = append(out, HeaderPart{name, at, r.Pos() - at, v})
		}
	}
	read("index delta", func() uint64 { return uint64(r.UBitVar()) })
	read("command", func() uint64 { return uint64(r.Bits(2)) })
	switch {
	case u.Op == provenance.Create && classBits > 0:
		read("class id", func() uint64 { return uint64(r.Bits(classBits)) })
		read("serial", func() uint64 { return uint64(r.Bits(SerialBits)) })
		read("spawn group", func() uint64 { return uint64(r.VarUint32()) })
	case u.Op == provenance.Update && r.Pos()-u.Start < u.HeaderBits:
		read("pvs", func() uint64 { return uint64(r.Bits(2)) })
	}
	return out
}

// ReadDeletions re-reads the deletion list that ends a recorded delta
// message: its count (a ubitvar), then each deleted index as a ubitvar
// delta from the one before (from −1); each "delete" part's Value is the
// index. At most max indexes are returned.
func ReadDeletions(data []byte, rec *provenance.Message, max int) []HeaderPart {
	if rec.DeletionBits == 0 {
		return nil
	}
	r := bitio.NewReader(data)
	r.Seek(rec.DeletionStart)
	at := r.Pos()
	n := r.UBitVar()
	out := []HeaderPart{{"count", at, r.Pos() - at, uint64(n)}}
	prev := int64(-1)
	for i := uint32(0); i < n && i < uint32(max) && !r.Overflowed(); i++ {
		at := r.Pos()
		prev += int64(r.UBitVar())
		out = append(out, HeaderPart{"delete", at, r.Pos() - at, uint64(prev)})
	}
	return out
}

// HeaderFault is what an update's header, or the deletion list after the
// updates, says that the data or the table contradicts.
type HeaderFault uint8

const (
	BadHeader    HeaderFault = iota + 1 // the header runs past the data, or its index past MaxEntities
	NoSuchEntity                        // an update of an entity no create made
	UnknownClass                        // a create with a class id no class has
	BadDeletions                        // a deletion list longer than the data left
)

// HeaderError is a failure in an update's header or the deletion list, as
// opposed to one in a field's path or value: diagnose names the header
// assumption it breaks by its Fault.
type HeaderError struct {
	Fault HeaderFault
	Msg   string
	Err   error // the reader's error, when the data ran out
}

func (e *HeaderError) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *HeaderError) Unwrap() error { return e.Err }

func headerError(f HeaderFault, format string, args ...any) error {
	return &HeaderError{Fault: f, Msg: fmt.Sprintf(format, args...)}
}
