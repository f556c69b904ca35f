package knownfmt

import (
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/game"
)

// The field numbers of the messages dembug reads, as the public protobuf
// definitions of Dota 2, Counter-Strike 2 and Deadlock give them, old and
// new: a number any of them has ever given for a game is known for that
// game. Names are the definitions' own; the notes are ours. A field that
// only some games define says so in games (zero: every game).

type field struct {
	num   int
	name  string
	games gameMask // 0: every game
}

type gameMask uint8

func only(gs ...game.Game) gameMask {
	var m gameMask
	for _, g := range gs {
		m |= 1 << g
	}
	return m
}

// Msg is a message (or nested message) dembug reads.
type Msg uint8

// The messages dembug reads, and the messages nested in them it reads too.
const (
	FileHeader Msg = iota
	FileInfo
	DemoPacket
	FullPacket
	SendTables
	DemoClassInfo
	DemoClassInfoClass
	StringTables
	StringTablesTable
	StringTablesItem
	NetTick
	ServerInfo
	ClassInfo
	ClassInfoClass
	CreateStringTable
	UpdateStringTable
	ClearAllStringTables
	PacketEntities
	FlattenedSerializer
	Serializer
	SerializerField
	PolymorphicField
	GameEventList
	GameEventListDescriptor
	GameEventListKey
	GameEvent
	GameEventKey
	numMsgs
)

type table struct {
	name   string
	fields []field
	// kids names the nested message a field holds, where dembug reads it.
	kids map[int]Msg
}

