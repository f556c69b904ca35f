package session

import (
	"fmt"
	"io"

	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/stringtable"
)

// TableWalk is a svc_CreateStringTable or svc_UpdateStringTable re-read
// bit by bit against the table as the file has it just before the message:
// every read of every entry, with the entry before and after.
type TableWalk struct {
	Cmd, Msg int
	Table    string
	ID       int // creation order; -1 for a create
	Settings stringtable.Table
	// Data is the entry data the bits are read from (a create's
	// decompressed).
	Data       []byte
	Compressed bool // a create's data was snappy-compressed
	Entries    []stringtable.EntryWalk
	Err        error // where the entry data stopped making sense
}

// WalkStringTable re-reads string-table message msg of command c: it
// decodes the file from the last keyframe before the command (the start
// without one) up to the message, copies the table there, and walks the
// message's entries over the copy. It reads nothing of the index but c, so
// it may run while the index grows.
func (f *File) WalkStringTable(c Command, msg int) (*TableWalk, error) {
	return walkStringTable(start{f.data, f.aliases, f.Keyframes(), c.Index}, c, msg)
}

func walkStringTable(st start, c Command, msg int) (*TableWalk, error) {
	cmd := c.Index
	if msg < 0 || msg >= len(c.Msgs()) {
		return nil, fmt.Errorf("no message #%d in command #%d", msg, cmd)
	}
	m := c.Msgs()[msg]
	if m.Name != "svc_CreateStringTable" && m.Name != "svc_UpdateStringTable" {
		return nil, fmt.Errorf("%s is not a string-table message", m.Name)
	}
	w := &TableWalk{Cmd: cmd, Msg: msg, ID: -1}
	var before *stringtable.Table
	var entryData []byte
	var n int
	var setupErr error
	var r *replay.Replay
	walk := func(loc Location, im *messages.Inner) {
		if loc.Command != cmd || im.Index != m.Index || before != nil {
			return
		}
		if im.Type == messages.SvcCreateStringTable {
			cm, err := messages.ParseCreateStringTable(im.Body)
			if err != nil {
				setupErr = err
				return
			}
			before = &stringtable.Table{Name: cm.Name, UserDataFixed: cm.UserDataFixedSize, UserDataSize: cm.UserDataSize,
				UserDataSizeBits: cm.UserDataSizeBits, Flags: cm.Flags, VarintBitCounts: cm.VarintBitCounts}
			w.Compressed, n = cm.DataCompressed, int(cm.NumEntries)
			entryData, setupErr = stringtable.Decompress(cm.StringData, cm.DataCompressed, int(cm.UncompressedSize))
			return
		}
		um, err := messages.ParseUpdateStringTable(im.Body)
		if err != nil {
			setupErr = err
			return
		}
		t := r.Strings.ByID(int(um.TableID))
		if t == nil {
			setupErr = fmt.Errorf("update of string table %d, which does not exist (%d tables)", um.TableID, len(r.Strings.Tables))
			return
		}
		w.ID, before, n = int(um.TableID), t.Copy(), int(um.NumChangedEntries)
		entryData = append([]byte(nil), um.StringData...)
	}
	p, err := openPass(st, Visitor{Inner: walk})
	if err != nil {
		return nil, err
	}
	r = p.r
	for before == nil && setupErr == nil {
		got, err := p.Step()
		if err == io.EOF || err == nil && got.Index > cmd {
			break
		}
		if err != nil && before == nil {
			return nil, err
		}
	}
	if setupErr != nil {
		return nil, setupErr
	}
	if before == nil {
		return nil, fmt.Errorf("command #%d has no string-table message #%d", cmd, m.Index)
	}
	w.Table, w.Data = before.Name, entryData
	w.Settings = stringtable.Table{Name: before.Name, UserDataFixed: before.UserDataFixed, UserDataSize: before.UserDataSize,
		UserDataSizeBits: before.UserDataSizeBits, Flags: before.Flags, VarintBitCounts: before.VarintBitCounts}
	w.Entries, w.Err = before.Walk(entryData, n)
	return w, nil
}

// BaselineClasses maps instance-baseline keys (class ids in decimal) to
// class names, from the file's first DEM_ClassInfo.
func (f *File) BaselineClasses(ix *Index) map[string]string { return baselineClasses(f.data, ix) }

// baselineClasses is File.BaselineClasses over data.
func baselineClasses(data []byte, ix *Index) map[string]string { return classNames(data, ix) }
