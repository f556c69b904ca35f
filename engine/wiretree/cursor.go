package wiretree

import "google.golang.org/protobuf/encoding/protowire"

// Cursor walks the top-level fields of a message in a plain loop:
//
//	for c := wiretree.NewCursor(b); c.Next(); {
//		switch c.Num { ... c.V ... c.Data ... }
//	}
//	if err := c.Err(); err != nil { ... }
//
// It is Fields without the callback, for the parsers that run over every
// field of a schema or a packet, where a closure call per field and the
// general varint routine cost more than the work itself. It never
// allocates unless it reports an error.
type Cursor struct {
	b   []byte
	off int // next tag
	at  int // tag of the current field
	err error
	// ds and de bound the current bytes field's value in b (Bytes).
	ds, de int

	Num  protowire.Number
	Type protowire.Type
	V    uint64 // varint, fixed32 (zero-extended) and fixed64 values
	Data []byte // bytes fields: aliases the input, capacity clipped
}

// NewCursor returns a cursor before the first field of b.
func NewCursor(b []byte) Cursor { return Cursor{b: b} }

// Offset is the byte offset of the current field's tag.
func (c *Cursor) Offset() int { return c.at }

// Raw is the current field as written: tag and value (for copying it
// through unchanged).
func (c *Cursor) Raw() []byte { return c.b[c.at:c.off] }

// Err is the *ParseError that stopped the walk, or nil at a clean end.
func (c *Cursor) Err() error { return c.err }

// Next moves to the next field; false at the end or on malformed data.
func (c *Cursor) Next() bool {
	ok, tagged := c.step()
	if tagged {
		if ok && c.Type == protowire.BytesType {
			c.Data = c.b[c.ds:c.de:c.de]
		} else if c.Data != nil {
			c.Data = nil
		}
	}
	return ok
}

// Step is Next leaving Data alone: a bytes field's value is Bytes. It is
// for the loops over every field of a schema or a snapshot: while the
// collector marks, each pointer written costs a write barrier, and Data is
// a pointer the cursor (on the stack or not) would write per field.
func (c *Cursor) Step() bool {
	ok, _ := c.step()
	return ok
}

// Bytes is the current bytes field's value (aliasing the input, capacity
// clipped) after Step or Next returned true; empty for other fields.
func (c *Cursor) Bytes() []byte {
	if c.Type != protowire.BytesType {
		return nil
	}
	return c.b[c.ds:c.de:c.de]
}

// step reads the next field, reporting also whether its tag was read
// (after which Next's Data no longer holds the field before).
func (c *Cursor) step() (ok, tagged bool) {
	if c.off >= len(c.b) || c.err != nil {
		return false, false
	}
	c.at = c.off
	// One-byte tags, values and lengths (most) in place: uvarint is
	// too large to inline.
	var tag uint64
	var n int
	if x := c.b[c.off]; x < 0x80 {
		tag, n = uint64(x), 1
	} else if tag, n = uvarintLong(c.b[c.off:]); n < 0 {
		return c.fail(0, protowire.ParseError(n)), false
	}
	num, typ := protowire.Number(tag>>3), protowire.Type(tag&7)
	if tag>>3 > uint64(protowire.MaxValidNumber) || !num.IsValid() {
		return c.fail(0, ErrFieldNumber), false
	}
	c.Num, c.Type = num, typ
	off := c.off + n
	switch typ {
	case protowire.VarintType:
		if off < len(c.b) && c.b[off] < 0x80 {
			c.V, n = uint64(c.b[off]), 1
		} else if c.V, n = uvarintLong(c.b[off:]); n < 0 {
			return c.fail(num, protowire.ParseError(n)), true
		}
		off += n
	case protowire.BytesType:
		var size uint64
		if off < len(c.b) && c.b[off] < 0x80 {
			size, n = uint64(c.b[off]), 1
		} else if size, n = uvarintLong(c.b[off:]); n < 0 {
			return c.fail(num, protowire.ParseError(n)), true
		}
		off += n
		if size > uint64(len(c.b)-off) {
			return c.fail(num, protowire.ParseError(codeTruncated)), true
		}
		end := off + int(size)
		c.ds, c.de, c.V = off, end, 0
		off = end
	case protowire.Fixed32Type:
		if len(c.b)-off < 4 {
			return c.fail(num, protowire.ParseError(codeTruncated)), true
		}
		v, _ := protowire.ConsumeFixed32(c.b[off:])
		c.V = uint64(v)
		off += 4
	case protowire.Fixed64Type:
		if len(c.b)-off < 8 {
			return c.fail(num, protowire.ParseError(codeTruncated)), true
		}
		c.V, _ = protowire.ConsumeFixed64(c.b[off:])
		off += 8
	case protowire.StartGroupType, protowire.EndGroupType:
		return c.fail(num, ErrGroup), true
	default:
		return c.fail(num, ErrWireType), true
	}
	c.off = off
	return true, true
}

// NextVarintOf reads the next field when it is varint field num with a
// one-byte tag (fields 1 to 15): the fast path for a run of unpacked
// repeated values, such as a serializer's hundreds of field indexes. It
// returns false, consuming nothing, for anything else; Next then reads it.
func (c *Cursor) NextVarintOf(num protowire.Number) (uint64, bool) {
	off := c.off
	if off >= len(c.b) || c.b[off] != byte(num)<<3 || c.err != nil {
		return 0, false
	}
	v, n := uvarint(c.b[off+1:])
	if n < 0 {
		return 0, false
	}
	c.at, c.off = off, off+1+n
	c.Num, c.Type, c.V = num, protowire.VarintType, v
	if c.Data != nil {
		c.Data = nil
	}
	return v, true
}

func (c *Cursor) fail(num protowire.Number, err error) bool {
	c.err = &ParseError{Offset: c.at, Field: num, Err: err}
	c.off = len(c.b)
	return false
}

// protowire's error codes, which protowire.ParseError turns into errors.
const (
	codeTruncated = -1
	codeOverflow  = -3
)

// uvarint decodes a base-128 varint at the start of b, returning the byte
// count, or a negative protowire error code as protowire.ConsumeVarint does. One-byte values, most tags and lengths, take
// the first branch.
func uvarint(b []byte) (uint64, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	return uvarintLong(b)
}

func uvarintLong(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b); i++ {
		x := b[i]
		if i == 9 {
			if x > 1 {
				return 0, codeOverflow
			}
			return v | uint64(x)<<63, 10
		}
		v |= uint64(x&0x7f) << (7 * i)
		if x < 0x80 {
			return v, i + 1
		}
	}
	return 0, codeTruncated
}
