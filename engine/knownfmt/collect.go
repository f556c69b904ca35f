package knownfmt

import (
	"fmt"
	"sort"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/msgnames"
	"github.com/dembug/dembug/engine/wiretree"
)

// The kinds of unknown.
const (
	KindField   = "field"
	KindCommand = "command"
	KindMessage = "message"
)

// Place is where something was first seen.
type Place struct {
	Tick    int32
	Command int // command index
	Byte    int // byte offset of the command in the data
	Message int // inner message index in the packet, -1 for none
}

// Item is one unknown field number, command or message type.
type Item struct {
	Kind  string
	In    string // the message a field is in ("" for commands and messages)
	ID    int    // field number, command id or message type
	Wire  string // a field's wire type
	Value string // a field's first value, briefly
	Count int    // messages (or commands) that carry it
	First Place

	seq int // order first seen
}

// Key identifies an item across files (check --since).
func (it Item) Key() string { return fmt.Sprintf("%s/%s/%d", it.Kind, it.In, it.ID) }

type key struct {
	kind string
	in   Msg
	id   int
}

// Collector gathers unknowns. The zero value is ready; it allocates only
// when it meets one.
type Collector struct {
	items map[key]*Item
	// lastMsg and lastAt stop a message with an unknown field counting
	// twice (a repeated field).
	lastMsg key
	lastAt  Place
	// okTypes caches the message types below 1024 found known for okGame
	// (a name lookup per message costs more than the rest of the scan).
	okTypes [16]uint64
	okGame  game.Game
}

