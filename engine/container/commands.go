package container

import "fmt"

// Kind is a demo command (Valve's EDemoCommands) with the compression flag
// removed.
type Kind int32

// The demo commands. Values are fixed by the file format.
const (
	DemError            Kind = -1
	Stop                Kind = 0
	FileHeader          Kind = 1
	FileInfo            Kind = 2
	SyncTick            Kind = 3
	SendTables          Kind = 4
	ClassInfo           Kind = 5
	StringTables        Kind = 6
	Packet              Kind = 7
	SignonPacket        Kind = 8
	ConsoleCmd          Kind = 9
	CustomData          Kind = 10
	CustomDataCallbacks Kind = 11
	UserCmd             Kind = 12
	FullPacket          Kind = 13
	SaveGame            Kind = 14
	SpawnGroups         Kind = 15
	AnimationData       Kind = 16
	AnimationHeader     Kind = 17
	Recovery            Kind = 18

	// compressedFlag marks a snappy-compressed body in the command varint.
	compressedFlag = 64
)

var kindNames = [...]string{
	"DEM_Stop", "DEM_FileHeader", "DEM_FileInfo", "DEM_SyncTick", "DEM_SendTables",
	"DEM_ClassInfo", "DEM_StringTables", "DEM_Packet", "DEM_SignonPacket",
	"DEM_ConsoleCmd", "DEM_CustomData", "DEM_CustomDataCallbacks", "DEM_UserCmd",
	"DEM_FullPacket", "DEM_SaveGame", "DEM_SpawnGroups", "DEM_AnimationData",
	"DEM_AnimationHeader", "DEM_Recovery",
}

func (k Kind) String() string {
	if k == DemError {
		return "DEM_Error"
	}
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("unknown(%d)", int32(k))
}

// HasPackets reports whether the command's body carries inner network
// messages (directly or inside a full packet).
func (k Kind) HasPackets() bool {
	return k == Packet || k == SignonPacket || k == FullPacket
}

// EndsSignon reports whether a command of kind k is the game's, not the
// signon's: DEM_SyncTick ends the signon, and a packet or full packet is
// the game's too (a file without a sync tick, a capture).
func (k Kind) EndsSignon() bool { return k == SyncTick || k == Packet || k == FullPacket }
