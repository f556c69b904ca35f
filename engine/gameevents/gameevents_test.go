package gameevents

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/msgnames"
)

// Hand-built wire bytes: the helpers write a field as protowire does.

func vint(b []byte, n protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(b, n, protowire.VarintType), v)
}

func bytesField(b []byte, n protowire.Number, d []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, n, protowire.BytesType), d)
}

func fixed32(b []byte, n protowire.Number, v uint32) []byte {
	return protowire.AppendFixed32(protowire.AppendTag(b, n, protowire.Fixed32Type), v)
}

func keyDesc(t KeyType, name string) []byte {
	return bytesField(vint(nil, 1, uint64(t)), 2, []byte(name))
}

func descriptor(id int32, name string, keys ...[]byte) []byte {
	b := vint(nil, 1, uint64(id))
	b = bytesField(b, 2, []byte(name))
	for _, k := range keys {
		b = bytesField(b, 3, k)
	}
	return b
}

func list(descs ...[]byte) []byte {
	var b []byte
	for _, d := range descs {
		b = bytesField(b, 1, d)
	}
	return b
}

// value is a key_t: its type, then field n holding raw (a varint, fixed32
// or bytes by the field).
func value(t KeyType, n protowire.Number, raw any) []byte {
	b := vint(nil, 1, uint64(t))
	switch x := raw.(type) {
	case string:
		return bytesField(b, n, []byte(x))
	case float32:
		return fixed32(b, n, math.Float32bits(x))
	case uint64:
		return vint(b, n, x)
	case int64:
		return vint(b, n, uint64(x)) // a negative int32 sign-extended, as protobuf writes it
	case bool:
		if x {
			return vint(b, n, 1)
		}
		return vint(b, n, 0)
	}
	return b
}

func event(id int32, keys ...[]byte) []byte {
	b := vint(nil, 2, uint64(id))
	for _, k := range keys {
		b = bytesField(b, 3, k)
	}
	return b
}

func TestParseListNamesEveryDescriptorAndKey(t *testing.T) {
	b := list(
		descriptor(0, "server_spawn", keyDesc(String, "hostname"), keyDesc(Short, "port"), keyDesc(Bool, "dedicated")),
		descriptor(7, "round_start"),
		descriptor(3, "player_death", keyDesc(PlayerController, "userid"), keyDesc(EHandle, "userid_pawn"), keyDesc(Uint64, "xuid")),
	)
	l, err := ParseList(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Descriptors) != 3 {
		t.Fatalf("%d descriptors, want 3", len(l.Descriptors))
	}
	d := l.ByID(3)
	if d == nil || d.Name != "player_death" || d.Index != 2 {
		t.Fatalf("ByID(3) = %+v", d)
	}
	want := []KeyDesc{{PlayerController, "userid"}, {EHandle, "userid_pawn"}, {Uint64, "xuid"}}
	if len(d.Keys) != len(want) {
		t.Fatalf("keys %+v, want %+v", d.Keys, want)
	}
	for i := range want {
		if d.Keys[i] != want[i] {
			t.Errorf("key %d = %+v, want %+v", i, d.Keys[i], want[i])
		}
	}
	if l.ByName("round_start") != &l.Descriptors[1] || l.ByName("nope") != nil || l.ByID(99) != nil {
		t.Error("ByName/ByID find the wrong entries")
	}
	var none *List
	if none.ByID(0) != nil || none.ByName("x") != nil {
		t.Error("a nil list defines something")
	}
}

func TestParseListRefusesDuplicateIDsAndWrongWireTypes(t *testing.T) {
	if _, err := ParseList(list(descriptor(4, "a"), descriptor(4, "b"))); err == nil || !strings.Contains(err.Error(), "event id 4") {
		t.Errorf("two descriptors of id 4: %v", err)
	}
	bad := [][]byte{
		vint(nil, 1, 5),                                               // a descriptor as a varint
		list(bytesField(nil, 1, []byte("x"))),                         // eventid as bytes
		list(vint(vint(nil, 1, 1), 2, 3)),                             // name as a varint
		list(descriptor(1, "a", bytesField(nil, 1, []byte{1}))),       // key type as bytes
		list(descriptor(1, "a", vint(nil, 2, 1))),                     // key name as a varint
		list(vint(bytesField(vint(nil, 1, 1), 2, []byte("a")), 3, 1)), // keys as a varint
	}
	for i, b := range bad {
		if _, err := ParseList(b); !errors.Is(err, ErrWireType) {
			t.Errorf("case %d: %v, want a wire type error", i, err)
		}
	}
	if _, err := ParseList([]byte{0x0a, 0x05, 0x08}); err == nil {
		t.Error("a truncated list parses")
	}
}

