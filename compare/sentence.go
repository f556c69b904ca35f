package compare

import (
	"fmt"

	"github.com/dembug/dembug/engine/bitio"
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
		if t.Bits >= 0 {
			return fmt.Sprintf("the same bits, they got %s, we got %s", t.Value, o.Value)
		}
		return fmt.Sprintf("they got %s, we got %s", t.Value, o.Value)
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
