package messages

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/wiretree"
)

// FileHeader is the body of DEM_FileHeader.
type FileHeader struct {
	DemoFileStamp      string
	NetworkProtocol    int32
	ServerName         string
	ClientName         string
	MapName            string
	GameDirectory      string
	FullpacketsVersion int32
	DemoVersionName    string
	DemoVersionGUID    string
	BuildNum           int32
	Game               string
	ServerStartTick    int32
}

// ParseFileHeader decodes DEM_FileHeader.
func ParseFileHeader(b []byte) (FileHeader, error) {
	var h FileHeader
	err := wiretree.Fields(b, func(n protowire.Number, _ protowire.Type, v uint64, d []byte) error {
		switch n {
		case 1:
			h.DemoFileStamp = string(d)
		case 2:
			h.NetworkProtocol = int32(v)
		case 3:
			h.ServerName = string(d)
		case 4:
			h.ClientName = string(d)
		case 5:
			h.MapName = string(d)
		case 6:
			h.GameDirectory = string(d)
		case 7:
			h.FullpacketsVersion = int32(v)
		case 11:
			h.DemoVersionName = string(d)
		case 12:
			h.DemoVersionGUID = string(d)
		case 13:
			h.BuildNum = int32(v)
		case 14:
			h.Game = string(d)
		case 15:
			h.ServerStartTick = int32(v)
		}
		return nil
	})
	return h, wrap("CDemoFileHeader", err)
}

// FileInfo is the body of DEM_FileInfo.
type FileInfo struct {
	PlaybackTime   float32
	PlaybackTicks  int32
	PlaybackFrames int32
}

// ParseFileInfo decodes DEM_FileInfo.
func ParseFileInfo(b []byte) (FileInfo, error) {
	var fi FileInfo
	err := wiretree.Fields(b, func(n protowire.Number, _ protowire.Type, v uint64, _ []byte) error {
		switch n {
		case 1:
			fi.PlaybackTime = wiretree.Float32(v)
		case 2:
			fi.PlaybackTicks = int32(v)
		case 3:
			fi.PlaybackFrames = int32(v)
		}
		return nil
	})
	return fi, wrap("CDemoFileInfo", err)
}

// Class is one entry of DEM_ClassInfo.
type Class struct {
	ID          int32
	NetworkName string
	TableName   string
}

// ParseClassInfo decodes DEM_ClassInfo.
func ParseClassInfo(b []byte) ([]Class, error) {
	// The names are substrings of one string (a Dota 2 replay lists 1,600
	// classes): spans into names until it is made. The classes are counted
	// first and the names take at most the message's bytes, so each list
	// is allocated once, not grown (a Dota 2 signon's class list grew
	// through a dozen copies). Cursors that Step, not callbacks: per field
	// that is no call, and no pointer written (a write barrier while the
	// collector marks).
	n := 0
	for c := wiretree.NewCursor(b); c.Step(); {
		if c.Num == 1 {
			n++
		}
	}
	var out []Class
	var names []byte
	var spans [][2]int32 // network name and table name ends, per class
	if n > 0 {
		out, names, spans = make([]Class, 0, n), make([]byte, 0, len(b)), make([][2]int32, 0, n)
	}
	var err error
	outer := wiretree.NewCursor(b)
	for outer.Step() {
		if outer.Num != 1 {
			continue
		}
		var c Class
		var net, table []byte
		in := wiretree.NewCursor(outer.Bytes())
		for in.Step() {
			switch in.Num {
			case 1:
				c.ID = int32(in.V)
			case 2:
				net = in.Bytes()
			case 3:
				table = in.Bytes()
			}
		}
		names = append(names, net...)
		e1 := int32(len(names))
		names = append(names, table...)
		spans = append(spans, [2]int32{e1, int32(len(names))})
		out = append(out, c)
		if err = in.Err(); err != nil {
			break // a malformed class, located in it, as the walk reports it
		}
	}
	if err == nil {
		err = outer.Err()
	}
	all := string(names)
	start := int32(0)
	for i, sp := range spans {
		out[i].NetworkName, out[i].TableName = all[start:sp[0]], all[sp[0]:sp[1]]
		start = sp[1]
	}
	return out, wrap("CDemoClassInfo", err)
}

// BytesField returns the first length-delimited field num of b: the data of
// DEM_Packet (3), DEM_SendTables (1) and similar wrappers.
func BytesField(b []byte, num protowire.Number, msg string) ([]byte, error) {
	var out []byte
	err := wiretree.Fields(b, func(n protowire.Number, t protowire.Type, _ uint64, d []byte) error {
		if n == num && t == protowire.BytesType && out == nil {
			out = d
		}
		return nil
	})
	return out, wrap(msg, err)
}

