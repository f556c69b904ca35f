// Package hostile builds crafted demo files, with the project's writer,
// whose every byte asks the engine for as much memory or time as it can:
// wide classes created over and over, high array indexes, sparse string
// tables, floods of tiny messages and commands. Tests hold the engine and the
// debugger to a budget proportional to the file's size on each.
package hostile

import (
	"fmt"
	"strconv"

	"github.com/golang/snappy"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/stringtable"
	"github.com/dembug/dembug/engine/writer"
)

// Shape is one crafted file.
type Shape struct {
	Name string
	What string
	// Build returns the file's bytes.
	Build func() ([]byte, error)
}

// Shapes lists every crafted file.
func Shapes() []Shape {
	return []Shape{
		{"wide-creates", "a class of 65,536 fields whose baseline sets the last, created 16,384 times", func() ([]byte, error) { return WideCreates(65536, 16384, false, -1) }},
		{"wide-creates-set", "the same, each create setting field 255 (the last kept in place), 4 times over", func() ([]byte, error) { return WideCreates(65536, 4*16384, false, 255) }},
		{"wide-kids", "a class of 30,000 nested tables whose baseline sets the last, created 16,384 times", func() ([]byte, error) { return WideCreates(30000, 16384, true, -1) }},
		{"array-index", "element 16,383 of 2,000 variable arrays in each of 50 entities", func() ([]byte, error) { return ArrayIndex(2000, 50, 16383) }},
		{"table-index", "element 16,383 of 500 variable tables of 8 fields in each of 50 entities", func() ([]byte, error) { return TableIndex(500, 50, 16383) }},
		{"stringtable-index", "200 string tables with one entry at index 2^20-2", func() ([]byte, error) { return StringTableIndex(200, 1<<20-2) }},
		{"stringtable-updates", "one string table updated 20,000 times at index 2^20-2", func() ([]byte, error) { return StringTableUpdates(20000, 1<<20-2) }},
		{"inner-flood", "40 million empty inner messages in one snappy packet", func() ([]byte, error) { return InnerFlood(40_000_000) }},
		{"classinfo-ids", "20,000 ClassInfo commands with class id 2^20 after max_classes 2^20+1", func() ([]byte, error) { return ClassInfoIDs(20000, 1<<20) }},
		{"tiny-commands", "3 million empty DEM_Packet commands", func() ([]byte, error) { return TinyCommands(3_000_000) }},
		{"broken-size", "a command whose size varint never ends", func() ([]byte, error) { return BrokenSize() }},
		{"updated-entries", "packet-entities messages claiming -1 and 2^32+3 updates", func() ([]byte, error) { return UpdatedEntries() }},
		{"snappy-bomb", "packets whose snappy bodies expand 21 times to 60 MiB, again and again", func() ([]byte, error) { return SnappyBomb(2) }},
		{"schema-cycle", "a serializer that points to itself, and a create of it", func() ([]byte, error) { return SchemaChain(0, true) }},
		{"schema-deep", "serializers nested 5,000 deep", func() ([]byte, error) { return SchemaChain(5000, false) }},
		{"schema-16", "serializers nested 16 deep, and a create of the outermost reading garbage paths", func() ([]byte, error) { return SchemaChain(16, false) }},
		{"wide-misaligned", "wide-creates-set, then a message of garbage updates: check's diagnosis runs on the whole state", func() ([]byte, error) { return Misaligned(WideCreates(65536, 16384, false, 255)) }},
		{"array-misaligned", "array-index, then a message of garbage updates", func() ([]byte, error) { return Misaligned(ArrayIndex(2000, 50, 16383)) }},
		{"baseline-flood", "64 classes of 4,096 fields, each baseline setting the last, all created", func() ([]byte, error) { return BaselineFlood(64, 4096) }},
	}
}

var header = messages.FileHeader{
	DemoFileStamp: container.Magic, NetworkProtocol: 47, ServerName: "hostile", ClientName: "SourceTV Demo",
	MapName: "dota", GameDirectory: "/opt/dota 2 beta/game/dota", FullpacketsVersion: 2,
	DemoVersionName: "valve_demo_2", BuildNum: 10000,
}

