package session

import (
	"sync"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/knownfmt"
)

// NovelNote is what the debugger says of a field number, command or
// message type no definition dembug knows names.
const NovelNote = "unknown to dembug — new in this build?"

// NovelMark starts the timeline name of such a command or message.
const NovelMark = "◆"

// NovelCommand reports whether a demo command id is one dembug does not
// know.
func NovelCommand(k container.Kind) bool { return k < container.DemError || k > container.Recovery }

// wireKnown maps the wire view's message names to the tables of known
// field numbers (engine/knownfmt), for the messages dembug reads.
var wireKnown = map[string]knownfmt.Msg{
	"DEM_FileHeader": knownfmt.FileHeader, "DEM_FileInfo": knownfmt.FileInfo,
	"DEM_Packet": knownfmt.DemoPacket, "DEM_SignonPacket": knownfmt.DemoPacket,
	"DEM_FullPacket": knownfmt.FullPacket, "DEM_SendTables": knownfmt.SendTables,
	"DEM_ClassInfo": knownfmt.DemoClassInfo, "DEM_StringTables": knownfmt.StringTables,
	"net_Tick": knownfmt.NetTick, "svc_ServerInfo": knownfmt.ServerInfo, "svc_ClassInfo": knownfmt.ClassInfo,
	"svc_CreateStringTable": knownfmt.CreateStringTable, "svc_UpdateStringTable": knownfmt.UpdateStringTable,
	"svc_ClearAllStringTables": knownfmt.ClearAllStringTables, "svc_PacketEntities": knownfmt.PacketEntities,
	"svc_FlattenedSerializer":       knownfmt.FlattenedSerializer,
	"GE_Source1LegacyGameEventList": knownfmt.GameEventList, "GE_Source1LegacyGameEvent": knownfmt.GameEvent,
}

// novelField names a top-level field of a message the wire view shows
// that the wire table leaves unnamed: the definitions' name where they
// give the number, NovelNote where none does; "" for messages dembug does
// not read.
func novelField(message string, num int) string {
	m, ok := wireKnown[message]
	if !ok {
		return ""
	}
	if knownfmt.Known(m, game.Unknown, num) {
		return knownfmt.FieldName(m, num)
	}
	return NovelNote
}

// NovelFields describes what the selected message (msg >= 0) or command
// carries that no definition dembug knows names: one line per field
// number, or the type itself. It re-reads the body: the debugger asks only
// for the one selected.
func (f *File) NovelFields(c *Command, msg *Message) []string { return novelLines(f.data, c, msg) }

// novelLines is File.NovelFields over data.
func novelLines(data []byte, c *Command, msg *Message) []string {
	k := novelKey{cmd: c.Index, msg: -1, size: len(data)}
	if len(data) > 0 {
		k.data = &data[0]
	}
	if msg != nil {
		k.msg = msg.Index
	}
	novelMemo.Lock()
	defer novelMemo.Unlock()
	if novelMemo.ok && novelMemo.key == k {
		return novelMemo.out
	}
	out := novelFields(data, c, msg)
	novelMemo.key, novelMemo.out, novelMemo.ok = k, out, true
	return out
}

// novelMemo keeps the last answer: the inspector asks on every frame
// while a command or message stays selected.
var novelMemo struct {
	sync.Mutex
	key novelKey
	out []string
	ok  bool
}

type novelKey struct {
	data     *byte
	size     int
	cmd, msg int
}

func novelFields(data []byte, c *Command, msg *Message) []string {
	var col knownfmt.Collector
	at := knownfmt.Place{Command: c.Index, Message: -1}
	idx := -1
	if msg != nil {
		idx, at.Message = msg.Index, msg.Index
	}
	if msg == nil && NovelCommand(c.Kind) {
		col.Command(c.Kind, at)
	} else if name := c.Kind.String(); msg == nil {
		t, ok := wireKnown[name]
		if !ok || container.IsCapture(data) {
			return nil
		}
		body, err := bodyOf(data, c, -1)
		if err != nil {
			return nil
		}
		col.Fields(t, game.Unknown, body, at)
	} else {
		t, ok := wireKnown[msg.Name]
		if !ok {
			col.Message(game.Unknown, msg.Type, at)
		} else if body, err := bodyOf(data, c, idx); err == nil {
			col.Fields(t, game.Unknown, body, at)
		}
	}
	var out []string
	for _, it := range col.Items() {
		out = append(out, it.Short())
	}
	return out
}
