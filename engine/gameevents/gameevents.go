// Package gameevents decodes Source 2's legacy game events against the
// file's own event list, straight from the wire format like
// engine/messages.
//
// A server sends the list once, in the signon, as
// GE_Source1LegacyGameEventList (CMsgSource1LegacyGameEventList, message
// 205 in every Source 2 game): one descriptor per event, each with its
// event id, its name and its keys in order, each key a type and a name.
// Every game event after it is a GE_Source1LegacyGameEvent
// (CMsgSource1LegacyGameEvent, message 207): the event id and one value per
// key, in the descriptor's order, each value tagged with its type and held
// in the protobuf field that type uses. The message names no key: without
// the list an event is an id and a row of typed values.
//
// Files:
//
//	gameevents.go  key types, List and ParseList, Event and ParseEvent
//	tracker.go     Tracker: the list in force, and each event resolved against it
package gameevents

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/wiretree"
)

// The inner-message ids of the list and of an event: the same in Dota 2,
// CS2 and Deadlock (EBaseGameEvents, engine/msgnames).
const (
	ListMessage  = 205 // GE_Source1LegacyGameEventList
	EventMessage = 207 // GE_Source1LegacyGameEvent
)

// Caps on what one message may hold, so that a crafted body cannot ask for
// far more memory than its bytes: a key_t or a descriptor takes as little
// as two bytes, and a value or a descriptor some fifty in memory. Real
// lists hold a few hundred events of at most a few dozen keys.
const (
	MaxDescriptors = 1 << 14 // events in one list (the shared replays: 183–352)
	MaxKeys        = 1 << 10 // keys of one descriptor, values of one event
)

// KeyType is a key's value type, as the list declares it and as each value
// in an event is tagged.
type KeyType int32

// The key types. 8 and 9 are Source 2's additions: an entity handle (held
// in the long field) and a player controller's slot (held in the short
// field); the shared CS2 replays carry them as userid, attacker and the
// *_pawn keys.
const (
	String           KeyType = 1
	Float            KeyType = 2
	Long             KeyType = 3
	Short            KeyType = 4
	Byte             KeyType = 5
	Bool             KeyType = 6
	Uint64           KeyType = 7
	EHandle          KeyType = 8
	PlayerController KeyType = 9
)

var typeNames = [...]string{"", "string", "float", "long", "short", "byte", "bool", "uint64", "ehandle", "player"}

// String names the type as the game's event files do ("long", "short"…);
// 8 is "ehandle" and 9 "player", and any other number "type(N)".
func (t KeyType) String() string {
	if t > 0 && int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "type(" + strconv.FormatInt(int64(t), 10) + ")"
}

// Field is the field number of CMsgSource1LegacyGameEvent.key_t that holds
// a value of type t (0 for a type this package does not know).
func (t KeyType) Field() protowire.Number {
	switch t {
	case String:
		return fieldString
	case Float:
		return fieldFloat
	case Long, EHandle:
		return fieldLong
	case Short, PlayerController:
		return fieldShort
	case Byte:
		return fieldByte
	case Bool:
		return fieldBool
	case Uint64:
		return fieldUint64
	}
	return 0
}

// key_t's fields: the type, then one field per kind of value.
const (
	fieldType   protowire.Number = 1
	fieldString protowire.Number = 2
	fieldFloat  protowire.Number = 3
	fieldLong   protowire.Number = 4
	fieldShort  protowire.Number = 5
	fieldByte   protowire.Number = 6
	fieldBool   protowire.Number = 7
	fieldUint64 protowire.Number = 8
)

// KeyDesc is one key of a descriptor.
type KeyDesc struct {
	Type KeyType
	Name string
}

// Descriptor is one event the list defines.
type Descriptor struct {
	ID    int32
	Name  string
	Keys  []KeyDesc
	Index int // position in the list (the list entry that defines it)
}

// List is a CMsgSource1LegacyGameEventList.
type List struct {
	Descriptors []Descriptor
	byID        map[int32]int
}

// ByID is the descriptor of event id, or nil.
func (l *List) ByID(id int32) *Descriptor {
	if l == nil {
		return nil
	}
	if i, ok := l.byID[id]; ok {
		return &l.Descriptors[i]
	}
	return nil
}

// ByName is the descriptor named name, or nil.
func (l *List) ByName(name string) *Descriptor {
	if l == nil {
		return nil
	}
	for i := range l.Descriptors {
		if l.Descriptors[i].Name == name {
			return &l.Descriptors[i]
		}
	}
	return nil
}