// PacketData is the inner-packet stream of DEM_Packet / DEM_SignonPacket.
func PacketData(b []byte) ([]byte, error) { return BytesField(b, 3, "CDemoPacket") }

// SendTablesData is the varint-prefixed CSVCMsg_FlattenedSerializer inside
// DEM_SendTables.
func SendTablesData(b []byte) ([]byte, error) {
	d, err := BytesField(b, 1, "CDemoSendTables")
	if err != nil {
		return nil, err
	}
	size, n := protowire.ConsumeVarint(d)
	if n < 0 || size > uint64(len(d)-n) {
		return nil, fmt.Errorf("CDemoSendTables: length prefix %d exceeds the %d bytes present", size, len(d))
	}
	return d[n : n+int(size)], nil
}

// FullPacket is the body of DEM_FullPacket: a string-table snapshot and a
// packet holding the complete entity state.
type FullPacket struct {
	StringTables []byte // CDemoStringTables
	Packet       []byte // CDemoPacket
}

// ParseFullPacket decodes DEM_FullPacket.
func ParseFullPacket(b []byte) (FullPacket, error) {
	var fp FullPacket
	err := wiretree.Fields(b, func(n protowire.Number, _ protowire.Type, _ uint64, d []byte) error {
		switch n {
		case 1:
			fp.StringTables = d
		case 2:
			fp.Packet = d
		}
		return nil
	})
	return fp, wrap("CDemoFullPacket", err)
}

// SnapshotItem is one entry of a string-table snapshot.
type SnapshotItem struct {
	Key  string
	Data []byte
}

// SnapshotTable is one table of DEM_StringTables.
type SnapshotTable struct {
	Name  string
	Items []SnapshotItem
	Flags int32
}

// ParseStringTables decodes DEM_StringTables.
func ParseStringTables(b []byte) ([]SnapshotTable, error) {
	var out []SnapshotTable
	c := wiretree.NewCursor(b)
	for c.Next() {
		if c.Num != 1 {
			continue
		}
		var t SnapshotTable
		err := parseSnapshotTable(c.Data, &t)
		out = append(out, t)
		if err != nil {
			return out, wrap("CDemoStringTables", err)
		}
	}
	return out, wrap("CDemoStringTables", c.Err())
}

// ParseStringTable decodes the table called name from DEM_StringTables
// (found is false without one; the items of several such tables are
// joined). The other tables are checked but not built: a full snapshot
// holds every table of the game, and decoding needs only the instance
// baselines.
func ParseStringTable(b []byte, name string) (t SnapshotTable, found bool, err error) {
	c := wiretree.NewCursor(b)
	for c.Next() {
		if c.Num != 1 {
			continue
		}
		if !snapshotTableIs(c.Data, name) {
			if err := parseSnapshotTable(c.Data, nil); err != nil {
				return t, found, wrap("CDemoStringTables", err)
			}
			continue
		}
		var one SnapshotTable
		err := parseSnapshotTable(c.Data, &one)
		t.Name, t.Flags, t.Items, found = one.Name, one.Flags, append(t.Items, one.Items...), true
		if err != nil {
			return t, found, wrap("CDemoStringTables", err)
		}
	}
	return t, found, wrap("CDemoStringTables", c.Err())
}

// snapshotTableIs reports whether a table message is called name (its
// last name field, as protobuf reads it), without allocating.
func snapshotTableIs(d []byte, name string) bool {
	var got []byte
	for c := wiretree.NewCursor(d); c.Next(); {
		if c.Num == 1 {
			got = c.Data
		}
	}
	return string(got) == name
}

// parseSnapshotTable walks one table of a snapshot, item framing included,
// filling t when it is not nil (nothing is allocated when it is).
func parseSnapshotTable(d []byte, t *SnapshotTable) error {
	keep := t != nil
	c := wiretree.NewCursor(d)
	for c.Next() {
		switch {
		case keep && c.Num == 1:
			t.Name = string(c.Data)
		case keep && c.Num == 4:
			t.Flags = int32(c.V)
		case c.Num == 2:
			var it SnapshotItem
			ic := wiretree.NewCursor(c.Data)
			for ic.Next() {
				switch {
				case keep && ic.Num == 1:
					it.Key = string(ic.Data)
				case keep && ic.Num == 2:
					it.Data = ic.Data
				}
			}
			if keep {
				t.Items = append(t.Items, it)
			}
			if err := ic.Err(); err != nil {
				return err
			}
		}
	}
	return c.Err()
}

func wrap(msg string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", msg, err)
}