func newDemo(sers []writer.SerializerSpec, classes []messages.Class) (*writer.Demo, error) {
	server := messages.ServerInfo{MaxClasses: int32(len(classes)), MaxClients: 64, TickInterval: 1.0 / 30, GameDir: "dota", MapName: "dota"}
	d, err := writer.NewDemo(header, server, sers, classes)
	if err != nil {
		return nil, err
	}
	d.CompressAbove = 512
	return d, nil
}

func path(idx ...int32) fieldpath.Path {
	var p fieldpath.Path
	copy(p.Idx[:], idx)
	p.Last = len(idx) - 1
	return p
}

// WideCreates: a class of width fields (bools, or with kids nested tables
// of one bool each) whose baseline sets the last; creates entities, with
// field set set (none when negative), over and over.
func WideCreates(width, creates int, kids bool, set int32) ([]byte, error) {
	sers := []writer.SerializerSpec{{Name: "CInner", Fields: []writer.FieldSpec{writer.Field("m_b", "bool")}}}
	wide := writer.SerializerSpec{Name: "CWide"}
	for i := range width {
		f := writer.Field(strconv.FormatInt(int64(i), 36), "bool")
		if kids {
			f = writer.Field(strconv.FormatInt(int64(i), 36), "CInner*").WithSerializer("CInner", 0)
		}
		wide.Fields = append(wide.Fields, f)
	}
	sers = append(sers, wide)
	d, err := newDemo(sers, []messages.Class{{ID: 0, NetworkName: "CWide", TableName: "CWide"}})
	if err != nil {
		return nil, err
	}
	last := path(int32(width - 1))
	if kids {
		last = path(int32(width-1), 0)
	}
	if err := d.SetBaseline(0, writer.Changes{last: decoder.Bool(true)}); err != nil {
		return nil, err
	}
	if err := d.Signon(); err != nil {
		return nil, err
	}
	const perPacket = 4096
	tick := int32(0)
	for done := 0; done < creates; {
		fr := d.Frame()
		for i := 0; i < perPacket && done < creates; i++ {
			ch := writer.Changes{}
			if set >= 0 {
				ch[path(set)] = decoder.Bool(true)
			}
			if err := fr.Create(int32(i), 0, uint32(done%(1<<17)), ch); err != nil {
				return nil, err
			}
			done++
		}
		if err := d.Packet(tick, fr); err != nil {
			return nil, err
		}
		tick++
	}
	return d.Finish(), nil
}

// ArrayIndex: a class of arrays variable arrays; entities entities each
// set element index of every array.
func ArrayIndex(arrays, entities int, index int32) ([]byte, error) {
	cls := writer.SerializerSpec{Name: "CArrays"}
	for i := range arrays {
		cls.Fields = append(cls.Fields, writer.Field("m_v"+strconv.Itoa(i), "CUtlVector< uint32 >"))
	}
	d, err := newDemo([]writer.SerializerSpec{cls}, []messages.Class{{ID: 0, NetworkName: "CArrays", TableName: "CArrays"}})
	if err != nil {
		return nil, err
	}
	if err := d.Signon(); err != nil {
		return nil, err
	}
	return entitiesSetting(d, entities, func(ch writer.Changes) {
		for a := range arrays {
			ch[path(int32(a))] = decoder.Uint(uint64(index) + 1)
			ch[path(int32(a), index)] = decoder.Uint(7)
		}
	})
}

// TableIndex: like ArrayIndex with variable tables of 8 fields.
func TableIndex(tables, entities int, index int32) ([]byte, error) {
	elem := writer.SerializerSpec{Name: "CElem"}
	for i := range 8 {
		elem.Fields = append(elem.Fields, writer.Field("m_e"+strconv.Itoa(i), "uint32"))
	}
	cls := writer.SerializerSpec{Name: "CTables"}
	for i := range tables {
		cls.Fields = append(cls.Fields, writer.Field("m_t"+strconv.Itoa(i), "CUtlVectorEmbeddedNetworkVar< CElem >").WithSerializer("CElem", 0))
	}
	d, err := newDemo([]writer.SerializerSpec{elem, cls}, []messages.Class{{ID: 0, NetworkName: "CTables", TableName: "CTables"}})
	if err != nil {
		return nil, err
	}
	if err := d.Signon(); err != nil {
		return nil, err
	}
	return entitiesSetting(d, entities, func(ch writer.Changes) {
		for a := range tables {
			ch[path(int32(a))] = decoder.Uint(uint64(index) + 1)
			ch[path(int32(a), index, 7)] = decoder.Uint(7)
		}
	})
}

