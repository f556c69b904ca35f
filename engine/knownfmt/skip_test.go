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
