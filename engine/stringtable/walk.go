package stringtable

// PartKind names one read of a string-table entry.
type PartKind uint8

// The reads of an entry, in the order they come.
const (
	PartIncrement   PartKind = iota // 1 bit: 1 = previous + 1, 0 = a jump follows
	PartJump                        // varuint32 v: index = previous + v + 2
	PartKeyFlag                     // 1 bit: a key follows
	PartHistoryFlag                 // 1 bit: the key starts with a prefix of a recent key
	PartHistory                     // 5 bits position, 5 bits length
	PartKey                         // zero-terminated string: the rest of the key
	PartValueFlag                   // 1 bit: a value follows
	PartCompressed                  // 1 bit: the value is snappy-compressed (Flags&1 tables)
	PartSize                        // ubitvar or 17 bits: the value's size in bytes
	PartValue                       // the value's bits
)

var partNames = [...]string{"increment", "jump", "key flag", "history flag", "history", "key", "value flag", "compressed", "size", "value"}

func (k PartKind) String() string {
	if int(k) < len(partNames) {
		return partNames[k]
	}
	return "?"
}

// Part is one read: where it is in the entry data and what it gave.
type Part struct {
	Kind  PartKind
	Start uint   // bit offset in the entry data
	Bits  uint   // bits read
	V     uint64 // a flag's bit; the jump v; the history position; for
	// a key, how many bytes came from the history; the size in bytes; the
	// value's bytes as read (before decompression)
	Len    int    // history: the prefix length asked for
	Str    string // history: the key borrowed; key: the whole key
	Beyond bool   // history: the position is past the keys held, so nothing is borrowed
}

// EntryWalk is one entry of a message, read bit by bit: its place in the
// message, the index before it and its own, the entry before and after.
type EntryWalk struct {
	Ordinal    int   // position in the message, from 0
	Prev       int32 // the index of the entry before (-1 for the first)
	Index      int32 // -1 when the index could not be read
	Start, End uint  // the entry's bits in the entry data
	Before     Entry // the entry before the message wrote it
	Existed    bool  // whether Before had been written
	After      Entry // the entry after
	Parts      []Part
}

// Walk applies data to t as Apply does and records every read of every
// entry. On error, the entries read so far are returned, the failing one
// last with the parts read before the failure.
func (t *Table) Walk(data []byte, n int) ([]EntryWalk, error) {
	var w []EntryWalk
	if len(data) == 0 || n < 0 {
		_, err := t.Apply(data, n)
		return nil, err
	}
	_, err := t.apply(data, n, &w)
	return w, err
}

// Copy returns a copy of the table that later updates of either leave the
// other unchanged (keys and values are shared, as in Set.Clone).
func (t *Table) Copy() *Table {
	c := *t
	c.Entries = append([]Entry(nil), t.Entries...)
	if t.far != nil {
		c.far = make(map[int32]Entry, len(t.far))
		for k, v := range t.far {
			c.far[k] = v
		}
	}
	return &c
}
