package replay

import (
	"fmt"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/wiretree"
)

// snapshot applies a DEM_StringTables snapshot: each table it names that
// exists is set to its items (item i is entry i; entries past the last
// item go), and the instance baselines it changes are taken. A recording
// that starts mid-game sends here the entries its creates left out. The
// items are compared in place, so a snapshot that repeats the tables as
// they are (the usual signon one) allocates nothing per entry.
func (r *Replay) snapshot(body []byte) error {
	c := wiretree.NewCursor(body)
	for c.Step() {
		if c.Num != 1 || c.Type != protowire.BytesType {
			continue
		}
		if err := r.restoreTable(c.Bytes()); err != nil {
			return fmt.Errorf("CDemoStringTables: %w", err)
		}
	}
	if err := c.Err(); err != nil {
		return fmt.Errorf("CDemoStringTables: %w", err)
	}
	return nil
}

// restoreTable applies one table of a snapshot.
func (r *Replay) restoreTable(d []byte) error {
	var name []byte
	c := wiretree.NewCursor(d)
	for c.Step() {
		if c.Num == 1 && c.Type == protowire.BytesType {
			name = c.Bytes() // the last one, as protobuf reads it
		}
	}
	if err := c.Err(); err != nil {
		return err
	}
	t := r.Strings.ByName(string(name))
	n := int32(0)
	// Step, not Next: see wiretree.Cursor.Step.
	for c = wiretree.NewCursor(d); c.Step(); {
		if c.Num != 2 || c.Type != protowire.BytesType {
			continue
		}
		key, value, hasValue, ok := shortItem(c.Bytes())
		if !ok {
			ic := wiretree.NewCursor(c.Bytes())
			for ic.Step() {
				switch {
				case ic.Num == 1 && ic.Type == protowire.BytesType:
					key = ic.Bytes()
				case ic.Num == 2 && ic.Type == protowire.BytesType:
					value, hasValue = ic.Bytes(), true
				}
			}
			if err := ic.Err(); err != nil {
				return err
			}
		}
		switch {
		case t != nil:
			if t.RestoreEntry(n, key, value, hasValue) {
				r.baselinesChanged(t, []int32{n})
			}
		case string(name) == "instancebaseline":
			// Baselines before any create: no table to keep them in.
			if id, err := strconv.Atoi(string(key)); err == nil {
				r.Entities.SetBaseline(int32(id), value)
			}
		}
		n++
	}
	if t != nil {
		t.Truncate(n) // a removed baseline entry leaves its class's baseline as it was
	}
	return nil
}

// shortItem reads an item of the usual shape, a key and maybe a value
// each shorter than 128 bytes and nothing else, by hand: a signon's
// snapshot holds thousands. ok is false for any other shape, which the
// general walk then reads.
func shortItem(d []byte) (key, value []byte, hasValue, ok bool) {
	if len(d) < 2 || d[0] != 1<<3|2 || d[1] >= 0x80 || int(d[1]) > len(d)-2 {
		return nil, nil, false, false
	}
	key, d = d[2:2+d[1]:2+d[1]], d[2+d[1]:]
	if len(d) == 0 {
		return key, nil, false, true
	}
	if len(d) < 2 || d[0] != 2<<3|2 || d[1] >= 0x80 || int(d[1]) != len(d)-2 {
		return nil, nil, false, false
	}
	return key, d[2:len(d):len(d)], true, true
}