// entitiesSetting creates entities of class 0, one per packet, each with
// the changes set fills.
func entitiesSetting(d *writer.Demo, entities int, set func(writer.Changes)) ([]byte, error) {
	for e := range entities {
		ch := writer.Changes{}
		set(ch)
		fr := d.Frame()
		if err := fr.Create(int32(e), 0, uint32(e), ch); err != nil {
			return nil, err
		}
		if err := d.Packet(int32(e), fr); err != nil {
			return nil, err
		}
	}
	return d.Finish(), nil
}

// StringTableIndex: tables string tables, each created with one entry at
// index.
func StringTableIndex(tables int, index int32) ([]byte, error) {
	d, err := newDemo(smallSchema())
	if err != nil {
		return nil, err
	}
	for i := range tables {
		t := &stringtable.Table{Name: "t" + strconv.Itoa(i), VarintBitCounts: true}
		if _, err := d.AddStringTable(t, []stringtable.Entry{{Index: index, Key: "k"}}, false); err != nil {
			return nil, err
		}
	}
	if err := d.Signon(); err != nil {
		return nil, err
	}
	if err := d.Packet(0, nil); err != nil {
		return nil, err
	}
	return d.Finish(), nil
}

// StringTableUpdates: one string table, updated at index updates times.
func StringTableUpdates(updates int, index int32) ([]byte, error) {
	d, err := newDemo(smallSchema())
	if err != nil {
		return nil, err
	}
	t := &stringtable.Table{Name: "t", VarintBitCounts: true}
	id, err := d.AddStringTable(t, []stringtable.Entry{{Index: 0, Key: "k"}}, false)
	if err != nil {
		return nil, err
	}
	if err := d.Signon(); err != nil {
		return nil, err
	}
	for i := range updates {
		u, err := d.UpdateStringTable(id, []stringtable.Entry{{Index: index - int32(i%2), Key: "k"}})
		if err != nil {
			return nil, err
		}
		if err := d.Packet(int32(i), nil, u); err != nil {
			return nil, err
		}
	}
	return d.Finish(), nil
}

func smallSchema() ([]writer.SerializerSpec, []messages.Class) {
	return []writer.SerializerSpec{{Name: "CSmall", Fields: []writer.FieldSpec{writer.Field("m_b", "bool")}}},
		[]messages.Class{{ID: 0, NetworkName: "CSmall", TableName: "CSmall"}}
}

// signedOn is a demo of the small schema after its signon.
func signedOn() (*writer.Demo, error) {
	d, err := newDemo(smallSchema())
	if err != nil {
		return nil, err
	}
	return d, d.Signon()
}

// InnerFlood: one packet of n empty inner messages (type 0, size 0: 14
// bits each), snappy-compressed.
func InnerFlood(n int) ([]byte, error) {
	d, err := signedOn()
	if err != nil {
		return nil, err
	}
	var w bitio.Writer
	for range n {
		w.UBitVar(0)
		w.VarUint32(0)
	}
	d.File.Command(container.Packet, 0, writer.PacketBody(w.Bytes()), true)
	return d.Finish(), nil
}

// ClassInfoIDs: a server info declaring max_classes id+1, then n ClassInfo
// commands naming class id.
func ClassInfoIDs(n int, id int32) ([]byte, error) {
	d, err := signedOn()
	if err != nil {
		return nil, err
	}
	si := writer.ServerInfoBody(messages.ServerInfo{MaxClasses: id + 1, MaxClients: 64, TickInterval: 1.0 / 30})
	d.File.Command(container.SignonPacket, -1, writer.PacketBody(writer.Packet(writer.Inner{Type: messages.SvcServerInfo, Body: si})), false)
	body := writer.ClassInfoBody([]messages.Class{{ID: id, NetworkName: "CSmall", TableName: "CSmall"}})
	for range n {
		d.File.Command(container.ClassInfo, -1, body, false)
	}
	return d.Finish(), nil
}

