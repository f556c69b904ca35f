package knownfmt

import (
	"testing"

	"github.com/dembug/dembug/engine/game"
)

// A known varint is skipped in place (Fields' fast path): every length up
// to ten bytes is passed over to the unknown number after it, and a varint
// that never ends, or ends past ten bytes, stops the scan as skipValue does.
func TestFieldsSkipsKnownVarintsOfEveryLength(t *testing.T) {
	for shift := 0; shift < 64; shift += 7 {
		body := varintField(nil, 1, 1<<shift) // max_entries, 1 to 10 bytes
		body = varintField(body, 99, 1)
		var c Collector
		c.Fields(PacketEntities, game.Dota2, body, Place{})
		if items := c.Items(); len(items) != 1 || items[0].ID != 99 {
			t.Errorf("varint 1<<%d: items %+v, want #99 after it", shift, items)
		}
	}
	// Ten continuation bytes and an end: one byte too long. Read on, the
	// scan would find #99 after it.
	long := append([]byte{1 << 3}, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01)
	long = varintField(long, 99, 1)
	var l Collector
	l.Fields(PacketEntities, game.Dota2, long, Place{})
	if len(l.Items()) != 0 {
		t.Errorf("an eleven-byte varint was read past: %+v", l.Items())
	}
	var c Collector
	c.Fields(PacketEntities, game.Dota2, []byte{1 << 3, 0x80}, Place{}) // cut short
	if len(c.Items()) != 0 {
		t.Errorf("a cut varint noted %+v", c.Items())
	}
}

// In a message with nested ones (a schema field's polymorphic types), the
// other known numbers are skipped in place and the nested one is still
// gone into.
func TestFieldsSkipsBesideNestedMessages(t *testing.T) {
	poly := varintField(nil, 1, 3)
	poly = varintField(poly, 9, 1) // unknown in polymorphic_field_t
	body := varintField(nil, 1, 7) // var_type_sym
	body = varintField(body, 2, 8)
	body = bytesField(body, 11, poly)
	body = varintField(body, 40, 2) // unknown in the field
	var c Collector
	c.Fields(SerializerField, game.Dota2, body, Place{})
	items := c.Items()
	if len(items) != 2 || items[0].In != "ProtoFlattenedSerializerField_t.polymorphic_field_t" || items[0].ID != 9 || items[1].ID != 40 {
		t.Fatalf("items %+v", items)
	}
}