var tables = [numMsgs]table{
	FileHeader: {name: "DEM_FileHeader", fields: []field{
		{1, "demo_file_stamp", 0}, {2, "network_protocol", 0}, {3, "server_name", 0}, {4, "client_name", 0},
		{5, "map_name", 0}, {6, "game_directory", 0}, {7, "fullpackets_version", 0},
		{8, "allow_clientside_entities", 0}, {9, "allow_clientside_particles", 0}, {10, "addons", 0},
		{11, "demo_version_name", 0}, {12, "demo_version_guid", 0}, {13, "build_num", 0}, {14, "game", 0},
		{15, "server_start_tick", 0},
	}},
	// game_info (4) holds per-game details dembug does not read.
	FileInfo: {name: "DEM_FileInfo", fields: []field{
		{1, "playback_time", 0}, {2, "playback_ticks", 0}, {3, "playback_frames", 0}, {4, "game_info", 0},
	}},
	// CDemoPacket: the packet data alone; 1 and 2 (sequence numbers)
	// were in Dota's early definitions only.
	DemoPacket: {name: "CDemoPacket", fields: []field{
		{1, "sequence_in", only(game.Dota2)}, {2, "sequence_out_ack", only(game.Dota2)}, {3, "data", 0},
	}},
	FullPacket: {name: "DEM_FullPacket", fields: []field{
		{1, "string_table", 0}, {2, "packet", 0},
	}, kids: map[int]Msg{1: StringTables, 2: DemoPacket}},
	SendTables: {name: "DEM_SendTables", fields: []field{{1, "data", 0}}},
	DemoClassInfo: {name: "DEM_ClassInfo", fields: []field{{1, "classes", 0}},
		kids: map[int]Msg{1: DemoClassInfoClass}},
	DemoClassInfoClass: {name: "DEM_ClassInfo.class_t", fields: []field{
		{1, "class_id", 0}, {2, "network_name", 0}, {3, "table_name", 0},
	}},
	StringTables: {name: "DEM_StringTables", fields: []field{{1, "tables", 0}},
		kids: map[int]Msg{1: StringTablesTable}},
	StringTablesTable: {name: "DEM_StringTables.table_t", fields: []field{
		{1, "table_name", 0}, {2, "items", 0}, {3, "items_clientside", 0}, {4, "table_flags", 0},
	}, kids: map[int]Msg{2: StringTablesItem, 3: StringTablesItem}},
	StringTablesItem: {name: "DEM_StringTables.items_t", fields: []field{{1, "str", 0}, {2, "data", 0}}},
	// net_Tick: the host timing fields came and went between builds.
	NetTick: {name: "net_Tick", fields: []field{
		{1, "tick", 0}, {2, "host_frametime", 0}, {3, "host_frametime_std_deviation", 0},
		{4, "host_computationtime", 0}, {5, "host_computationtime_std_deviation", 0},
		{6, "host_framestarttime_std_deviation", 0}, {7, "host_loss", 0}, {8, "host_unfiltered_frametime", 0},
		{9, "hltv_replay_flags", 0}, {10, "expected_long_tick", 0}, {11, "expected_long_tick_reason", 0},
		{12, "host_frame_dropped_pct_x10", 0}, {13, "host_frame_irregular_arrival_pct_x10", 0},
	}},
	ServerInfo: {name: "svc_ServerInfo", fields: []field{
		{1, "protocol", 0}, {2, "server_count", 0}, {3, "is_dedicated", 0}, {4, "is_hltv", 0},
		{6, "c_os", 0}, {10, "max_clients", 0}, {11, "max_classes", 0}, {12, "player_slot", 0},
		{13, "tick_interval", 0}, {14, "game_dir", 0}, {15, "map_name", 0}, {16, "sky_name", 0},
		{17, "host_name", 0}, {18, "addon_name", 0}, {19, "game_session_config", 0},
		{20, "game_session_manifest", 0},
	}},
	// svc_ClassInfo: the class's data table name (2) is in Dota's older
	// definitions only.
	ClassInfo: {name: "svc_ClassInfo", fields: []field{{1, "create_on_client", 0}, {2, "classes", 0}},
		kids: map[int]Msg{2: ClassInfoClass}},
	ClassInfoClass: {name: "svc_ClassInfo.class_t", fields: []field{
		{1, "class_id", 0}, {2, "data_table_name", only(game.Dota2)}, {3, "class_name", 0},
	}},
	// svc_CreateStringTable: using_varint_bitcounts (10) made the value
	// length a ubitvar; older builds lack it.
	CreateStringTable: {name: "svc_CreateStringTable", fields: []field{
		{1, "name", 0}, {2, "num_entries", 0}, {3, "user_data_fixed_size", 0}, {4, "user_data_size", 0},
		{5, "user_data_size_bits", 0}, {6, "flags", 0}, {7, "string_data", 0}, {8, "uncompressed_size", 0},
		{9, "data_compressed", 0}, {10, "using_varint_bitcounts", 0},
	}},
	UpdateStringTable: {name: "svc_UpdateStringTable", fields: []field{
		{1, "table_id", 0}, {2, "num_changed_entries", 0}, {3, "string_data", 0},
	}},
	// svc_ClearAllStringTables: Dota's definitions give a map checksum at
	// 2, the others a flag at 3.
	ClearAllStringTables: {name: "svc_ClearAllStringTables", fields: []field{
		{1, "mapname", 0}, {2, "map_crc", only(game.Dota2)}, {3, "create_tables_skipped", 0},
	}},
	// svc_PacketEntities: is_delta (3) was renamed legacy_is_delta when
	// has_pvs_vis_bits (16) came (two more bits per update header; the
	// newest definitions call it has_pvs_vis_bits_deprecated); the
	// command-queue fields (11, 15, 17, 19-22), the out-of-PVS updates
	// (23) and the padding (999) came later. 15 was command_queue_info
	// before it held alternate baselines.
	PacketEntities: {name: "svc_PacketEntities", fields: []field{
		{1, "max_entries", 0}, {2, "updated_entries", 0}, {3, "is_delta", 0}, {4, "update_baseline", 0},
		{5, "baseline", 0}, {6, "delta_from", 0}, {7, "entity_data", 0}, {8, "pending_full_frame", 0},
		{9, "active_spawngroup_handle", 0}, {10, "max_spawngroup_creationsequence", 0},
		{11, "last_cmd_number_executed", 0}, {12, "server_tick", 0}, {13, "serialized_entities", 0},
		{15, "alternate_baselines", 0}, {16, "has_pvs_vis_bits", 0}, {17, "last_cmd_number_recv_delta", 0},
		{19, "non_transmitted_entities", 0}, {20, "cq_starved_command_ticks", 0},
		{21, "cq_discarded_command_ticks", 0}, {22, "cmd_recv_status", 0}, {23, "outofpvs_entity_updates", 0},
		{999, "dev_padding", 0},
	}},
	// CSVCMsg_FlattenedSerializer, inside DEM_SendTables.
	FlattenedSerializer: {name: "CSVCMsg_FlattenedSerializer", fields: []field{
		{1, "serializers", 0}, {2, "symbols", 0}, {3, "fields", 0},
	}, kids: map[int]Msg{1: Serializer, 3: SerializerField}},
	Serializer: {name: "ProtoFlattenedSerializer_t", fields: []field{
		{1, "serializer_name_sym", 0}, {2, "serializer_version", 0}, {3, "fields_index", 0},
	}},
	// polymorphic_types (11) and var_serializer_sym (12) are in the newer
	// definitions.
	SerializerField: {name: "ProtoFlattenedSerializerField_t", fields: []field{
		{1, "var_type_sym", 0}, {2, "var_name_sym", 0}, {3, "bit_count", 0}, {4, "low_value", 0},
		{5, "high_value", 0}, {6, "encode_flags", 0}, {7, "field_serializer_name_sym", 0},
		{8, "field_serializer_version", 0}, {9, "send_node_sym", 0}, {10, "var_encoder_sym", 0},
		{11, "polymorphic_types", 0}, {12, "var_serializer_sym", 0},
	}, kids: map[int]Msg{11: PolymorphicField}},
	PolymorphicField: {name: "ProtoFlattenedSerializerField_t.polymorphic_field_t", fields: []field{
		{1, "polymorphic_field_serializer_name_sym", 0}, {2, "polymorphic_field_serializer_version", 0},
	}},
	// GE_Source1LegacyGameEventList (CMsgSource1LegacyGameEventList, 205):
	// the file's event list (engine/gameevents), the same in every game.
	GameEventList: {name: "GE_Source1LegacyGameEventList", fields: []field{{1, "descriptors", 0}},
		kids: map[int]Msg{1: GameEventListDescriptor}},
	GameEventListDescriptor: {name: "GE_Source1LegacyGameEventList.descriptor_t", fields: []field{
		{1, "eventid", 0}, {2, "name", 0}, {3, "keys", 0},
	}, kids: map[int]Msg{3: GameEventListKey}},
	GameEventListKey: {name: "GE_Source1LegacyGameEventList.key_t", fields: []field{{1, "type", 0}, {2, "name", 0}}},
	// GE_Source1LegacyGameEvent (CMsgSource1LegacyGameEvent, 207): a game
	// event. server_tick (4) and passthrough (5) are in CS2's and
	// Deadlock's definitions (the CS2 replays send server_tick); the Dota 2
	// definitions seen lack them, and the Dota 2 replay sends neither.
	GameEvent: {name: "GE_Source1LegacyGameEvent", fields: []field{
		{1, "event_name", 0}, {2, "eventid", 0}, {3, "keys", 0}, {4, "server_tick", only(game.CS2, game.Deadlock)}, {5, "passthrough", only(game.CS2, game.Deadlock)},
	}, kids: map[int]Msg{3: GameEventKey}},
	GameEventKey: {name: "GE_Source1LegacyGameEvent.key_t", fields: []field{
		{1, "type", 0}, {2, "val_string", 0}, {3, "val_float", 0}, {4, "val_long", 0}, {5, "val_short", 0},
		{6, "val_byte", 0}, {7, "val_bool", 0}, {8, "val_uint64", 0},
	}},
}

