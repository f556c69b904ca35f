package writer

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/stringtable"
)

// Demo writes a whole demo in the order Valve's recorders use:
//
//	DEM_FileHeader
//	DEM_SignonPacket   net_Tick, svc_ClearAllStringTables
//	DEM_SignonPacket   svc_CreateStringTable for each table (instancebaseline first)
//	DEM_SignonPacket   svc_ServerInfo (max_classes, tick interval)
//	DEM_SendTables     the flattened serializer
//	DEM_ClassInfo
//	DEM_StringTables   a snapshot of the tables
//	DEM_SyncTick
//	DEM_Packet …       one per tick: net_Tick, other messages, svc_PacketEntities
//	DEM_Stop
//	DEM_SpawnGroups    (empty)
//	DEM_FileInfo       what the header's first offset points at
//
// The first packet's entities are a full frame, later ones deltas.
type Demo struct {
	File     *File
	Header   messages.FileHeader
	Server   messages.ServerInfo
	Game     game.Game
	Schema   *schema.Schema
	Classes  []messages.Class
	Entities *Entities

	// CompressAbove: bodies longer than this many bytes are snappy
	// compressed where that saves a tenth (ShouldCompress); -1 never.
	CompressAbove int
	// TickBase is the server tick of demo tick 0, carried by net_Tick and
	// svc_PacketEntities (recordings start mid-game).
	TickBase uint32

	flattened []byte
	baselines map[int32][]byte
	tables    []*demoTable
	signedOn  bool
	fullSent  bool
	lastTick  int32
	packets   int32
	finished  bool
}

type demoTable struct {
	t        *stringtable.Table
	live     *stringtable.Table  // the table as the file has it so far
	entries  []stringtable.Entry // as created
	index    map[int32]int       // entry index → position in entries
	compress bool
}

// NewDemo parses the serializers as the engine will (schema.ParseWithTick,
// with the game from the header's game directory and the server's tick
// interval) and links the classes to them.
func NewDemo(h messages.FileHeader, server messages.ServerInfo, sers []SerializerSpec, classes []messages.Class) (*Demo, error) {
	d := &Demo{
		File: NewFile(), Header: h, Server: server, Game: game.Detect(h.GameDirectory),
		Classes: classes, CompressAbove: 512, baselines: map[int32][]byte{}, lastTick: -1,
	}
	d.flattened = FlattenedSerializer(sers)
	s, err := schema.ParseWithTick(d.flattened, d.Game, schema.Aliases{}, server.TickInterval)
	if err != nil {
		return nil, fmt.Errorf("writer: the serializers do not parse: %w", err)
	}
	d.Schema = s
	if d.Entities, err = NewEntities(s, classes, server.MaxClasses); err != nil {
		return nil, err
	}
	return d, nil
}

// Class returns the id of the class with a network name, or -1.
func (d *Demo) Class(name string) int32 {
	for _, c := range d.Classes {
		if c.NetworkName == name {
			return c.ID
		}
	}
	return -1
}

// Serializer returns the serializer of the class with a network name.
func (d *Demo) Serializer(class string) *schema.Serializer { return d.Schema.Serializer(class) }

// SetBaseline sets a class's instance baseline (before Signon).
func (d *Demo) SetBaseline(class int32, ch Changes) error {
	if d.signedOn {
		return errorf("baselines must be set before Signon")
	}
	data, err := d.Entities.SetBaseline(class, ch)
	if err != nil {
		return err
	}
	d.baselines[class] = data
	return nil
}

// AddStringTable adds a table to create at signon, after instancebaseline
// (which is table 0). Its id for UpdateStringTable is the returned number.
func (d *Demo) AddStringTable(t *stringtable.Table, entries []stringtable.Entry, compress bool) (int32, error) {
	if d.signedOn {
		return 0, errorf("string tables must be added before Signon")
	}
	dt := &demoTable{t: t, entries: entries, index: map[int32]int{}, compress: compress}
	for i, e := range entries {
		dt.index[e.Index] = i
	}
	d.tables = append(d.tables, dt)
	return int32(len(d.tables)), nil
}

// UpdateStringTable returns an svc_UpdateStringTable message for a table
// added with AddStringTable, to pass to Packet; the snapshot is not
// affected. The entries are written against the table as the messages so
// far leave it (after Signon): increments or jumps, keys from the history
// of every entry's key, an empty Key keeping the entry's key and a nil
// Value clearing its value (stringtable.Encode); Table shows the result.
func (d *Demo) UpdateStringTable(id int32, entries []stringtable.Entry) (Inner, error) {
	if id < 1 || int(id) > len(d.tables) {
		return Inner{}, errorf("no string table %d", id)
	}
	dt := d.tables[id-1]
	if dt.live == nil {
		return Inner{}, errorf("string table updates must come after Signon")
	}
	u := UpdateStringTable(id, dt.live, entries)
	if _, err := dt.live.Apply(u.StringData, len(entries)); err != nil {
		return Inner{}, errorf("string table %s: the update does not read back: %v", dt.t.Name, err)
	}
	return Inner{Type: messages.SvcUpdateStringTable, Body: UpdateStringTableBody(u)}, nil
}

