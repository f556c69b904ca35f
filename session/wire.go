package session

import (
	"fmt"
	"math/bits"
	"regexp"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/wiretree"
)

// Body returns the protobuf body of the command at c (decompressed) or,
// with msg >= 0, of its inner message msg.
func (f *File) Body(c *Command, msg int) ([]byte, error) { return bodyOf(f.data, c, msg) }

// bodyOf is File.Body over data.
func bodyOf(data []byte, c *Command, msg int) ([]byte, error) {
	r, err := container.NewReader(data)
	if err != nil {
		return nil, err
	}
	r.Seek(c.Offset, c.Index)
	cmd, err := r.Next()
	if err != nil {
		return nil, err
	}
	body := append([]byte(nil), cmd.Body...)
	if msg < 0 {
		return body, nil
	}
	packet := body
	if cmd.Kind == container.FullPacket {
		fp, err := messages.ParseFullPacket(body)
		if err != nil {
			return nil, err
		}
		packet = fp.Packet
	}
	pd := packet // a broadcast's packets are not wrapped
	if !cmd.Broadcast || cmd.Kind == container.FullPacket {
		if pd, err = messages.PacketData(packet); err != nil {
			return nil, err
		}
	}
	inner, _, err := messages.SplitInner(pd, nil, nil)
	for _, m := range inner {
		if m.Index == msg {
			return append([]byte(nil), m.Body...), nil
		}
	}
	if err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("command #%d has no inner message #%d", c.Index, msg)
}

// WireRow is one protobuf field of a message body, for the generic wire
// tree: its depth below the top level, number, name where dembug models
// the message, wire type, byte offset and length (tag included) within the
// body, and value.
type WireRow struct {
	Depth  int
	Field  int
	Name   string
	Type   string
	Offset int
	Len    int
	Value  string
}

// WireRows parses a body as protobuf wire data (wiretree.Parse) and names
// the fields of the messages dembug models; what it does not model keeps
// its number only. The rows are in file order, nested fields after their
// parent. A malformed body gives the rows before the fault and the error.
func WireRows(message string, body []byte) ([]WireRow, error) {
	nodes, err := wiretree.Parse(body)
	var out []WireRow
	var walk func(nodes []wiretree.Node, names wireNames, depth int)
	walk = func(nodes []wiretree.Node, names wireNames, depth int) {
		for _, n := range nodes {
			nm := names[int(n.Field)]
			if depth == 0 && nm.name == "" {
				nm.name = novelField(message, int(n.Field))
			}
			row := WireRow{Depth: depth, Field: int(n.Field), Name: nm.name, Type: wiretree.TypeName(n.Type), Offset: n.Offset, Len: n.Len}
			if n.Children != nil && (nm.kids != nil || nm.name == "") {
				row.Value = fmt.Sprintf("{%d fields}", len(n.Children))
				out = append(out, row)
				walk(n.Children, nm.kids, depth+1)
				continue
			}
			row.Value = n.ValueString()
			if nm.show != nil {
				row.Value = nm.show(n)
			}
			out = append(out, row)
		}
	}
	walk(nodes, wireMessages[message], 0)
	return out, err
}

// wireName is a modelled field: its name, how to show its value (nil:
// wiretree's generic rendering) and, for a nested message, its fields.
type wireName struct {
	name string
	show func(wiretree.Node) string
	kids wireNames
}

type wireNames map[int]wireName

func asInt32(n wiretree.Node) string { return fmt.Sprint(wiretree.Int32(n.Varint)) }
func asBool(n wiretree.Node) string  { return fmt.Sprint(wiretree.Bool(n.Varint)) }

// asUint32 shows a modelled uint32 as the number alone (the generic form
// adds a zigzag reading to odd values).
func asUint32(n wiretree.Node) string { return fmt.Sprint(uint32(n.Varint)) }
func asFloat(n wiretree.Node) string  { return fmt.Sprint(wiretree.Float32(n.Varint)) }
func asBytes(n wiretree.Node) string  { return fmt.Sprintf("%d bytes", len(n.Bytes)) }

func bitPacked(what string) func(wiretree.Node) string {
	return func(n wiretree.Node) string { return fmt.Sprintf("%d bytes: %s, bit-packed", len(n.Bytes), what) }
}

func innerMessages(n wiretree.Node) string {
	return fmt.Sprintf("%d bytes: the inner messages (ubitvar type, varint size, body), bit-packed", len(n.Bytes))
}

func maxClasses(n wiretree.Node) string {
	c := wiretree.Int32(n.Varint)
	return fmt.Sprintf("%d (class ids take floor(log2 %d) + 1 = %d bits)", c, c, bits.Len32(uint32(max(c, 1))))
}

// gameDir shows a game directory with the game its last element names
// and, where a SourceTV path carries one (…/dota_vNNNN/…), the build.
func gameDir(n wiretree.Node) string {
	dir := string(n.Bytes)
	s := fmt.Sprintf("%q (game %s, from the last element", dir, game.Detect(dir))
	if m := buildInDir.FindStringSubmatch(dir); m != nil {
		s += "; build " + m[1] + ", from dota_v" + m[1]
	}
	return s + ")"
}

var buildInDir = regexp.MustCompile(`/dota_v(\d+)/`)

