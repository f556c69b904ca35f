package cut

import (
	"cmp"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/stringtable"
	"github.com/dembug/dembug/engine/writer"
)

// compressAbove: rewritten bodies longer than this are snappy-compressed
// where that pays, as the recorders do.
const compressAbove = 512

func (c *cutter) command(f *writer.File, kind container.Kind, tick int32, body []byte) {
	f.Command(kind, tick, body, writer.ShouldCompress(body, compressAbove))
}

// writeStart writes the signon with the tables as they stand, the state
// packet (carried messages and the full frame), and checks that the frame
// decodes back to the original's entities.
func (c *cutter) writeStart() (f *writer.File, err error) {
	// The writer's encoders panic on values they were never meant to see;
	// a cut reports that as an error, never a stack trace.
	defer func() {
		if p := recover(); p != nil {
			f, err = nil, fail("the cut cannot write the state before tick %d: %v", c.opt.From, p)
		}
	}()
	r := c.r
	f = writer.NewFile()
	creates := c.creates()
	placed := false
	capture := container.IsCapture(c.data)
	if capture {
		c.command(f, container.FileHeader, -1, writer.FileHeaderBody(captureHeader(r)))
	}
	for _, s := range c.signon {
		if s.Kind == container.SpawnGroups && s.Raw == nil {
			c.captureSpawnGroups++ // a capture's are not protobuf
			continue
		}
		switch s.Kind {
		case container.SignonPacket:
			body, changed, err := rewriteSignon(s.Body, creates, &placed)
			if err != nil {
				return nil, err
			}
			if changed {
				c.command(f, s.Kind, s.Tick, body)
				continue
			}
		case container.SendTables, container.ClassInfo:
			latest := c.before.sendTables
			if s.Kind == container.ClassInfo {
				latest = c.before.classInfo
			}
			if latest != nil {
				c.put(f, latest, s.Tick)
				continue
			}
		case container.StringTables:
			c.command(f, s.Kind, s.Tick, snapshotBody(r.Strings.Tables, c.opt.Drop))
			continue
		case container.SyncTick:
			if !placed && len(creates) > 0 {
				c.command(f, container.SignonPacket, s.Tick, writer.PacketBody(writer.Packet(creates...)))
				placed = true
			}
		}
		c.put(f, &s, s.Tick)
	}
	if capture { // a capture has no DEM_SyncTick: the .dem that starts its game has one
		if !placed && len(creates) > 0 {
			c.command(f, container.SignonPacket, -1, writer.PacketBody(writer.Packet(creates...)))
		}
		f.Command(container.SyncTick, -1, nil, false)
	}
	c.res.Tables = len(r.Strings.Tables)
	if c.res.StateTick < 0 {
		return f, nil // the window starts with the game: no state to carry
	}
	for i := range c.before.commands {
		c.put(f, &c.before.commands[i], c.res.StateTick)
	}
	if err := c.stateFrame(f); err != nil {
		return nil, err
	}
	c.res.Carried, c.res.Notes = c.before.notes(c.opt.From)
	c.res.Past = c.before.pastText()
	return f, c.checkStart(f)
}

// captureHeader is the DEM_FileHeader a capture does not have, from what
// its svc_ServerInfo says: the game directory (by which readers know the
// game) and the map.
func captureHeader(r *replay.Replay) messages.FileHeader {
	return messages.FileHeader{DemoFileStamp: container.Magic, MapName: r.Server.MapName, GameDirectory: r.Server.GameDir,
		ServerName: "broadcast capture", DemoVersionName: "cut by dembug from a broadcast capture"}
}

// creates are svc_CreateStringTable messages for every table as it stands
// before the window, in table order (their ids).
func (c *cutter) creates() []writer.Inner {
	var out []writer.Inner
	for ti, t := range c.r.Strings.Tables {
		if t == nil {
			continue
		}
		entries := c.keepEntries(ti, t)
		cm := writer.CreateStringTable(t, entries, false)
		if writer.ShouldCompress(cm.StringData, compressAbove) {
			cm = writer.CreateStringTable(t, entries, true)
		}
		out = append(out, writer.Inner{Type: messages.SvcCreateStringTable, Body: writer.CreateStringTableBody(cm)})
	}
	return out
}

// sortedEntries are a table's written entries in index order (Each gives
// the far ones in no order).
func sortedEntries(t *stringtable.Table) []stringtable.Entry {
	var entries []stringtable.Entry
	t.Each(func(e stringtable.Entry) { entries = append(entries, e) })
	slices.SortFunc(entries, func(a, b stringtable.Entry) int { return cmp.Compare(a.Index, b.Index) })
	return entries
}