// ParseList decodes a CMsgSource1LegacyGameEventList: repeated descriptors
// (field 1), each an eventid (1), a name (2) and repeated keys (3), each a
// type (1) and a name (2). Two descriptors of one id are an error: an
// event could not say which it is.
func ParseList(b []byte) (*List, error) {
	l := &List{byID: map[int32]int{}}
	err := wiretree.Fields(b, func(n protowire.Number, t protowire.Type, _ uint64, d []byte) error {
		if n != 1 {
			return nil
		}
		if t != protowire.BytesType {
			return wireTypeError("descriptors", t)
		}
		if len(l.Descriptors) == MaxDescriptors {
			return fmt.Errorf("more than %d descriptors", MaxDescriptors)
		}
		desc, err := parseDescriptor(d)
		if err != nil {
			return fmt.Errorf("descriptor #%d: %w", len(l.Descriptors), err)
		}
		if prev, dup := l.byID[desc.ID]; dup {
			return fmt.Errorf("descriptor #%d (%s) has event id %d, as #%d (%s) does", len(l.Descriptors), desc.Name, desc.ID, prev, l.Descriptors[prev].Name)
		}
		desc.Index = len(l.Descriptors)
		l.byID[desc.ID] = desc.Index
		l.Descriptors = append(l.Descriptors, desc)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("CMsgSource1LegacyGameEventList: %w", err)
	}
	return l, nil
}

func parseDescriptor(b []byte) (Descriptor, error) {
	var d Descriptor
	err := wiretree.Fields(b, func(n protowire.Number, t protowire.Type, v uint64, data []byte) error {
		switch n {
		case 1:
			if t != protowire.VarintType {
				return wireTypeError("eventid", t)
			}
			d.ID = int32(v)
		case 2:
			if t != protowire.BytesType {
				return wireTypeError("name", t)
			}
			d.Name = string(data)
		case 3:
			if t != protowire.BytesType {
				return wireTypeError("keys", t)
			}
			if len(d.Keys) == MaxKeys {
				return fmt.Errorf("more than %d keys", MaxKeys)
			}
			var k KeyDesc
			err := wiretree.Fields(data, func(n protowire.Number, t protowire.Type, v uint64, data []byte) error {
				switch n {
				case 1:
					if t != protowire.VarintType {
						return wireTypeError("type", t)
					}
					k.Type = KeyType(int32(v))
				case 2:
					if t != protowire.BytesType {
						return wireTypeError("name", t)
					}
					k.Name = string(data)
				}
				return nil
			})
			if err != nil {
				return fmt.Errorf("key #%d: %w", len(d.Keys), err)
			}
			d.Keys = append(d.Keys, k)
		}
		return nil
	})
	return d, err
}

// Value is one key's value in an event, as the message holds it.
type Value struct {
	Type  KeyType // the type the message tags the value with
	Str   string
	Float float32
	Long  int32 // val_long: long and ehandle values
	Short int32 // val_short: short and player values
	Byte  int32 // val_byte
	Bool  bool
	U64   uint64
	// Fields has bit n set for each value field n (2…8) the message
	// holds; a value left at its default has none.
	Fields uint16
}

// Has says whether the message holds value field n.
func (v Value) Has(n protowire.Number) bool { return n < 16 && v.Fields&(1<<n) != 0 }

// Kind is how the value reads: by its type, or, for a type this package
// does not know, by the one value field the message holds (0 for none or
// several).
func (v Value) Kind() KeyType {
	if v.Type.Field() != 0 {
		return v.Type
	}
	var only KeyType
	for _, t := range []KeyType{String, Float, Long, Short, Byte, Bool, Uint64} {
		if v.Has(t.Field()) {
			if only != 0 {
				return 0
			}
			only = t
		}
	}
	return only
}

// Int is an integer value from the field its kind uses: val_long for long
// and ehandle, val_short for short and player, val_byte for byte (0 for
// any other kind).
func (v Value) Int() int32 {
	switch v.Kind().Field() {
	case fieldLong:
		return v.Long
	case fieldShort:
		return v.Short
	case fieldByte:
		return v.Byte
	}
	return 0
}

// Text is the value as text: a string quoted, a float as Go prints a
// float32, integers and booleans plain.
func (v Value) Text() string {
	switch v.Kind() {
	case String:
		return strconv.Quote(v.Str)
	case Float:
		return strconv.FormatFloat(float64(v.Float), 'g', -1, 32)
	case Long, Short, Byte, EHandle, PlayerController:
		return strconv.FormatInt(int64(v.Int()), 10)
	case Bool:
		return strconv.FormatBool(v.Bool)
	case Uint64:
		return strconv.FormatUint(v.U64, 10)
	}
	return "?"
}

// AppendJSON appends the value as JSON: a string, a number (a uint64 in
// full, not through a float), true or false; a non-finite float and a
// value of no known kind are null.
func (v Value) AppendJSON(b []byte) []byte {
	switch v.Kind() {
	case String:
		return appendJSONString(b, v.Str)
	case Float:
		f := float64(v.Float)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return append(b, "null"...)
		}
		return strconv.AppendFloat(b, f, 'g', -1, 32)
	case Long, Short, Byte, EHandle, PlayerController:
		return strconv.AppendInt(b, int64(v.Int()), 10)
	case Bool:
		return strconv.AppendBool(b, v.Bool)
	case Uint64:
		return strconv.AppendUint(b, v.U64, 10)
	}
	return append(b, "null"...)
}