// TinyCommands: n empty DEM_Packet commands, ticks increasing.
func TinyCommands(n int) ([]byte, error) {
	d, err := signedOn()
	if err != nil {
		return nil, err
	}
	for i := range n {
		d.File.Command(container.Packet, int32(i/16), nil, false)
	}
	return d.Finish(), nil
}

// BrokenSize: a signon, then a DEM_Packet whose size varint runs to the
// end of the file.
func BrokenSize() ([]byte, error) {
	d, err := signedOn()
	if err != nil {
		return nil, err
	}
	b := append([]byte(nil), d.File.Bytes()...)
	b = append(b, byte(container.Packet), 5)
	for range 12 {
		b = append(b, 0xff)
	}
	return b, nil
}

// UpdatedEntries: packet-entities messages whose updated_entries is -1
// (ten varint bytes) and 2^32+3.
func UpdatedEntries() ([]byte, error) {
	d, err := signedOn()
	if err != nil {
		return nil, err
	}
	for i, n := range []uint64{1<<64 - 1, 1<<32 + 3} {
		fr := d.Frame()
		pe, err := fr.Message(uint32(i), -1)
		if err != nil {
			return nil, err
		}
		pe.EntityData = []byte{0, 0, 0, 0}
		body := writer.PacketEntitiesBody(pe)
		// Field 2 (updated_entries) as the raw varint n.
		body = append(body, 2<<3)
		for v := n; ; v >>= 7 {
			if v < 0x80 {
				body = append(body, byte(v))
				break
			}
			body = append(body, byte(v)|0x80)
		}
		d.File.Command(container.Packet, int32(i), writer.PacketBody(writer.Packet(writer.Inner{Type: messages.SvcPacketEntities, Body: body})), false)
	}
	return d.Finish(), nil
}

// SnappyBomb: n packets, each a snappy body expanding to ~60 MiB of one
// inner message's zero bytes.
func SnappyBomb(n int) ([]byte, error) {
	payload := make([]byte, 60<<20)
	comp := snappy.Encode(nil, writer.PacketBody(writer.Packet(writer.Inner{Type: 1000, Body: payload})))
	head, err := signedOnBytes()
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), head...)
	for i := range n {
		out = appendCommand(out, container.Packet, int32(i), comp, true)
	}
	return appendEnd(out), nil
}

func signedOnBytes() ([]byte, error) {
	d, err := signedOn()
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), d.File.Bytes()...), nil
}

func appendCommand(b []byte, k container.Kind, tick int32, body []byte, compressed bool) []byte {
	cmd := uint64(k)
	if compressed {
		cmd |= 64
	}
	b = protowire.AppendVarint(b, cmd)
	b = protowire.AppendVarint(b, uint64(uint32(tick)))
	b = protowire.AppendVarint(b, uint64(len(body)))
	return append(b, body...)
}

func appendEnd(b []byte) []byte { return appendCommand(b, container.Stop, 0, nil, false) }

// BaselineFlood: classes classes of width bools, each baseline setting the
// last field, each class created once.
func BaselineFlood(classes, width int) ([]byte, error) {
	var sers []writer.SerializerSpec
	var cls []messages.Class
	fields := make([]writer.FieldSpec, width)
	for i := range fields {
		fields[i] = writer.Field("m_f"+strconv.Itoa(i), "bool")
	}
	for c := range classes {
		name := fmt.Sprintf("C%d", c)
		sers = append(sers, writer.SerializerSpec{Name: name, Fields: fields})
		cls = append(cls, messages.Class{ID: int32(c), NetworkName: name, TableName: name})
	}
	d, err := newDemo(sers, cls)
	if err != nil {
		return nil, err
	}
	last := path(int32(width - 1))
	for c := range classes {
		if err := d.SetBaseline(int32(c), writer.Changes{last: decoder.Bool(true)}); err != nil {
			return nil, err
		}
	}
	if err := d.Signon(); err != nil {
		return nil, err
	}
	for start := 0; start < classes; start += 256 {
		fr := d.Frame()
		for c := start; c < min(classes, start+256); c++ {
			if err := fr.Create(int32(c), int32(c), uint32(c), writer.Changes{last: decoder.Bool(false)}); err != nil {
				return nil, err
			}
		}
		if err := d.Packet(int32(start), fr); err != nil {
			return nil, err
		}
	}
	return d.Finish(), nil
}

