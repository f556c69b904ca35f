package replay

import (
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/knownfmt"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/schema"
)

// formatPlace is where loc is, for the format collector.
func formatPlace(loc Location) knownfmt.Place {
	return knownfmt.Place{Tick: loc.Tick, Command: loc.Command, Byte: loc.Offset, Message: loc.Message}
}

// formatCommand notes what a demo command carries beyond the format
// dembug knows: an unknown command id, or unknown fields in the messages
// dembug reads.
func (r *Replay) formatCommand(c *container.Command, loc Location) {
	var m knownfmt.Msg
	switch c.Kind {
	case container.FileHeader:
		m = knownfmt.FileHeader
	case container.FileInfo:
		m = knownfmt.FileInfo
	case container.SendTables:
		return // formatSendTables, once the schema is parsed
	case container.ClassInfo:
		m = knownfmt.DemoClassInfo
	case container.StringTables:
		return // formatStringTables, once the snapshot is read
	case container.Packet, container.SignonPacket:
		if c.Broadcast {
			return // the body is the packet data itself
		}
		m = knownfmt.DemoPacket
	case container.FullPacket:
		m = knownfmt.FullPacket
	default:
		r.Format.Command(c.Kind, formatPlace(loc))
		return
	}
	r.Format.Fields(m, r.Game, c.Body, formatPlace(loc))
}

// formatSendTables is formatCommand for DEM_SendTables, called once its
// schema (s, nil when data or the parse failed) is parsed: the serializers
// and the fields that parse read as plain as Valve writes them hold
// nothing unknown, and are passed over.
func (r *Replay) formatSendTables(c *container.Command, data []byte, s *schema.Schema, loc Location) {
	at := formatPlace(loc)
	if data != nil {
		var kinds [2]knownfmt.Msg
		plain := kinds[:0]
		if s != nil && s.PlainSerializers() {
			plain = append(plain, knownfmt.Serializer)
		}
		if s != nil && s.PlainFields() {
			plain = append(plain, knownfmt.SerializerField)
		}
		r.Format.FieldsPlain(knownfmt.FlattenedSerializer, r.Game, data, at, plain...)
	}
	r.Format.Fields(knownfmt.SendTables, r.Game, c.Body, at)
}

// formatStringTables is formatCommand for DEM_StringTables, called once
// the snapshot is read: when every item held only a key and a value, as
// the snapshot's reading found, the items are passed over.
func (r *Replay) formatStringTables(c *container.Command, plain bool, loc Location) {
	if plain {
		r.Format.FieldsPlain(knownfmt.StringTables, r.Game, c.Body, formatPlace(loc), knownfmt.StringTablesItem)
		return
	}
	r.Format.Fields(knownfmt.StringTables, r.Game, c.Body, formatPlace(loc))
}

// The game event list and a game event (gameevents.ListMessage and
// EventMessage, which this package does not import: gameevents' tests
// decode replays).
const (
	gameEventList = 205
	gameEvent     = 207
)

// formatInner notes an inner message of a type no table names, or fields
// dembug does not know in one it reads.
func (r *Replay) formatInner(m *messages.Inner, loc Location) {
	var t knownfmt.Msg
	switch m.Type {
	case messages.SvcPacketEntities:
		t = knownfmt.PacketEntities
	case messages.NetTick:
		t = knownfmt.NetTick
	case messages.SvcServerInfo:
		t = knownfmt.ServerInfo
	case messages.SvcFlattenedSerializer:
		t = knownfmt.FlattenedSerializer
	case messages.SvcClassInfo:
		t = knownfmt.ClassInfo
	case messages.SvcCreateStringTable:
		t = knownfmt.CreateStringTable
	case messages.SvcUpdateStringTable:
		t = knownfmt.UpdateStringTable
	case messages.SvcClearAllStringTables:
		t = knownfmt.ClearAllStringTables
	case gameEventList:
		t = knownfmt.GameEventList
	case gameEvent:
		t = knownfmt.GameEvent
	default:
		r.Format.Message(r.Game, m.Type, formatPlace(loc))
		return
	}
	r.Format.Fields(t, r.Game, m.Body, formatPlace(loc))
}
