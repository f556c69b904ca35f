package knownfmt

import (
	"reflect"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"pgregory.net/rapid"

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

// A known length-delimited field, and a nested message of a plain kind, is
// skipped in place to the unknown number after it, whatever its length's
// size; a length past the end stops the scan as skipValue does.
func TestFieldsSkipsKnownBytesOfEveryLength(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 300, 20000} {
		body := bytesField(nil, 2, make([]byte, n)) // symbols
		body = bytesField(body, 1, make([]byte, n)) // a serializer, plain below
		body = varintField(body, 99, 1)
		var c Collector
		c.FieldsPlain(FlattenedSerializer, game.Dota2, body, Place{}, Serializer)
		if items := c.Items(); len(items) != 1 || items[0].ID != 99 {
			t.Errorf("%d bytes: items %+v, want #99 after them", n, items)
		}
	}
	cut := bytesField(nil, 2, make([]byte, 10))
	cut = varintField(cut[:5], 99, 1) // the length runs past the end, over #99
	var c Collector
	c.Fields(FlattenedSerializer, game.Dota2, cut, Place{})
	if len(c.Items()) != 0 {
		t.Errorf("a cut field noted %+v", c.Items())
	}
}

// slowFields is what Fields and FieldsPlain note, by a plain walk of every
// field: the unknown numbers of each message, in the nested messages dembug
// goes into unless their kind is in plain. A malformed field stops the
// walk of its message.
func slowFields(m Msg, g game.Game, body []byte, plain uint64, out map[[2]int]bool) {
	for len(body) > 0 {
		num, typ, n := protowire.ConsumeTag(body)
		if n < 0 {
			return
		}
		l := protowire.ConsumeFieldValue(num, typ, body[n:])
		if l < 0 {
			return
		}
		v := body[n : n+l]
		body = body[n+l:]
		if !Known(m, g, int(num)) {
			out[[2]int{int(m), int(num)}] = true
			continue
		}
		if kid, ok := kidOf(m, num); ok && typ == protowire.BytesType && plain>>kid&1 == 0 {
			d, k := protowire.ConsumeBytes(v)
			if k >= 0 {
				slowFields(kid, g, d, plain, out)
			}
		}
	}
}

// Fields (its in-place skips included) notes what a plain walk of every
// field notes, on messages of known and unknown numbers of every wire
// type, nested, plain or not, and cut anywhere.
func TestFieldsAgreesWithAPlainWalk(t *testing.T) {
	kinds := []Msg{FlattenedSerializer, SerializerField, StringTables, PacketEntities, DemoClassInfo}
	var gen func(rt *rapid.T, depth int) []byte
	gen = func(rt *rapid.T, depth int) []byte {
		var b []byte
		for range rapid.IntRange(0, 6).Draw(rt, "fields") {
			// The kinds' nested-message numbers (1, 2, 3, 11) often, and
			// known and unknown others.
			num := protowire.Number(rapid.SampledFrom([]int{1, 1, 2, 3, 3, 11, 11, 4, 7, 13, 17, 20}).Draw(rt, "num"))
			switch rapid.IntRange(0, 3).Draw(rt, "wire") {
			case 0:
				b = varintField(b, num, rapid.Uint64().Draw(rt, "v"))
			case 1:
				if depth < 3 {
					b = bytesField(b, num, gen(rt, depth+1))
				} else {
					b = bytesField(b, num, []byte(rapid.String().Draw(rt, "s")))
				}
			case 2:
				b = protowire.AppendFixed32(protowire.AppendTag(b, num, protowire.Fixed32Type), 7)
			default:
				b = protowire.AppendFixed64(protowire.AppendTag(b, num, protowire.Fixed64Type), 7)
			}
		}
		return b
	}
	rapid.Check(t, func(rt *rapid.T) {
		m := rapid.SampledFrom(kinds).Draw(rt, "msg")
		body := gen(rt, 0)
		body = body[:rapid.IntRange(0, len(body)).Draw(rt, "cut")]
		var plain uint64
		var plainKinds []Msg
		for k := Msg(0); k < numMsgs; k++ {
			if rapid.IntRange(0, 3).Draw(rt, "plain") == 0 {
				plain |= 1 << k
				plainKinds = append(plainKinds, k)
			}
		}
		want := map[[2]int]bool{}
		slowFields(m, game.Dota2, body, plain, want)
		var c Collector
		c.FieldsPlain(m, game.Dota2, body, Place{}, plainKinds...)
		got := map[[2]int]bool{}
		for _, it := range c.Items() {
			for k := Msg(0); k < numMsgs; k++ {
				if k.String() == it.In {
					got[[2]int{int(k), it.ID}] = true
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			rt.Fatalf("noted %v, a plain walk %v", got, want)
		}
	})
}