func TestParseEventReadsEachTypeFromItsField(t *testing.T) {
	b := event(3,
		value(String, 2, "weapon_ak47"),
		value(Float, 3, float32(-1.5)),
		value(Long, 4, int64(-5)),
		value(Short, 5, int64(300)),
		value(Byte, 6, uint64(255)),
		value(Bool, 7, true),
		value(Uint64, 8, uint64(math.MaxUint64)),
		value(EHandle, 4, int64(-1)),
		value(PlayerController, 5, uint64(2)),
	)
	e, err := ParseEvent(b)
	if err != nil {
		t.Fatal(err)
	}
	if e.ID != 3 || e.HasName || len(e.Keys) != 9 {
		t.Fatalf("event %+v", e)
	}
	wantText := []string{`"weapon_ak47"`, "-1.5", "-5", "300", "255", "true", "18446744073709551615", "-1", "2"}
	wantJSON := []string{`"weapon_ak47"`, "-1.5", "-5", "300", "255", "true", "18446744073709551615", "-1", "2"}
	for i, v := range e.Keys {
		if got := v.Text(); got != wantText[i] {
			t.Errorf("key %d (%s) text %s, want %s", i, v.Type, got, wantText[i])
		}
		if got := string(v.AppendJSON(nil)); got != wantJSON[i] {
			t.Errorf("key %d (%s) JSON %s, want %s", i, v.Type, got, wantJSON[i])
		}
		if !json.Valid(v.AppendJSON(nil)) {
			t.Errorf("key %d: invalid JSON", i)
		}
	}
	// A value left at its default: no field, the type's zero.
	e, err = ParseEvent(event(1, vint(nil, 1, uint64(Short)), vint(nil, 1, uint64(String))))
	if err != nil {
		t.Fatal(err)
	}
	if e.Keys[0].Text() != "0" || e.Keys[0].Fields != 0 || e.Keys[1].Text() != `""` {
		t.Errorf("defaults read %s and %s", e.Keys[0].Text(), e.Keys[1].Text())
	}
}

func TestEventNameAndUnknownTypes(t *testing.T) {
	b := bytesField(nil, 1, []byte("custom_thing"))
	b = append(b, event(40,
		value(KeyType(12), 4, int64(7)),                              // a type unknown here, one field: read by that field
		value(KeyType(13), 0, nil),                                   // no field at all
		append(value(KeyType(14), 2, "a"), value(0, 7, true)[2:]...), // two fields
	)...)
	e, err := ParseEvent(b)
	if err != nil {
		t.Fatal(err)
	}
	if !e.HasName || e.Name != "custom_thing" || e.ID != 40 {
		t.Fatalf("event %+v", e)
	}
	if k := e.Keys[0].Kind(); k != Long || e.Keys[0].Text() != "7" {
		t.Errorf("type 12 with val_long reads as %v %s", k, e.Keys[0].Text())
	}
	for _, i := range []int{1, 2} {
		if e.Keys[i].Kind() != 0 || e.Keys[i].Text() != "?" || string(e.Keys[i].AppendJSON(nil)) != "null" {
			t.Errorf("key %d reads as %v %s", i, e.Keys[i].Kind(), e.Keys[i].Text())
		}
	}
	if KeyType(12).String() != "type(12)" || PlayerController.String() != "player" || EHandle.String() != "ehandle" {
		t.Error("type names")
	}
}