// rewriteSignon replaces a signon packet's string-table creates with
// creates (all of them where the first create was, none elsewhere),
// keeping every other message and every other field of the CDemoPacket.
func rewriteSignon(body []byte, creates []writer.Inner, placed *bool) ([]byte, bool, error) {
	data, err := messages.PacketData(body)
	if err != nil {
		return nil, false, err
	}
	inner, _, err := messages.SplitInner(data, nil, nil)
	if err != nil {
		return nil, false, err
	}
	changed := false
	var out []writer.Inner
	for _, m := range inner {
		if m.Type != messages.SvcCreateStringTable {
			out = append(out, writer.Inner{Type: m.Type, Body: m.Body})
			continue
		}
		changed = true
		if !*placed {
			out = append(out, creates...)
			*placed = true
		}
	}
	if !changed {
		return nil, false, nil
	}
	return replaceBytes(body, 3, writer.Packet(out...)), true, nil
}

// snapshotBody is DEM_StringTables for the tables as they stand. A
// snapshot's item i is entry i, so a table with unwritten slots below its
// last entry cannot be spelled there: it is left out (a snapshot sets only
// the tables it names, and the creates hold it already).
func snapshotBody(tables []*stringtable.Table, d *Drop) []byte {
	var snap []messages.SnapshotTable
	for ti, t := range tables {
		if t == nil {
			continue
		}
		st := messages.SnapshotTable{Name: t.Name, Flags: t.Flags}
		dense := true
		next := int32(0)
		for _, e := range d.entries(ti, sortedEntries(t)) {
			if e.Index != next {
				dense = false
				break
			}
			next++
			st.Items = append(st.Items, messages.SnapshotItem{Key: e.Key, Data: e.Value})
		}
		if dense {
			snap = append(snap, st)
		}
	}
	return writer.StringTablesBody(snap)
}

// replaceBytes is a protobuf message with bytes field num set to v: the
// other fields kept in order, the old num fields dropped, v last.
func replaceBytes(msg []byte, num protowire.Number, v []byte) []byte {
	out := make([]byte, 0, len(msg)+len(v)+8)
	for b := msg; len(b) > 0; {
		n, _, l := protowire.ConsumeField(b)
		if l < 0 {
			break // the reader parsed this message: only trailing junk here
		}
		if n != num {
			out = append(out, b[:l]...)
		}
		b = b[l:]
	}
	out = protowire.AppendTag(out, num, protowire.BytesType)
	return protowire.AppendBytes(out, v)
}

// stateFrame writes the packet at the state tick: net_Tick, the carried
// messages and a full frame creating every entity; then, for entities out
// of view, a packet that makes them leave.
func (c *cutter) stateFrame(f *writer.File) error {
	r := c.r
	netTick := c.netTick
	if netTick == nil {
		netTick = writer.NetTickBody(r.NetTick)
	}
	msgs := []writer.Inner{{Type: messages.NetTick, Body: netTick}}
	for _, m := range c.before.messages {
		msgs = append(msgs, writer.Inner{Type: m.Type, Body: m.Body})
	}
	if !c.peSeen {
		c.packet(f, msgs...)
		return nil
	}
	full, leaves, err := c.fullFrame()
	if err != nil {
		return err
	}
	c.packet(f, append(msgs, writer.Inner{Type: messages.SvcPacketEntities, Body: writer.PacketEntitiesBody(full)})...)
	if leaves != nil {
		c.packet(f, writer.Inner{Type: messages.NetTick, Body: netTick},
			writer.Inner{Type: messages.SvcPacketEntities, Body: writer.PacketEntitiesBody(*leaves)})
	}
	return nil
}

// packet writes a DEM_Packet of msgs at the state tick.
func (c *cutter) packet(f *writer.File, msgs ...writer.Inner) {
	c.command(f, container.Packet, c.res.StateTick, writer.PacketBody(writer.Packet(msgs...)))
	c.packets++
}

