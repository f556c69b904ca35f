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
// they are (the usual signon one) allocates nothing per entry. plain says
// every item of every table held a key and a value and nothing else (the
// format check then passes over them).
func (r *Replay) snapshot(body []byte) (plain bool, err error) {
	plain = true
	c := wiretree.NewCursor(body)
	for c.Step() {
		if c.Num != 1 || c.Type != protowire.BytesType {
			continue
		}
		p, err := r.restoreTable(c.Bytes())
		if err != nil {
			return false, fmt.Errorf("CDemoStringTables: %w", err)
		}
		plain = plain && p
	}
	if err := c.Err(); err != nil {
		return false, fmt.Errorf("CDemoStringTables: %w", err)
	}
	return plain, nil
}

// restoreTable applies one table of a snapshot. plain says each of its
// items (the client-side ones too) held only a key and a value.
func (r *Replay) restoreTable(d []byte) (plain bool, err error) {
	var name []byte
	plain = true
	c := wiretree.NewCursor(d)
	for c.Step() {
		switch {
		case c.Num == 1 && c.Type == protowire.BytesType:
			name = c.Bytes() // the last one, as protobuf reads it
		case c.Num == 3 && c.Type == protowire.BytesType && plain:
			_, _, _, p, err := readItem(c.Bytes())
			plain = p && err == nil
		}
	}
	if err := c.Err(); err != nil {
		return false, err
	}
	t := r.Strings.ByName(string(name))
	n := int32(0)
	// Step, not Next: see wiretree.Cursor.Step.
	for c = wiretree.NewCursor(d); c.Step(); {
		if c.Num != 2 || c.Type != protowire.BytesType {
			continue
		}
		key, value, hasValue, p, err := readItem(c.Bytes())
		if err != nil {
			return false, err
		}
		plain = plain && p
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
	return plain, nil
}

// readItem reads a snapshot item: its last key, its last value and whether
// it has one, as protobuf reads them; plain says it held nothing else.
func readItem(d []byte) (key, value []byte, hasValue, plain bool, err error) {
	if key, value, hasValue, ok := shortItem(d); ok {
		return key, value, hasValue, true, nil
	}
	return walkItem(d)
}

// walkItem is readItem for an item of any shape, by a walk of its fields.
func walkItem(d []byte) (key, value []byte, hasValue, plain bool, err error) {
	plain = true
	c := wiretree.NewCursor(d)
	for c.Step() {
		switch {
		case c.Num == 1 && c.Type == protowire.BytesType:
			key = c.Bytes()
		case c.Num == 2 && c.Type == protowire.BytesType:
			value, hasValue = c.Bytes(), true
		default:
			plain = false
		}
	}
	return key, value, hasValue, plain, c.Err()
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