func tickInterval(n wiretree.Node) string {
	f := wiretree.Float32(n.Varint)
	if f > 0 {
		return fmt.Sprintf("%v s (%.4g ticks a second)", f, 1/f)
	}
	return fmt.Sprint(f)
}

// wireMessages names the fields of the messages dembug reads, by the name
// the timeline shows (msgnames.Display, container.Kind's String).
var wireMessages = map[string]wireNames{
	"DEM_FileHeader": {
		1: {name: "demo_file_stamp"}, 2: {name: "network_protocol", show: asInt32}, 3: {name: "server_name"},
		4: {name: "client_name"}, 5: {name: "map_name"}, 6: {name: "game_directory", show: gameDir},
		7: {name: "fullpackets_version", show: asInt32}, 8: {name: "allow_clientside_entities", show: asBool},
		9: {name: "allow_clientside_particles", show: asBool}, 10: {name: "addons"},
		11: {name: "demo_version_name"}, 12: {name: "demo_version_guid"}, 13: {name: "build_num", show: asInt32},
		14: {name: "game"}, 15: {name: "server_start_tick", show: asInt32},
	},
	"DEM_FileInfo": {
		1: {name: "playback_time", show: func(n wiretree.Node) string { return asFloat(n) + " s" }},
		2: {name: "playback_ticks", show: func(n wiretree.Node) string { return asInt32(n) + " (the last tick)" }},
		3: {name: "playback_frames", show: asInt32}, 4: {name: "game_info"},
	},
	"DEM_SendTables": {1: {name: "data", show: func(n wiretree.Node) string {
		return fmt.Sprintf("%d bytes: a varint size, then CSVCMsg_FlattenedSerializer", len(n.Bytes))
	}}},
	"DEM_ClassInfo": {1: {name: "classes", kids: wireNames{
		1: {name: "class_id", show: asInt32}, 2: {name: "network_name"}, 3: {name: "table_name"},
	}}},
	"DEM_Packet":       {3: {name: "data", show: innerMessages}},
	"DEM_SignonPacket": {3: {name: "data", show: innerMessages}},
	"DEM_StringTables": {1: {name: "tables", kids: wireNames{
		1: {name: "table_name"},
		2: {name: "items", kids: wireNames{1: {name: "str"}, 2: {name: "data", show: asBytes}}},
		3: {name: "items_clientside"}, 4: {name: "table_flags", show: asInt32},
	}}},
	"net_Tick": {
		1: {name: "tick", show: asUint32}, 4: {name: "host_frametime_std_deviation", show: asUint32},
		5: {name: "host_computationtime_std_deviation", show: asUint32},
		6: {name: "host_framestarttime_std_deviation", show: asUint32}, 7: {name: "host_loss", show: asUint32},
		8: {name: "host_unfiltered_frametime", show: asUint32},
	},
	"svc_ServerInfo": {
		1: {name: "protocol", show: asInt32}, 2: {name: "server_count", show: asInt32}, 3: {name: "is_dedicated", show: asBool},
		4: {name: "is_hltv", show: asBool}, 6: {name: "c_os", show: asInt32}, 10: {name: "max_clients", show: asInt32},
		11: {name: "max_classes", show: maxClasses}, 12: {name: "player_slot", show: asInt32},
		13: {name: "tick_interval", show: tickInterval}, 14: {name: "game_dir", show: gameDir}, 15: {name: "map_name"},
		16: {name: "sky_name"}, 17: {name: "host_name"}, 18: {name: "addon_name"},
	},
	"svc_ClearAllStringTables": {1: {name: "mapname"}, 2: {name: "create_tables_skipped", show: asBool}},
	"svc_CreateStringTable": {
		1: {name: "name"}, 2: {name: "num_entries", show: asInt32}, 3: {name: "user_data_fixed_size", show: asBool},
		4: {name: "user_data_size", show: asInt32}, 5: {name: "user_data_size_bits", show: asInt32},
		6: {name: "flags", show: asInt32}, 7: {name: "string_data", show: bitPacked("the entries")},
		8: {name: "uncompressed_size", show: asInt32}, 9: {name: "data_compressed", show: asBool},
		10: {name: "using_varint_bitcounts", show: asBool},
	},
	"svc_UpdateStringTable": {
		1: {name: "table_id", show: func(n wiretree.Node) string { return asInt32(n) + " (tables count in creation order)" }},
		2: {name: "num_changed_entries", show: asInt32}, 3: {name: "string_data", show: bitPacked("the changed entries")},
	},
	"svc_PacketEntities": {
		1: {name: "max_entries", show: asInt32}, 2: {name: "updated_entries", show: asInt32},
		3: {name: "is_delta", show: asBool}, 4: {name: "update_baseline", show: asBool}, 5: {name: "baseline", show: asInt32},
		6: {name: "delta_from", show: asInt32}, 7: {name: "entity_data", show: bitPacked("the entity updates")},
		8: {name: "pending_full_frame", show: asBool}, 9: {name: "active_spawngroup_handle", show: asUint32},
		10: {name: "max_spawngroup_creationsequence", show: asUint32}, 11: {name: "last_cmd_number", show: asUint32},
		12: {name: "server_tick", show: asUint32},
		13: {name: "serialized_entities", show: asBytes}, 15: {name: "command_queue_info"},
		16: {name: "has_pvs_vis_bits", show: asInt32},
	},
}