func TestParseEventRefusesWrongWireTypes(t *testing.T) {
	bad := [][]byte{
		bytesField(nil, 2, []byte{1}),                         // eventid as bytes
		vint(nil, 1, 3),                                       // event_name as a varint
		vint(nil, 3, 3),                                       // keys as a varint
		event(1, vint(vint(nil, 1, 1), 2, 5)),                 // val_string as a varint
		event(1, vint(vint(nil, 1, 2), 3, 5)),                 // val_float as a varint
		event(1, bytesField(vint(nil, 1, 3), 4, []byte("x"))), // val_long as bytes
		event(1, fixed32(vint(nil, 1, 7), 8, 1)),              // val_uint64 as fixed32
	}
	for i, b := range bad {
		if _, err := ParseEvent(b); !errors.Is(err, ErrWireType) {
			t.Errorf("case %d: %v, want a wire type error", i, err)
		}
	}
}

// Every prefix of a real-shaped event either parses or says why: no
// panic, and the whole parses.
func TestParseEventPrefixes(t *testing.T) {
	b := event(158, value(PlayerController, 5, uint64(2)), value(EHandle, 4, int64(-10746)), value(String, 2, "weapon_galilar"), value(Bool, 7, false))
	for n := range len(b) {
		ParseEvent(b[:n])
	}
	if _, err := ParseEvent(b); err != nil {
		t.Fatal(err)
	}
}

func TestTrackerResolvesAgainstTheListInForce(t *testing.T) {
	var tr Tracker
	ev := event(3, value(PlayerController, 5, uint64(2)), value(Bool, 7, true))
	r, isEvent, err := tr.Handle(EventMessage, ev)
	if err != nil || !isEvent {
		t.Fatal(isEvent, err)
	}
	if !r.NoList || r.Desc != nil || r.Label() != "#3" || r.KeyName(1) != "1" || r.Why() == "" || r.Mismatches() != nil {
		t.Errorf("before the list: %+v label %s", r, r.Label())
	}
	if _, isEvent, err := tr.Handle(ListMessage, list(descriptor(3, "player_death", keyDesc(PlayerController, "userid"), keyDesc(Short, "headshot")), descriptor(4, "x"))); err != nil || isEvent {
		t.Fatal(isEvent, err)
	}
	r, _, err = tr.Handle(EventMessage, ev)
	if err != nil {
		t.Fatal(err)
	}
	if r.NoList || r.Label() != "player_death" || r.KeyName(0) != "userid" || r.KeyName(1) != "headshot" || r.KeyName(2) != "2" || r.Declared(1) != Short || r.Desc.Index != 0 {
		t.Errorf("after the list: label %s keys %s %s", r.Label(), r.KeyName(0), r.KeyName(1))
	}
	if m := r.Mismatches(); len(m) != 1 || !strings.Contains(m[0], "headshot is declared short, sent as bool") {
		t.Errorf("mismatches %q", m)
	}
	r, _, _ = tr.Handle(EventMessage, event(9))
	if r.Desc != nil || r.NoList || !strings.Contains(r.Why(), "no entry of id 9") {
		t.Errorf("id 9: %+v %s", r, r.Why())
	}
	r, _, _ = tr.Handle(EventMessage, event(4, value(Byte, 6, uint64(1))))
	if m := r.Mismatches(); len(m) != 1 || !strings.Contains(m[0], "0 keys, the message 1") {
		t.Errorf("mismatches %q", m)
	}
	// A long sent in val_short: read from val_long (0), and said.
	r, _, _ = tr.Handle(EventMessage, event(3, value(PlayerController, 5, uint64(2)), value(Short, 5, uint64(1)), value(Long, 5, uint64(9))))
	if r.Keys[2].Text() != "0" || !r.Keys[2].Has(5) {
		t.Errorf("a long in val_short reads %s", r.Keys[2].Text())
	}
	if m := r.Mismatches(); len(m) != 2 || !strings.Contains(m[1], "key 2 (long, read from val_long) holds a value in another field") {
		t.Errorf("mismatches %q", m)
	}
	// A second list adds its new names to Defined, once.
	tr.Handle(ListMessage, list(descriptor(4, "x"), descriptor(5, "y")))
	if tr.Lists != 2 || strings.Join(tr.Defined, ",") != "player_death,x,y" {
		t.Errorf("lists %d defined %v", tr.Lists, tr.Defined)
	}
	if _, isEvent, err := tr.Handle(55, []byte{0xff}); isEvent || err != nil {
		t.Error("another message type is not ignored")
	}
	if _, _, err := tr.Handle(ListMessage, []byte{0x0a}); err == nil || tr.Lists != 2 {
		t.Error("a broken list is accepted")
	}
}