// Items are the unknowns in the order first seen.
func (c *Collector) Items() []Item {
	out := make([]Item, 0, len(c.items))
	for _, it := range c.items {
		out = append(out, *it)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

func (c *Collector) note(k key, at Place, mk func() Item) {
	if c.items == nil {
		c.items = map[key]*Item{}
	}
	if it := c.items[k]; it != nil {
		if k == c.lastMsg && at == c.lastAt {
			return // the same message again (a repeated field)
		}
		it.Count++
	} else {
		it := mk()
		it.Count, it.First, it.seq = 1, at, len(c.items)
		c.items[k] = &it
	}
	c.lastMsg, c.lastAt = k, at
}

// NotedAt reports whether the last unknown noted was in inner message
// message of command command (-1: the command itself): asked right after
// a message is scanned, whether it carries one.
func (c *Collector) NotedAt(command, message int) bool {
	return c.items != nil && c.lastAt.Command == command && c.lastAt.Message == message
}

// Command notes a demo command id dembug does not know.
func (c *Collector) Command(kind container.Kind, at Place) {
	if kind >= container.DemError && kind <= container.Recovery {
		return
	}
	c.note(key{KindCommand, 0, int(kind)}, at, func() Item {
		return Item{Kind: KindCommand, ID: int(kind)}
	})
}

// Message notes an inner message type no table of game g names (under an
// unknown game, no table of any game).
func (c *Collector) Message(g game.Game, typ uint32, at Place) {
	if c.okGame != g {
		c.okTypes, c.okGame = [16]uint64{}, g
	}
	if typ < 1024 && c.okTypes[typ>>6]&(1<<(typ&63)) != 0 {
		return
	}
	if _, ok := msgnames.Name(g, typ); ok {
		if typ < 1024 {
			c.okTypes[typ>>6] |= 1 << (typ & 63)
		}
		return
	}
	if g == game.Unknown {
		for gg := game.Dota2; gg <= game.Deadlock; gg++ {
			if _, ok := msgnames.Name(gg, typ); ok {
				return
			}
		}
	}
	c.note(key{KindMessage, 0, int(typ)}, at, func() Item {
		return Item{Kind: KindMessage, ID: int(typ)}
	})
}

// Fields notes the field numbers of body, a message m, that no definition
// gives for game g, and goes into the nested messages dembug reads. A
// malformed body stops the scan quietly: the message's own parser reports
// it.
func (c *Collector) Fields(m Msg, g game.Game, body []byte, at Place) {
	c.fields(m, g, body, at, 0)
}

// FieldsPlain is Fields passing over, unread, the nested messages of the
// kinds plain, which the caller has read and found to hold only fields
// their definition gives (a schema's serializers, some 300,000 field
// indexes in a Dota 2 signon, and its fields, that its parse reads
// anyway).
func (c *Collector) FieldsPlain(m Msg, g game.Game, body []byte, at Place, plain ...Msg) {
	var mask uint64
	for _, k := range plain {
		mask |= 1 << k
	}
	c.fields(m, g, body, at, mask)
}

// The plain kinds are a mask of 64 bits: numMsgs must stay at most 64.
var _ [64 - numMsgs]struct{}

// fields is Fields passing over the kinds of message whose bits are set in
// plain.
func (c *Collector) fields(m Msg, g game.Game, body []byte, at Place, plain uint64) {
	if m >= numMsgs {
		return
	}
	if int(g) >= numGames {
		g = game.Unknown
	}
	// skip: the numbers below 64 known and holding no message dembug
	// goes into, whose values are passed over unread.
	skip := knownMask[g][m] &^ kidMask[m]
	// skipBytes: skip, and the numbers below 16 holding a message of a
	// plain kind, which are passed over as well.
	skipBytes := skip
	if plain != 0 {
		for num, k := range kids16[m] {
			if k != numMsgs && plain>>k&1 != 0 && knownMask[g][m]>>num&1 != 0 {
				skipBytes |= 1 << num
			}
		}
	}
	for len(body) > 0 {
		// Commonest of all, skipped in place: varints of numbers in skip
		// with one-byte tags (a schema's serializers list their field
		// indexes so, some 100,000 in a Dota 2 signon, and its fields are
		// mostly such), and length-delimited values of numbers in
		// skipBytes (a schema's thousands of symbols, serializers and
		// fields). It is what the general path below does for them.
		i := 0
	fast:
		for i < len(body) {
			b := body[i]
			switch {
			case b&0x87 == 0 && skip>>(b>>3)&1 != 0:
				// The varint's bytes are body[i+1:], at most ten.
				j, end := i+1, min(i+11, len(body))
				for j < end && body[j] >= 0x80 {
					j++
				}
				if j == end {
					return // malformed, as skipValue finds it
				}
				i = j + 1
			case b&0x87 == 2 && skipBytes>>(b>>3)&1 != 0:
				var l uint64
				k := 1 // the length's size: one byte below 128, by hand
				if i+1 < len(body) && body[i+1] < 0x80 {
					l = uint64(body[i+1])
				} else if l, k = protowire.ConsumeVarint(body[i+1:]); k < 0 {
					return // malformed, as skipValue finds it
				}
				if l > uint64(len(body)-i-1-k) {
					return // malformed, as skipValue finds it
				}
				i += 1 + k + int(l)
			default:
				break fast
			}
		}
		if body = body[i:]; len(body) == 0 {
			return
		}
		// The common case by hand: a one-byte tag, a known number and a
		// value skipped without decoding it (this runs for every
		// svc_PacketEntities of a file).
		var num protowire.Number
		var typ protowire.Type
		if b := body[0]; b < 0x80 {
			num, typ = protowire.Number(b>>3), protowire.Type(b&7)
			body = body[1:]
		} else {
			var n int
			if num, typ, n = protowire.ConsumeTag(body); n < 0 {
				return
			}
			body = body[n:]
		}
		// A length below 128 (most) in place; pre is its size, 0 when
		// skipValue read the value.
		l, pre := 0, 0
		if typ == protowire.BytesType && len(body) > 0 && body[0] < 0x80 {
			if l, pre = 1+int(body[0]), 1; l > len(body) {
				return // malformed, as skipValue finds it
			}
		} else if l = skipValue(num, typ, body); l < 0 {
			return
		}
		v := body[:l]
		body = body[l:]
		if num < 64 && skip&(1<<num) != 0 {
			continue
		}
		known := num < 64 && knownMask[g][m]>>num&1 != 0 // Known, without the call
		if num >= 64 {
			known = Known(m, g, int(num))
		}
		if !known {
			c.note(key{KindField, m, int(num)}, at, func() Item {
				return Item{Kind: KindField, In: m.String(), ID: int(num), Wire: wiretree.TypeName(typ), Value: brief(typ, v)}
			})
		} else if kid, ok := kidOf(m, num); ok && typ == protowire.BytesType && plain>>kid&1 == 0 {
			if pre > 0 {
				c.fields(kid, g, v[pre:], at, plain)
			} else if d, k := protowire.ConsumeBytes(v); k >= 0 {
				c.fields(kid, g, d, at, plain)
			}
		}
	}
}

// skipValue is the length of the value of a field, or -1 when it is
// malformed.
func skipValue(num protowire.Number, typ protowire.Type, b []byte) int {
	switch typ {
	case protowire.VarintType:
		for i := 0; i < len(b) && i < 10; i++ {
			if b[i] < 0x80 {
				return i + 1
			}
		}
		return -1
	case protowire.Fixed32Type:
		if len(b) < 4 {
			return -1
		}
		return 4
	case protowire.Fixed64Type:
		if len(b) < 8 {
			return -1
		}
		return 8
	case protowire.BytesType:
		n, k := protowire.ConsumeVarint(b)
		if k < 0 || n > uint64(len(b)-k) {
			return -1
		}
		return k + int(n)
	}
	return protowire.ConsumeFieldValue(num, typ, b)
}

// brief writes a value in a few characters.
func brief(t protowire.Type, v []byte) string {
	switch t {
	case protowire.VarintType:
		x, _ := protowire.ConsumeVarint(v)
		return fmt.Sprint(x)
	case protowire.Fixed32Type:
		x, _ := protowire.ConsumeFixed32(v)
		return fmt.Sprintf("0x%08x", x)
	case protowire.Fixed64Type:
		x, _ := protowire.ConsumeFixed64(v)
		return fmt.Sprintf("0x%016x", x)
	case protowire.BytesType:
		d, _ := protowire.ConsumeBytes(v)
		return fmt.Sprintf("%d bytes", len(d))
	}
	return ""
}

// Describe says what an item is in a sentence's first half.
func (it Item) Describe() string {
	switch it.Kind {
	case KindField:
		return fmt.Sprintf("%s carries field #%d (%s, value %s) that dembug does not know", it.In, it.ID, it.Wire, it.Value)
	case KindCommand:
		return fmt.Sprintf("demo command id %d that dembug does not know", it.ID)
	}
	return fmt.Sprintf("inner message type %d that dembug does not know", it.ID)
}

// Short names an item without saying it is unknown.
func (it Item) Short() string {
	switch it.Kind {
	case KindField:
		return fmt.Sprintf("field #%d (%s, value %s)", it.ID, it.Wire, it.Value)
	case KindCommand:
		return fmt.Sprintf("demo command id %d", it.ID)
	}
	return fmt.Sprintf("inner message type %d", it.ID)
}

// Noun counts what carries an item.
func (it Item) Noun() string {
	if it.Kind == KindCommand {
		if it.Count == 1 {
			return "command"
		}
		return "commands"
	}
	if it.Count == 1 {
		return "message"
	}
	return "messages"
}
