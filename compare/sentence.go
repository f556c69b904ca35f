package compare

import (
	"fmt"
	"strconv"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
)

// Sentence says in words what differs, both sides' figures included.
func (d *Difference) Sentence() string {
	o, t := d.Ours, d.Theirs
	switch d.What {
	case Bits:
		return fmt.Sprintf("they read %d bits, we read %d", t.Bits, o.Bits)
	case Offset:
		return fmt.Sprintf("they read from %s, we from %s: a read before this one took another number of bits", bitio.Offset(uint(t.Offset)), bitio.Offset(uint(o.Offset)))
	case Value:
		s := fmt.Sprintf("they got %s, we got %s", t.Value, o.Value)
		if t.Bits >= 0 {
			s = "the same bits, " + s
		}
		return s + handleNote(o, t)
	case Missing:
		return fmt.Sprintf("we read it (%d bits at %s, %s), their trace has no such read", o.Bits, bitio.Offset(uint(o.Offset)), o.Decoder)
	case MissingUpdate:
		where := "update"
		if o.Baseline {
			where = "baseline"
		}
		fields := "fields"
		if d.Reads == 1 {
			fields = "field"
		}
		return fmt.Sprintf("their trace reads nothing of entity %d at this tick; we read %d %s of its %s (the first: %s, %d bits at %s)", d.Entity, d.Reads, fields, where, o.Name, o.Bits, bitio.Offset(uint(o.Offset)))
	case Extra:
		return fmt.Sprintf("their trace has this read (line %d), we made none", t.Line)
	case Order:
		return fmt.Sprintf("both read it, but their line %d comes in another place among the tick's reads", t.Line)
	}
	return string(d.What)
}

// handleNote says, for a handle of ours, what it holds, and which part of
// it theirs is when it is one: parsers log handles whole, as the entity
// index, or as index and serial.
func handleNote(o, t *Read) string {
	if o.Kind != decoder.KindHandle {
		return ""
	}
	u, err := strconv.ParseUint(string(o.Value), 10, 64)
	if err != nil {
		return ""
	}
	if u == decoder.HandleInvalid {
		return " (ours is the handle that names no entity)"
	}
	h := decoder.Handle(u)
	s := fmt.Sprintf(" (ours is a handle: entity %d, serial %d", h.HandleIndex(), h.HandleSerial())
	switch theirs, err := strconv.ParseInt(string(t.Value), 10, 64); {
	case err != nil:
	case theirs == int64(h.HandleIndex()):
		s += "; theirs is its entity index"
	case theirs == int64(h.HandleSerial()):
		s += "; theirs is its serial"
	}
	return s + ")"
}
