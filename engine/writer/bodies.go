package writer

import (
	"github.com/golang/snappy"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/stringtable"
)

// Demo command bodies. Field numbers are those package messages reads.

// FileHeaderBody is CDemoFileHeader.
func FileHeaderBody(h messages.FileHeader) []byte {
	var m pb
	m.optString(1, h.DemoFileStamp)
	m.optInt32(2, h.NetworkProtocol)
	m.optString(3, h.ServerName)
	m.optString(4, h.ClientName)
	m.optString(5, h.MapName)
	m.optString(6, h.GameDirectory)
	m.optInt32(7, h.FullpacketsVersion)
	m.optString(11, h.DemoVersionName)
	m.optString(12, h.DemoVersionGUID)
	m.optInt32(13, h.BuildNum)
	m.optString(14, h.Game)
	m.optInt32(15, h.ServerStartTick)
	return m.b
}

// FileInfoBody is CDemoFileInfo.
func FileInfoBody(fi messages.FileInfo) []byte {
	var m pb
	m.float(1, fi.PlaybackTime)
	m.int32(2, fi.PlaybackTicks)
	m.int32(3, fi.PlaybackFrames)
	return m.b
}

// SendTablesBody is CDemoSendTables: its data is the varint-length-prefixed
// CSVCMsg_FlattenedSerializer.
func SendTablesBody(flattened []byte) []byte {
	data := protowire.AppendVarint(nil, uint64(len(flattened)))
	data = append(data, flattened...)
	var m pb
	m.bytes(1, data)
	return m.b
}

// ClassInfoBody is CDemoClassInfo.
func ClassInfoBody(classes []messages.Class) []byte {
	var m pb
	for _, c := range classes {
		var cm pb
		cm.int32(1, c.ID)
		cm.string(2, c.NetworkName)
		cm.optString(3, c.TableName)
		m.bytes(1, cm.b)
	}
	return m.b
}

// PacketBody is CDemoPacket (DEM_Packet, DEM_SignonPacket): the inner
// packet data.
func PacketBody(data []byte) []byte {
	var m pb
	m.bytes(3, data)
	return m.b
}

// StringTablesBody is CDemoStringTables, a snapshot of string tables.
func StringTablesBody(tables []messages.SnapshotTable) []byte {
	var m pb
	for _, t := range tables {
		var tm pb
		tm.string(1, t.Name)
		for _, it := range t.Items {
			var im pb
			im.string(1, it.Key)
			if it.Data != nil {
				im.bytes(2, it.Data)
			}
			tm.bytes(2, im.b)
		}
		tm.optInt32(4, t.Flags)
		m.bytes(1, tm.b)
	}
	return m.b
}

// Network message bodies.

// NetTickBody is CNETMsg_Tick.
func NetTickBody(tick uint32) []byte {
	var m pb
	m.varint(1, uint64(tick))
	return m.b
}

// ServerInfoBody is CSVCMsg_ServerInfo.
func ServerInfoBody(s messages.ServerInfo) []byte {
	var m pb
	m.int32(10, s.MaxClients)
	m.int32(11, s.MaxClasses)
	m.float(13, s.TickInterval)
	m.optString(14, s.GameDir)
	m.optString(15, s.MapName)
	return m.b
}

// ClearAllStringTablesBody is CSVCMsg_ClearAllStringTables.
func ClearAllStringTablesBody(mapName string) []byte {
	var m pb
	m.string(1, mapName)
	return m.b
}

// CreateStringTableBody is CSVCMsg_CreateStringTable.
func CreateStringTableBody(c messages.CreateStringTable) []byte {
	var m pb
	m.string(1, c.Name)
	m.int32(2, c.NumEntries)
	m.bool(3, c.UserDataFixedSize)
	m.int32(4, c.UserDataSize)
	m.int32(5, c.UserDataSizeBits)
	m.int32(6, c.Flags)
	m.bytes(7, c.StringData)
	if c.DataCompressed {
		m.int32(8, c.UncompressedSize)
	}
	m.bool(9, c.DataCompressed)
	m.bool(10, c.VarintBitCounts)
	return m.b
}

// UpdateStringTableBody is CSVCMsg_UpdateStringTable.
func UpdateStringTableBody(u messages.UpdateStringTable) []byte {
	var m pb
	m.int32(1, u.TableID)
	m.int32(2, u.NumChangedEntries)
	m.bytes(3, u.StringData)
	return m.b
}

// PacketEntitiesBody is CSVCMsg_PacketEntities.
func PacketEntitiesBody(p messages.PacketEntities) []byte {
	var m pb
	m.int32(1, p.MaxEntries)
	m.int32(2, p.UpdatedEntries)
	m.bool(3, p.IsDelta)
	m.bool(4, p.UpdateBaseline)
	m.int32(5, p.Baseline)
	m.int32(6, p.DeltaFrom)
	m.bytes(7, p.EntityData)
	m.bool(8, p.PendingFullFrame)
	m.varint(12, uint64(p.ServerTick))
	if p.HasPVSVisBits != 0 {
		m.int32(16, p.HasPVSVisBits)
	}
	return m.b
}

// CreateStringTable builds svc_CreateStringTable for a table with t's
// settings holding entries (stringtable.Encode), snappy-compressing the
// entry data when compress is set.
func CreateStringTable(t *stringtable.Table, entries []stringtable.Entry, compress bool) messages.CreateStringTable {
	data := stringtable.Encode(entries, t)
	c := messages.CreateStringTable{
		Name: t.Name, NumEntries: int32(len(entries)), UserDataFixedSize: t.UserDataFixed,
		UserDataSize: t.UserDataSize, UserDataSizeBits: t.UserDataSizeBits, Flags: t.Flags,
		StringData: data, VarintBitCounts: t.VarintBitCounts,
	}
	if compress {
		c.StringData = snappy.Encode(nil, data)
		c.UncompressedSize = int32(len(data))
		c.DataCompressed = true
	}
	return c
}

// UpdateStringTable builds svc_UpdateStringTable for table id (its
// creation order) with t's settings.
func UpdateStringTable(id int32, t *stringtable.Table, entries []stringtable.Entry) messages.UpdateStringTable {
	return messages.UpdateStringTable{TableID: id, NumChangedEntries: int32(len(entries)), StringData: stringtable.Encode(entries, t)}
}

// Inner is one network message inside a packet.
type Inner struct {
	Type uint32
	Body []byte
}

// Packet packs inner messages as the engine's SplitInner reads them:
// ubitvar type, varint size, body, bit-packed one after another.
func Packet(msgs ...Inner) []byte {
	var w bitio.Writer
	for _, m := range msgs {
		w.UBitVar(m.Type)
		w.VarUint32(uint32(len(m.Body)))
		w.RawBytes(m.Body)
	}
	return w.Bytes()
}