// fullFrame is the full frame creating every entity of the original as it
// stands, and the delta making the ones out of view leave (nil for none).
func (c *cutter) fullFrame() (full messages.PacketEntities, leaves *messages.PacketEntities, err error) {
	r := c.r
	var classes []messages.Class
	for _, cl := range r.Classes() {
		if int(cl.ID) < len(r.Entities.Classes) && r.Entities.Classes[cl.ID] != nil && r.Entities.Classes[cl.ID].Serializer != nil {
			classes = append(classes, cl)
		}
	}
	w, err := writer.NewEntities(r.Schema, classes, r.Server.MaxClasses)
	if err != nil {
		return full, nil, fail("the full frame: %v", err)
	}
	if w.ClassBits != r.Entities.ClassIDBits {
		return full, nil, fail("the full frame: class ids take %d bits in the file, %d from max_classes %d", r.Entities.ClassIDBits, w.ClassBits, r.Server.MaxClasses)
	}
	fr := w.NewFrame(false)
	bases := map[int32]writer.Changes{}
	var out []int32
	for _, e := range r.Entities.Entities {
		if e == nil || e.Class == nil || c.opt.Drop.entity(e.Index) {
			continue
		}
		if err := create(r, w, fr, e, bases, c); err != nil {
			return full, nil, err
		}
		c.res.Entities++
		if !e.Active {
			out = append(out, e.Index)
		}
	}
	if full, err = fr.Message(r.NetTick, -1); err != nil {
		return full, nil, err
	}
	if c.maxEnts > 0 {
		full.MaxEntries = c.maxEnts
	}
	if len(out) == 0 {
		return full, nil, nil
	}
	lf := w.NewFrame(true)
	for _, idx := range out {
		if err := lf.Leave(idx); err != nil {
			return full, nil, err
		}
	}
	lpe, err := lf.Message(r.NetTick, int32(r.NetTick))
	return full, &lpe, err
}

// create writes one entity's create: the fields where its state differs
// from its class baseline.
func create(r *replay.Replay, w *writer.Entities, fr *writer.Frame, e *entity.Entity, bases map[int32]writer.Changes, c *cutter) error {
	ser := e.Class.Serializer
	base, ok := bases[e.Class.ID]
	if !ok {
		node, err := r.Entities.BaselineState(e.Class.ID)
		if err != nil {
			return fail("entity %d (%s): %v", e.Index, e.Class.Name, err)
		}
		base = writer.StateChanges(ser, node)
		bases[e.Class.ID] = base
		w.UseBaseline(e.Class.ID, base)
	}
	w.SpawnGroup = e.SpawnGroup
	ch := writer.Unlike(writer.StateChanges(ser, e.State), base)
	c.frameEntity(e, len(ch))
	if err := fr.Create(e.Index, e.Class.ID, e.Serial, c.opt.Drop.keepFields(e.Index, ch)); err != nil {
		return fail("the full frame cannot hold entity %d (%s): %v", e.Index, e.Class.Name, err)
	}
	return nil
}

// finish writes DEM_Stop, the original's DEM_SpawnGroups and its
// DEM_FileInfo with the cut's playback figures.
func (c *cutter) finish(f *writer.File) {
	last := c.res.Last
	f.Command(container.Stop, last, nil, false)
	spawn, info := c.endCommands()
	if spawn != nil {
		f.Raw(container.SpawnGroups, last, spawn.Compressed, spawn.Raw)
	} else {
		f.Command(container.SpawnGroups, last, nil, false)
	}
	var body []byte
	if info != nil {
		body = info.Body
	}
	fi := messages.FileInfo{PlaybackTime: float32(last) * c.r.Server.TickInterval, PlaybackTicks: last, PlaybackFrames: c.packets}
	c.command(f, container.FileInfo, last, fileInfoBody(body, fi))
}

// endCommands finds the original's DEM_SpawnGroups and DEM_FileInfo where
// its header says they are; nil for one that is not there.
func (c *cutter) endCommands() (spawn, info *stored) {
	cr, err := container.NewReader(c.data)
	if err != nil {
		return nil, nil
	}
	at := func(off int32, kind container.Kind) *stored {
		if off <= 0 || int(off) >= len(c.data) {
			return nil
		}
		cr.Seek(int(off), 0)
		cmd, err := cr.Next()
		if err != nil || cmd.Kind != kind {
			return nil
		}
		return &stored{Kind: kind, Compressed: cmd.Compressed, Raw: c.data[cmd.BodyOffset:cmd.End()], Body: slices.Clone(cmd.Body)}
	}
	return at(cr.Header.SpawnGroupsOffset, container.SpawnGroups), at(cr.Header.FileInfoOffset, container.FileInfo)
}

// fileInfoBody is the original's CDemoFileInfo (its game info kept) with
// the playback time, ticks and frames of the cut.
func fileInfoBody(orig []byte, fi messages.FileInfo) []byte {
	out := writer.FileInfoBody(fi)
	for b := orig; len(b) > 0; {
		n, _, l := protowire.ConsumeField(b)
		if l < 0 {
			break
		}
		if n > 3 {
			out = append(out, b[:l]...)
		}
		b = b[l:]
	}
	return out
}
