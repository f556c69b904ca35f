package messages

import (
	"fmt"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/wiretree"
)

// Inner-packet message IDs the engine acts on (same in every Source 2 game).
const (
	NetTick                 = 4
	SvcServerInfo           = 40
	SvcFlattenedSerializer  = 41
	SvcClassInfo            = 42
	SvcCreateStringTable    = 44
	SvcUpdateStringTable    = 45
	SvcClearAllStringTables = 51
	SvcPacketEntities       = 55
)

// ServerInfo is svc_ServerInfo.
type ServerInfo struct {
	MaxClasses   int32
	MaxClients   int32
	TickInterval float32
	GameDir      string
	MapName      string
}

// ParseServerInfo decodes svc_ServerInfo.
func ParseServerInfo(b []byte) (ServerInfo, error) {
	var s ServerInfo
	err := wiretree.Fields(b, func(n protowire.Number, _ protowire.Type, v uint64, d []byte) error {
		switch n {
		case 10:
			s.MaxClients = int32(v)
		case 11:
			s.MaxClasses = int32(v)
		case 13:
			s.TickInterval = wiretree.Float32(v)
		case 14:
			s.GameDir = string(d)
		case 15:
			s.MapName = string(d)
		}
		return nil
	})
	return s, wrap("CSVCMsg_ServerInfo", err)
}

// NetTickMsg is net_Tick.
type NetTickMsg struct{ Tick uint32 }

// ParseNetTick decodes net_Tick.
func ParseNetTick(b []byte) (NetTickMsg, error) {
	var t NetTickMsg
	err := wiretree.Fields(b, func(n protowire.Number, _ protowire.Type, v uint64, _ []byte) error {
		if n == 1 {
			t.Tick = uint32(v)
		}
		return nil
	})
	return t, wrap("CNETMsg_Tick", err)
}

// CreateStringTable is svc_CreateStringTable.
type CreateStringTable struct {
	Name              string
	NumEntries        int32
	UserDataFixedSize bool
	UserDataSize      int32
	UserDataSizeBits  int32
	Flags             int32
	StringData        []byte
	UncompressedSize  int32
	DataCompressed    bool
	VarintBitCounts   bool
}

// ParseCreateStringTable decodes svc_CreateStringTable.
func ParseCreateStringTable(b []byte) (CreateStringTable, error) {
	var m CreateStringTable
	err := wiretree.Fields(b, func(n protowire.Number, _ protowire.Type, v uint64, d []byte) error {
		switch n {
		case 1:
			m.Name = string(d)
		case 2:
			m.NumEntries = int32(v)
		case 3:
			m.UserDataFixedSize = v != 0
		case 4:
			m.UserDataSize = int32(v)
		case 5:
			m.UserDataSizeBits = int32(v)
		case 6:
			m.Flags = int32(v)
		case 7:
			m.StringData = d
		case 8:
			m.UncompressedSize = int32(v)
		case 9:
			m.DataCompressed = v != 0
		case 10:
			m.VarintBitCounts = v != 0
		}
		return nil
	})
	return m, wrap("CSVCMsg_CreateStringTable", err)
}

// UpdateStringTable is svc_UpdateStringTable.
type UpdateStringTable struct {
	TableID           int32
	NumChangedEntries int32
	StringData        []byte
}

// ParseUpdateStringTable decodes svc_UpdateStringTable.
func ParseUpdateStringTable(b []byte) (UpdateStringTable, error) {
	var m UpdateStringTable
	err := wiretree.Fields(b, func(n protowire.Number, _ protowire.Type, v uint64, d []byte) error {
		switch n {
		case 1:
			m.TableID = int32(v)
		case 2:
			m.NumChangedEntries = int32(v)
		case 3:
			m.StringData = d
		}
		return nil
	})
	return m, wrap("CSVCMsg_UpdateStringTable", err)
}

// PacketEntities is svc_PacketEntities.
type PacketEntities struct {
	MaxEntries       int32
	UpdatedEntries   int32
	IsDelta          bool
	UpdateBaseline   bool
	Baseline         int32
	DeltaFrom        int32
	EntityData       []byte
	PendingFullFrame bool
	ServerTick       uint32
	HasPVSVisBits    int32
}

// ParsePacketEntities decodes svc_PacketEntities.
func ParsePacketEntities(b []byte) (PacketEntities, error) {
	var m PacketEntities
	err := wiretree.Fields(b, func(n protowire.Number, _ protowire.Type, v uint64, d []byte) error {
		switch n {
		case 1:
			m.MaxEntries = int32(v)
		case 2:
			// An int32 on the wire is a sign-extended varint: a value that
			// does not fit (2^32+3) must not wrap to a small count, and
			// no count is negative.
			if int64(v) != int64(int32(v)) {
				return fmt.Errorf("updated_entries %d does not fit an int32", v)
			}
			if int32(v) < 0 {
				return fmt.Errorf("updated_entries is negative (%d)", int32(v))
			}
			m.UpdatedEntries = int32(v)
		case 3:
			m.IsDelta = v != 0
		case 4:
			m.UpdateBaseline = v != 0
		case 5:
			m.Baseline = int32(v)
		case 6:
			m.DeltaFrom = int32(v)
		case 7:
			m.EntityData = d
		case 8:
			m.PendingFullFrame = v != 0
		case 12:
			m.ServerTick = uint32(v)
		case 16:
			m.HasPVSVisBits = int32(v)
		}
		return nil
	})
	return m, wrap("CSVCMsg_PacketEntities", err)
}