// The ids are the ones engine/msgnames gives every game.
func TestMessageIDsInEveryGame(t *testing.T) {
	for _, g := range []game.Game{game.Unknown, game.Dota2, game.CS2, game.Deadlock} {
		if n, _ := msgnames.Name(g, ListMessage); n != "GE_Source1LegacyGameEventList" {
			t.Errorf("%v: %d is %q", g, ListMessage, n)
		}
		if n, _ := msgnames.Name(g, EventMessage); n != "GE_Source1LegacyGameEvent" {
			t.Errorf("%v: %d is %q", g, EventMessage, n)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(list(descriptor(3, "player_death", keyDesc(PlayerController, "userid"))))
	f.Add(event(3, value(PlayerController, 5, uint64(2)), value(Float, 3, float32(2))))
	f.Fuzz(func(t *testing.T, b []byte) {
		var tr Tracker
		if l, err := ParseList(b); err == nil {
			tr.SetList(l)
		}
		if r, err := tr.Resolve(b); err == nil {
			for i, v := range r.Keys {
				_ = r.KeyName(i)
				_ = v.Text()
				if !json.Valid(v.AppendJSON(nil)) {
					t.Fatalf("key %d: invalid JSON %s", i, v.AppendJSON(nil))
				}
			}
			_ = r.Mismatches()
		}
	})
}

func TestResolvedJSON(t *testing.T) {
	var tr Tracker
	ev := event(3, value(PlayerController, 5, uint64(2)), value(String, 2, "a\"b"), value(Uint64, 8, uint64(1)<<63))
	r, _ := tr.Resolve(ev)
	if got, want := string(r.AppendJSON(nil, -1)), `{"tick":-1,"id":3,"name":null,"keys":{"0":2,"1":"a\"b","2":9223372036854775808}}`; got != want {
		t.Errorf("without a list:\n%s\nwant\n%s", got, want)
	}
	tr.SetList(&List{Descriptors: []Descriptor{{ID: 3, Name: "e", Keys: []KeyDesc{{PlayerController, "userid"}, {String, "s"}, {Uint64, "xuid"}}}}, byID: map[int32]int{3: 0}})
	r, _ = tr.Resolve(ev)
	if got, want := string(r.AppendJSON(nil, 12)), `{"tick":12,"id":3,"name":"e","keys":{"userid":2,"s":"a\"b","xuid":9223372036854775808}}`; got != want {
		t.Errorf("with the list:\n%s\nwant\n%s", got, want)
	}
}

// A body of many tiny key_t or descriptors is refused at the cap, not
// turned into tens of bytes of memory for each two of its own.
func TestCaps(t *testing.T) {
	var ev []byte
	for range MaxKeys + 1 {
		ev = bytesField(ev, 3, nil)
	}
	if _, err := ParseEvent(ev); err == nil || !strings.Contains(err.Error(), "more than 1024 values") {
		t.Errorf("%d values: %v", MaxKeys+1, err)
	}
	if e, err := ParseEvent(ev[:2*MaxKeys]); err != nil || len(e.Keys) != MaxKeys {
		t.Errorf("%d values: %d, %v", MaxKeys, len(e.Keys), err)
	}
	var l []byte
	for i := range MaxDescriptors + 1 {
		l = bytesField(l, 1, vint(nil, 1, uint64(i)))
	}
	if _, err := ParseList(l); err == nil || !strings.Contains(err.Error(), "more than 16384 descriptors") {
		t.Errorf("%d descriptors: %v", MaxDescriptors+1, err)
	}
	var keys [][]byte
	for range MaxKeys + 1 {
		keys = append(keys, nil)
	}
	if _, err := ParseList(list(descriptor(1, "a", keys...))); err == nil || !strings.Contains(err.Error(), "more than 1024 keys") {
		t.Errorf("%d keys: %v", MaxKeys+1, err)
	}
}