// SchemaChain: a file whose schema nests serializers depth deep (each a
// pointer to the next), or, with cycle, one serializer that points to
// itself; a class of the outermost is created and updated.
func SchemaChain(depth int, cycle bool) ([]byte, error) {
	var sers []writer.SerializerSpec
	if cycle {
		sers = append(sers, writer.SerializerSpec{Name: "C0", Fields: []writer.FieldSpec{
			writer.Field("m_b", "bool"), writer.Field("m_next", "C0*").WithSerializer("C0", 0)}})
	} else {
		for i := depth - 1; i >= 0; i-- {
			fs := []writer.FieldSpec{writer.Field("m_b", "bool")}
			if i < depth-1 {
				next := fmt.Sprintf("C%d", i+1)
				fs = append(fs, writer.Field("m_next", next+"*").WithSerializer(next, 0))
			}
			sers = append(sers, writer.SerializerSpec{Name: fmt.Sprintf("C%d", i), Fields: fs})
		}
	}
	d, err := signedOn()
	if err != nil {
		return nil, err
	}
	// The demo's own schema is the small one; this file's DEM_SendTables
	// and DEM_ClassInfo replace it.
	d.File.Command(container.SendTables, -1, writer.SendTablesBody(writer.FlattenedSerializer(sers)), true)
	d.File.Command(container.ClassInfo, -1, writer.ClassInfoBody([]messages.Class{{ID: 0, NetworkName: "C0", TableName: "C0"}}), false)
	// A create of C0 whose paths go down the chain: m_next (1) then 1, 1, ...
	var w bitio.Writer
	w.UBitVar(0)
	w.Bits(2, 2)
	w.Bits(0, 1)
	w.Bits(0, 17)
	w.VarUint32(0)
	for range 64 {
		w.Bits(0, 1) // PlusOne ops and pushes, whatever they read as: garbage paths
	}
	body := writer.PacketEntitiesBody(messages.PacketEntities{MaxEntries: 1 << 14, UpdatedEntries: 1, EntityData: w.Bytes()})
	d.File.Command(container.Packet, 0, writer.PacketBody(writer.Packet(writer.Inner{Type: messages.SvcPacketEntities, Body: body})), false)
	return d.Finish(), nil
}

// Misaligned appends, before the file's DEM_Stop, a packet whose entity
// data updates entities 0 to 9 with bits that do not parse as they
// claim, so that check diagnoses a misaligned message over whatever
// state the file built.
func Misaligned(data []byte, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	stop := lastStop(data)
	if stop < 0 {
		return nil, fmt.Errorf("no DEM_Stop")
	}
	var w bitio.Writer
	for range 10 {
		w.UBitVar(0)
		w.Bits(0, 2)
		w.Bits(0x5a5a5a5a5a5a5a5a, 64)
	}
	body := writer.PacketEntitiesBody(messages.PacketEntities{MaxEntries: 1 << 14, UpdatedEntries: 10, IsDelta: true, EntityData: w.Bytes()})
	out := append([]byte(nil), data[:stop]...)
	out = appendCommand(out, container.Packet, 1<<20, writer.PacketBody(writer.Packet(writer.Inner{Type: messages.SvcPacketEntities, Body: body})), false)
	return append(out, data[stop:]...), nil
}

// lastStop is the offset of the file's DEM_Stop command, or -1.
func lastStop(data []byte) int {
	r, err := container.NewReader(data)
	if err != nil {
		return -1
	}
	at := -1
	for {
		c, err := r.Next()
		if err != nil {
			return at
		}
		if c.Kind == container.Stop {
			at = c.Offset
		}
	}
}