// Event is a CMsgSource1LegacyGameEvent: event_name (1, rarely sent),
// eventid (2) and one value per key (3).
type Event struct {
	ID      int32
	Name    string // the message's own event_name, when it sends one
	HasName bool
	Keys    []Value
}

// ParseEvent decodes a CMsgSource1LegacyGameEvent.
func ParseEvent(b []byte) (Event, error) {
	var e Event
	err := wiretree.Fields(b, func(n protowire.Number, t protowire.Type, v uint64, d []byte) error {
		switch n {
		case 1:
			if t != protowire.BytesType {
				return wireTypeError("event_name", t)
			}
			e.Name, e.HasName = string(d), true
		case 2:
			if t != protowire.VarintType {
				return wireTypeError("eventid", t)
			}
			e.ID = int32(v)
		case 3:
			if t != protowire.BytesType {
				return wireTypeError("keys", t)
			}
			if len(e.Keys) == MaxKeys {
				return fmt.Errorf("more than %d values", MaxKeys)
			}
			val, err := parseValue(d)
			if err != nil {
				return fmt.Errorf("key #%d: %w", len(e.Keys), err)
			}
			e.Keys = append(e.Keys, val)
		}
		return nil
	})
	if err != nil {
		return Event{}, fmt.Errorf("CMsgSource1LegacyGameEvent: %w", err)
	}
	return e, nil
}

// parseValue decodes one key_t. The last of a repeated scalar field wins,
// as protobuf has it.
func parseValue(b []byte) (Value, error) {
	var val Value
	err := wiretree.Fields(b, func(n protowire.Number, t protowire.Type, v uint64, d []byte) error {
		want := protowire.VarintType
		switch n {
		case fieldString:
			want = protowire.BytesType
		case fieldFloat:
			want = protowire.Fixed32Type
		case fieldType, fieldLong, fieldShort, fieldByte, fieldBool, fieldUint64:
		default:
			return nil
		}
		if t != want {
			return wireTypeError(keyFieldNames[n], t)
		}
		if n != fieldType {
			val.Fields |= 1 << n
		}
		switch n {
		case fieldType:
			val.Type = KeyType(int32(v))
		case fieldString:
			val.Str = string(d)
		case fieldFloat:
			val.Float = math.Float32frombits(uint32(v))
		// int32 on the wire: a negative value is sign-extended to ten
		// bytes, and only its low 32 bits count.
		case fieldLong:
			val.Long = int32(v)
		case fieldShort:
			val.Short = int32(v)
		case fieldByte:
			val.Byte = int32(v)
		case fieldBool:
			val.Bool = v != 0
		case fieldUint64:
			val.U64 = v
		}
		return nil
	})
	return val, err
}

var keyFieldNames = [...]string{"", "type", "val_string", "val_float", "val_long", "val_short", "val_byte", "val_bool", "val_uint64"}

// ErrWireType is a field sent with a wire type its definition does not have.
var ErrWireType = errors.New("wrong wire type")

func wireTypeError(field string, t protowire.Type) error {
	return fmt.Errorf("%s sent as %s: %w", field, wiretree.TypeName(t), ErrWireType)
}

// appendJSONString writes s as a JSON string (invalid UTF-8 as U+FFFD).
func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}