// numGames is one past the highest game.
const numGames = int(game.Deadlock) + 1

// known[g][m] has bit n set when field n (< 64) of m is known for game g;
// knownHigh holds the few numbers above.
var (
	known     [numGames][numMsgs]uint64
	knownHigh = map[[3]int]bool{}
)

func init() {
	for m := range tables {
		for _, f := range tables[m].fields {
			for g := 0; g < numGames; g++ {
				if f.games != 0 && f.games&(1<<g) == 0 {
					continue
				}
				if f.num < 64 {
					known[g][m] |= 1 << f.num
				} else {
					knownHigh[[3]int{g, m, f.num}] = true
				}
			}
		}
	}
}

// knownMask[g][m] is known[g][m], and for an unknown game the numbers
// below 64 any game knows.
var knownMask [numGames][numMsgs]uint64

func init() {
	knownMask = known
	for m := range knownMask[game.Unknown] {
		for g := 1; g < numGames; g++ {
			knownMask[game.Unknown][m] |= known[g][m]
		}
	}
}

// kidMask[m] marks the numbers below 64 of m's fields holding a message
// dembug goes into (tables' kids).
var kidMask [numMsgs]uint64

func init() {
	for m := range tables {
		for num := range tables[m].kids {
			if num >= 0 && num < 64 {
				kidMask[m] |= 1 << num
			}
		}
	}
}

// kids16[m][num] is tables[m].kids[num] for the numbers below 16 (every
// kid's), numMsgs for none: an array read where a map lookup cost more than
// the rest of a nested message's scan.
var kids16 [numMsgs][16]Msg

func init() {
	for m := range tables {
		for num := range kids16[m] {
			kids16[m][num] = numMsgs
			if k, ok := tables[m].kids[num]; ok {
				kids16[m][num] = k
			}
		}
	}
}

// kidOf is the nested message field num of m holds, where dembug reads it.
func kidOf(m Msg, num protowire.Number) (Msg, bool) {
	if num >= 0 && num < 16 {
		k := kids16[m][num]
		return k, k != numMsgs
	}
	k, ok := tables[m].kids[int(num)]
	return k, ok
}

// Known reports whether field num of message m is known for game g. Under
// an unknown game a number any game gives is known.
func Known(m Msg, g game.Game, num int) bool {
	if int(g) >= numGames {
		g = game.Unknown
	}
	if g == game.Unknown {
		for gg := 1; gg < numGames; gg++ {
			if knownFor(m, gg, num) {
				return true
			}
		}
	}
	return knownFor(m, int(g), num)
}

func knownFor(m Msg, g, num int) bool {
	if num >= 0 && num < 64 {
		return known[g][m]&(1<<num) != 0
	}
	return knownHigh[[3]int{g, int(m), num}]
}

// Name is the message's name.
func (m Msg) String() string {
	if m < numMsgs {
		return tables[m].name
	}
	return "?"
}

// FieldName is the name the definitions give field num of m, or "".
func FieldName(m Msg, num int) string {
	if m >= numMsgs {
		return ""
	}
	for _, f := range tables[m].fields {
		if f.num == num {
			return f.name
		}
	}
	return ""
}

// ByName finds a message by the name String gives (false when dembug does
// not read it).
func ByName(name string) (Msg, bool) {
	for m := range tables {
		if tables[m].name == name {
			return Msg(m), true
		}
	}
	return 0, false
}
