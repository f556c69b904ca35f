package knownfmt

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
)

func varintField(b []byte, num protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
}

func bytesField(b []byte, num protowire.Number, d []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), d)
}

func TestFieldsNamesUnknownNumbersOnce(t *testing.T) {
	var c Collector
	body := varintField(nil, 1, 64)               // max_entries
	body = bytesField(body, 7, make([]byte, 300)) // entity_data, a two-byte length
	body = varintField(body, 99, 1)
	body = varintField(body, 99, 2) // repeated: still one message
	body = varintField(body, 300, 5)
	for i := 0; i < 3; i++ {
		c.Fields(PacketEntities, game.Dota2, body, Place{Tick: int32(10 + i), Command: 5 + i, Message: 2})
	}
	items := c.Items()
	if len(items) != 2 {
		t.Fatalf("items %+v, want #99 and #300", items)
	}
	if it := items[0]; it.ID != 99 || it.In != "svc_PacketEntities" || it.Count != 3 || it.Wire != "varint" || it.Value != "1" || it.First.Tick != 10 || it.First.Command != 5 {
		t.Errorf("first item %+v", it)
	}
	if items[1].ID != 300 || items[1].Count != 3 {
		t.Errorf("second item %+v", items[1])
	}
}

func TestFieldsGoesIntoNestedMessages(t *testing.T) {
	var c Collector
	class := varintField(nil, 1, 3)
	class = varintField(class, 7, 1) // unknown in class_t
	body := bytesField(nil, 1, class)
	c.Fields(DemoClassInfo, game.CS2, body, Place{Command: 2, Message: -1})
	items := c.Items()
	if len(items) != 1 || items[0].In != "DEM_ClassInfo.class_t" || items[0].ID != 7 {
		t.Fatalf("items %+v", items)
	}
}

func TestPerGameFields(t *testing.T) {
	// map_crc (2) is in Dota's definitions of svc_ClearAllStringTables only.
	body := varintField(nil, 2, 7)
	var dota, cs Collector
	dota.Fields(ClearAllStringTables, game.Dota2, body, Place{})
	cs.Fields(ClearAllStringTables, game.CS2, body, Place{})
	if len(dota.Items()) != 0 || len(cs.Items()) != 1 {
		t.Errorf("dota %+v, cs2 %+v", dota.Items(), cs.Items())
	}
	var unknown Collector
	unknown.Fields(ClearAllStringTables, game.Unknown, body, Place{})
	if len(unknown.Items()) != 0 {
		t.Errorf("under an unknown game a number any game gives is known: %+v", unknown.Items())
	}
}

func TestCommandsAndMessages(t *testing.T) {
	var c Collector
	for k := container.DemError; k <= container.Recovery; k++ {
		c.Command(k, Place{})
	}
	c.Message(game.Dota2, 55, Place{})    // svc_PacketEntities
	c.Message(game.Dota2, 55, Place{})    // cached
	c.Message(game.Unknown, 466, Place{}) // a game's own message: known to some game
	if items := c.Items(); len(items) != 0 {
		t.Fatalf("known ids reported: %+v", items)
	}
	c.Command(container.Kind(19), Place{Command: 4})
	c.Message(game.CS2, 5000, Place{Command: 6, Message: 1})
	c.Message(game.CS2, 5000, Place{Command: 7, Message: 0})
	items := c.Items()
	if len(items) != 2 || items[0].Kind != KindCommand || items[0].ID != 19 || items[1].Kind != KindMessage || items[1].Count != 2 || items[1].First.Command != 6 {
		t.Fatalf("items %+v", items)
	}
}

func TestMalformedBodyStopsQuietly(t *testing.T) {
	var c Collector
	c.Fields(ServerInfo, game.Dota2, []byte{0x0a, 0x7f}, Place{}) // bytes longer than the body
	c.Fields(ServerInfo, game.Dota2, []byte{0xff}, Place{})       // a broken tag
	if len(c.Items()) != 0 {
		t.Fatalf("%+v", c.Items())
	}
}

// The scan of a svc_PacketEntities costs no allocation.
func TestFieldsDoesNotAllocate(t *testing.T) {
	body := varintField(nil, 1, 64)
	body = bytesField(body, 7, make([]byte, 3000))
	body = varintField(body, 16, 1)
	var c Collector
	if n := testing.AllocsPerRun(100, func() { c.Fields(PacketEntities, game.Deadlock, body, Place{}) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// BenchmarkFieldsPacketEntities is the scan the decode pass runs on every
// svc_PacketEntities: a dozen known fields around a large entity_data.
func BenchmarkFieldsPacketEntities(b *testing.B) {
	body := varintField(nil, 1, 2048)
	body = varintField(body, 2, 62)
	body = varintField(body, 3, 1)
	body = varintField(body, 6, 15769)
	body = bytesField(body, 7, make([]byte, 1800))
	body = varintField(body, 9, 1)
	body = varintField(body, 10, 4)
	body = varintField(body, 12, 15772)
	var c Collector
	b.ReportAllocs()
	for b.Loop() {
		c.Fields(PacketEntities, game.Deadlock, body, Place{})
	}
}

// Each table names each number once, every message has a table, and a
// nested message is read only through a field its parent defines.
func TestTablesAreConsistent(t *testing.T) {
	for m := Msg(0); m < numMsgs; m++ {
		tb := tables[m]
		if tb.name == "" || len(tb.fields) == 0 {
			t.Errorf("message %d has no table", m)
		}
		seen := map[int]bool{}
		for _, f := range tb.fields {
			if seen[f.num] || f.num <= 0 || f.name == "" {
				t.Errorf("%s: field #%d %q repeated or unnamed", tb.name, f.num, f.name)
			}
			seen[f.num] = true
		}
		for num := range tb.kids {
			if !seen[num] {
				t.Errorf("%s: nested message at #%d, which it does not define", tb.name, num)
			}
		}
		if got, ok := ByName(tb.name); !ok || got != m {
			t.Errorf("ByName(%q) = %v, %v", tb.name, got, ok)
		}
	}
}

// FieldsPlain passes over the nested messages of the kind it names, and
// only those: an unknown field in a serializer goes unnoted, one in a
// serializer field (another kind) or in the outer message is noted.
func TestFieldsPlainPassesOverOneKind(t *testing.T) {
	ser := varintField(nil, 1, 3)
	ser = varintField(ser, 9, 1) // unknown in ProtoFlattenedSerializer_t
	field := varintField(nil, 2, 4)
	field = varintField(field, 40, 1) // unknown in ProtoFlattenedSerializerField_t
	body := bytesField(nil, 1, ser)
	body = bytesField(body, 3, field)
	body = varintField(body, 50, 1) // unknown in CSVCMsg_FlattenedSerializer
	var all, plain Collector
	all.Fields(FlattenedSerializer, game.Dota2, body, Place{})
	plain.FieldsPlain(FlattenedSerializer, game.Dota2, body, Place{}, Serializer)
	if got := all.Items(); len(got) != 3 || got[0].ID != 9 {
		t.Fatalf("Fields: %+v", got)
	}
	got := plain.Items()
	if len(got) != 2 || got[0].ID != 40 || got[1].ID != 50 {
		t.Fatalf("FieldsPlain: %+v", got)
	}
	// Two kinds: both passed over, the outer message still read.
	var both Collector
	both.FieldsPlain(FlattenedSerializer, game.Dota2, body, Place{}, Serializer, SerializerField)
	if got := both.Items(); len(got) != 1 || got[0].ID != 50 {
		t.Fatalf("FieldsPlain of two kinds: %+v", got)
	}
}