// Table returns string table id (0 is instancebaseline) as the messages
// written so far leave it, or nil before Signon.
func (d *Demo) Table(id int32) *stringtable.Table {
	if id < 1 || int(id) > len(d.tables) {
		return nil
	}
	return d.tables[id-1].live
}

func (d *Demo) command(kind container.Kind, tick int32, body []byte) {
	d.File.Command(kind, tick, body, ShouldCompress(body, d.CompressAbove))
}

// Signon writes everything before the first tick.
func (d *Demo) Signon() error {
	if d.signedOn {
		return errorf("Signon called twice")
	}
	d.signedOn = true
	d.command(container.FileHeader, -1, FileHeaderBody(d.Header))
	d.command(container.SignonPacket, -1, PacketBody(Packet(
		Inner{messages.NetTick, NetTickBody(d.TickBase)},
		Inner{messages.SvcClearAllStringTables, ClearAllStringTablesBody(d.Header.MapName)},
	)))
	base := &demoTable{t: &stringtable.Table{Name: "instancebaseline", VarintBitCounts: true}, index: map[int32]int{}}
	classes := make([]int32, 0, len(d.baselines))
	for c := range d.baselines {
		classes = append(classes, c)
	}
	slices.Sort(classes)
	for i, c := range classes {
		base.entries = append(base.entries, stringtable.Entry{Index: int32(i), Key: strconv.Itoa(int(c)), Value: d.baselines[c]})
	}
	tables := append([]*demoTable{base}, d.tables...)
	var creates []Inner
	var snapshot []messages.SnapshotTable
	for _, dt := range tables {
		c := CreateStringTable(dt.t, dt.entries, dt.compress)
		creates = append(creates, Inner{messages.SvcCreateStringTable, CreateStringTableBody(c)})
		live := stringtable.Table{Name: dt.t.Name, UserDataFixed: dt.t.UserDataFixed, UserDataSize: dt.t.UserDataSize,
			UserDataSizeBits: dt.t.UserDataSizeBits, Flags: dt.t.Flags, VarintBitCounts: dt.t.VarintBitCounts}
		if _, err := live.Apply(stringtable.Encode(dt.entries, dt.t), len(dt.entries)); err != nil {
			return errorf("string table %s: the create does not read back: %v", dt.t.Name, err)
		}
		dt.live = &live
		st := messages.SnapshotTable{Name: dt.t.Name, Flags: dt.t.Flags}
		items := slices.Clone(dt.entries)
		slices.SortFunc(items, func(a, b stringtable.Entry) int { return cmp.Compare(a.Index, b.Index) })
		for _, e := range items {
			st.Items = append(st.Items, messages.SnapshotItem{Key: e.Key, Data: e.Value})
		}
		snapshot = append(snapshot, st)
	}
	d.command(container.SignonPacket, -1, PacketBody(Packet(creates...)))
	d.command(container.SignonPacket, -1, PacketBody(Packet(Inner{messages.SvcServerInfo, ServerInfoBody(d.Server)})))
	d.command(container.SendTables, -1, SendTablesBody(d.flattened))
	d.command(container.ClassInfo, -1, ClassInfoBody(d.Classes))
	d.command(container.StringTables, -1, StringTablesBody(snapshot))
	d.command(container.SyncTick, -1, nil)
	return nil
}

// Frame starts the entities of the next packet: a full frame until one has
// been written, deltas after.
func (d *Demo) Frame() *Frame { return d.Entities.NewFrame(d.fullSent) }

// Packet writes a DEM_Packet at tick: net_Tick, the extra messages, then
// svc_PacketEntities from fr (none if fr is nil). Ticks must increase.
func (d *Demo) Packet(tick int32, fr *Frame, extra ...Inner) error {
	if !d.signedOn || d.finished {
		return errorf("packets go between Signon and Finish")
	}
	if tick <= d.lastTick {
		return errorf("tick %d after tick %d", tick, d.lastTick)
	}
	msgs := []Inner{{messages.NetTick, NetTickBody(d.TickBase + uint32(tick))}}
	msgs = append(msgs, extra...)
	if fr != nil {
		deltaFrom := d.lastTick
		if !fr.delta {
			deltaFrom = -1
		}
		if fr.delta {
			deltaFrom += int32(d.TickBase)
		}
		pe, err := fr.Message(d.TickBase+uint32(tick), deltaFrom)
		if err != nil {
			return err
		}
		d.fullSent = true
		msgs = append(msgs, Inner{messages.SvcPacketEntities, PacketEntitiesBody(pe)})
	}
	d.command(container.Packet, tick, PacketBody(Packet(msgs...)))
	d.lastTick = tick
	d.packets++
	return nil
}

// Finish writes DEM_Stop, DEM_SpawnGroups and DEM_FileInfo and returns the
// file.
func (d *Demo) Finish() []byte {
	if !d.finished {
		d.finished = true
		tick := max(d.lastTick, 0)
		d.command(container.Stop, tick, nil)
		d.command(container.SpawnGroups, tick, nil)
		d.command(container.FileInfo, tick, FileInfoBody(messages.FileInfo{
			PlaybackTime: float32(tick) * d.Server.TickInterval, PlaybackTicks: tick, PlaybackFrames: d.packets,
		}))
	}
	return d.File.Bytes()
}
