package stringtable

import (
	"errors"
	"fmt"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/golang/snappy"
)

// Limits that keep corrupt data from causing huge allocations.
const (
	MaxKeyLen       = 4096     // longest key, in bytes
	MaxEntries      = 1 << 20  // entry indexes must be below this
	MaxValueSize    = 64 << 20 // largest decoded value, in bytes
	MaxDecompressed = 64 << 20 // largest decompressed table data, in bytes

	historySize = 32
	// FlagCompressedValues (Flags&1) says each variable-size value carries
	// a bit telling whether it is snappy-compressed.
	FlagCompressedValues = 1
)

// Entry is one string-table slot.
type Entry struct {
	Index int32 // the entry's index; -1 for a slot never written
	Key   string
	Value []byte // nil when the entry has no value
}

// Table is one string table and the settings its updates are decoded with.
type Table struct {
	Index            int // order of creation
	Name             string
	UserDataFixed    bool
	UserDataSize     int32 // fixed value size in bytes (informational)
	UserDataSizeBits int32 // fixed value size in bits: what is read
	Flags            int32
	VarintBitCounts  bool
	// Entries holds the entries by index, grown as needed up to a little
	// past the highest index written in order; an index far past it
	// (denseGap) is kept in far, so that one entry at index 2^20 costs
	// one entry, not a million.
	Entries []Entry
	far     map[int32]Entry
}

// denseGap is how far past the end of Entries an index may land and still
// grow it; real tables write their indexes in order.
const denseGap = 1024

// Each calls fn for every written entry, in index order for Entries and
// then the far ones (in no order).
func (t *Table) Each(fn func(Entry)) {
	for _, e := range t.Entries {
		if e.Index >= 0 {
			fn(e)
		}
	}
	for _, e := range t.far {
		fn(e)
	}
}

// Len is the number of entries ever written.
func (t *Table) Len() int {
	n := len(t.far)
	for _, e := range t.Entries {
		if e.Index >= 0 {
			n++
		}
	}
	return n
}

// Get returns the entry at index i, and whether it has ever been written.
func (t *Table) Get(i int32) (Entry, bool) {
	if e, ok := t.far[i]; ok {
		return e, true
	}
	if i < 0 || int(i) >= len(t.Entries) || t.Entries[i].Index < 0 {
		return Entry{Index: -1}, false
	}
	return t.Entries[i], true
}

// ByKey returns the first written entry with the given key.
func (t *Table) ByKey(key string) (Entry, bool) {
	for _, e := range t.Entries {
		if e.Index >= 0 && e.Key == key {
			return e, true
		}
	}
	for _, e := range t.far {
		if e.Key == key {
			return e, true
		}
	}
	return Entry{Index: -1}, false
}

// Error reports an entry that could not be decoded.
type Error struct {
	Table string
	Entry int   // ordinal of the entry within the update, from 0
	Index int32 // the entry's index, or -1 if it was not yet decoded
	Bit   uint  // bit offset where the entry starts
	At    uint  // bit offset where decoding failed
	Err   error
}

func (e *Error) Error() string {
	idx := ""
	if e.Index >= 0 {
		idx = fmt.Sprintf(" (index %d)", e.Index)
	}
	return fmt.Sprintf("string table %q: entry %d%s starting at bit %s: %v",
		e.Table, e.Entry, idx, bitio.Offset(e.Bit), e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Apply decodes n entry updates from data (svc_CreateStringTable data after
// Decompress, or svc_UpdateStringTable data) into t and returns the indexes
// of the entries it changed, in order. An update with a key replaces the
// entry's key, one without keeps it; an update with a value replaces the
// entry's value, one without clears it. On error, the entries decoded
// before the bad one stay applied and their indexes are returned along
// with an *Error naming the entry and
// the bit offsets where it starts and where decoding failed. Empty data is
// accepted as no updates whatever n says, as tables are sometimes created
// with an entry count but no data.
func (t *Table) Apply(data []byte, n int) (changed []int32, err error) {
	return t.apply(data, n, nil)
}

// apply is Apply, recording every read into *w when w is not nil.
func (t *Table) apply(data []byte, n int, w *[]EntryWalk) (changed []int32, err error) {
	if n < 0 {
		return nil, &Error{Table: t.Name, Index: -1, Err: fmt.Errorf("negative entry count %d", n)}
	}
	if len(data) == 0 {
		return nil, nil
	}
	r := bitio.NewReader(data)
	// Every entry takes at least 3 bits, which bounds a useful capacity.
	changed = make([]int32, 0, min(n, len(data)*8/3+1))
	var (
		index   int32 = -1
		history keyHistory
		keyBuf  []byte
		mem     *arena // keys and values, for many entries (arena.go)
	)
	var cur *EntryWalk // the entry being recorded, when w is not nil
	mark := func(kind PartKind, from uint, v uint64) *Part {
		cur.Parts = append(cur.Parts, Part{Kind: kind, Start: from, Bits: r.Pos() - from, V: v})
		return &cur.Parts[len(cur.Parts)-1]
	}
	if n >= minArenaEntries {
		mem = newArena(len(data))
		if len(t.Entries) == 0 { // a new table: its entries, grown once
			t.Entries = make([]Entry, 0, min(n, len(data)*8/3+1, 1<<14))
		}
	}
	for i := range n {
		start := r.Pos()
		if w != nil {
			*w = append(*w, EntryWalk{Ordinal: i, Prev: index, Index: -1, Start: start})
			cur = &(*w)[len(*w)-1]
		}
		known := false // whether index belongs to this entry yet
		fail := func(what string, args ...any) error {
			e := &Error{Table: t.Name, Entry: i, Index: -1, Bit: start, At: r.Pos()}
			if known {
				e.Index = index
			}
			msg := fmt.Sprintf(what, args...)
			var oe *bitio.OverflowError
			if errors.As(r.Err(), &oe) {
				e.At = oe.Pos
				e.Err = fmt.Errorf("%s: %w", msg, oe)
			} else {
				e.Err = fmt.Errorf("%s at bit %s", msg, bitio.Offset(e.At))
			}
			return e
		}

		if r.Bool() {
			index++
			if cur != nil {
				mark(PartIncrement, start, 1)
			}
		} else {
			if cur != nil {
				mark(PartIncrement, start, 0)
			}
			from := r.Pos()
			// A jump is relative to the entry before (see the package doc).
			v := r.VarUint32()
			index = int32(min(int64(index)+int64(v)+2, MaxEntries))
			if cur != nil {
				mark(PartJump, from, uint64(v))
			}
		}
		if r.Overflowed() {
			return changed, fail("index")
		}
		if index >= MaxEntries {
			return changed, fail("entry index %d out of range (limit %d)", index, MaxEntries)
		}
		known = true
		if cur != nil {
			cur.Index = index
			cur.Before, cur.Existed = t.Get(index)
		}

		from := r.Pos()
		hasKey := r.Bool()
		if cur != nil {
			mark(PartKeyFlag, from, b2u(hasKey))
		}
		var key string
		if hasKey {
			keyBuf = keyBuf[:0]
			from = r.Pos()
			useHistory := r.Bool()
			if cur != nil {
				mark(PartHistoryFlag, from, b2u(useHistory))
			}
			if useHistory {
				from = r.Pos()
				pos, size := int(r.Bits(5)), int(r.Bits(5))
				// Like the public parsers, tolerate a position beyond
				// the history or a length beyond the key: take what
				// exists.
				if pos < history.n {
					h := history.at(pos)
					keyBuf = append(keyBuf, h[:min(size, len(h))]...)
				}
				if cur != nil {
					p := mark(PartHistory, from, uint64(pos))
					p.Len, p.Beyond = size, pos >= history.n
					if !p.Beyond {
						p.Str = history.at(pos)
					}
				}
			}
			from = r.Pos()
			prefix := len(keyBuf)
			keyBuf = r.AppendString(keyBuf, MaxKeyLen-len(keyBuf)+1)
			if cur != nil {
				mark(PartKey, from, uint64(prefix)).Str = string(keyBuf)
			}
			if r.Overflowed() {
				return changed, fail("key")
			}
			if len(keyBuf) > MaxKeyLen {
				return changed, fail("key longer than %d bytes", MaxKeyLen)
			}
			key = mem.str(keyBuf)
		} else {
			key = t.keyAt(index)
		}
		history.add(key)

		from = r.Pos()
		hasValue := r.Bool()
		if cur != nil {
			mark(PartValueFlag, from, b2u(hasValue))
		}
		if r.Overflowed() {
			return changed, fail("value flag")
		}
		var value []byte
		if hasValue {
			var bits uint64
			compressed := false
			if t.UserDataFixed {
				if t.UserDataSizeBits < 0 {
					return changed, fail("negative fixed value size %d bits", t.UserDataSizeBits)
				}
				bits = uint64(t.UserDataSizeBits)
			} else {
				if t.Flags&FlagCompressedValues != 0 {
					from = r.Pos()
					compressed = r.Bool()
					if cur != nil {
						mark(PartCompressed, from, b2u(compressed))
					}
				}
				from = r.Pos()
				if t.VarintBitCounts {
					bits = uint64(r.UBitVar()) * 8
				} else {
					bits = uint64(r.Bits(17)) * 8
				}
				if cur != nil {
					mark(PartSize, from, bits/8)
				}
				if r.Overflowed() {
					return changed, fail("value size")
				}
			}
			if bits > uint64(r.Remaining()) {
				return changed, fail("value of %d bits exceeds the %d bits left", bits, r.Remaining())
			}
			from = r.Pos()
			value = r.AppendBits(mem.take(int((bits+7)/8)), uint(bits))
			if cur != nil {
				mark(PartValue, from, uint64(len(value)))
			}
			if compressed {
				dec, err := decodeSnappyInto(mem, value, MaxValueSize)
				if err != nil {
					return changed, fail("compressed value: %v", err)
				}
				value = dec
			}
		}

		t.set(index, key, value)
		changed = append(changed, index)
		if cur != nil {
			cur.After, _ = t.Get(index)
			cur.End = r.Pos()
		}
	}
	return changed, nil
}

// keyHistory is the keys of one update's last historySize entries, oldest
// first (position 0), in a ring: adding one writes one string where
// shifting the rest down wrote thirty-one (while the collector marks, each
// with a write barrier; a Dota 2 signon adds some 7,000).
type keyHistory struct {
	keys  [historySize]string
	start int // where position 0 is in keys
	n     int // keys held
}

// at is the key at position pos < n.
func (h *keyHistory) at(pos int) string { return h.keys[(h.start+pos)%historySize] }

// add appends key, dropping the oldest when full.
func (h *keyHistory) add(key string) {
	if h.n < historySize {
		h.keys[h.n] = key
		h.n++
		return
	}
	h.keys[h.start] = key
	h.start = (h.start + 1) % historySize
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// keyAt is the key of the entry at index, "" for one never written.
func (t *Table) keyAt(index int32) string {
	if int(index) < len(t.Entries) && index >= 0 {
		return t.Entries[index].Key
	}
	return t.far[index].Key
}

// set writes the entry at index: key is the key it now has (the old one
// when the update sent none), value its value (nil for none).
func (t *Table) set(index int32, key string, value []byte) {
	if int(index) >= len(t.Entries)+denseGap || t.far[index].Index > 0 {
		if t.far == nil {
			t.far = map[int32]Entry{}
		}
		t.far[index] = Entry{Index: index, Key: key, Value: value}
		return
	}
	for int(index) >= len(t.Entries) {
		t.Entries = append(t.Entries, Entry{Index: -1})
	}
	// Field by field: a whole Entry assigned is a bulk write barrier while
	// the collector marks.
	e := &t.Entries[index]
	e.Index, e.Key, e.Value = index, key, value
}

// decodeSnappy decodes a snappy block, refusing declared lengths above max
// or beyond what the input could possibly expand to (a snappy element never
// yields more than 64 bytes per 3 input bytes), so a few corrupt bytes cannot
// force a large allocation.
func decodeSnappy(src []byte, max int) ([]byte, error) { return decodeSnappyInto(nil, src, max) }

// decodeSnappyInto is decodeSnappy into bytes from mem (a nil arena
// allocates them alone): an instance baseline's value is compressed on
// its own, a signon's hundreds each an allocation before.
func decodeSnappyInto(mem *arena, src []byte, max int) ([]byte, error) {
	n, err := snappy.DecodedLen(src)
	if err != nil {
		return nil, fmt.Errorf("snappy: %w", err)
	}
	if n > max {
		return nil, fmt.Errorf("snappy: decoded length %d exceeds limit %d", n, max)
	}
	if n > 22*len(src) {
		return nil, fmt.Errorf("snappy: decoded length %d impossible for %d input bytes", n, len(src))
	}
	out, err := snappy.Decode(mem.take(n)[:n], src)
	if err != nil {
		return nil, fmt.Errorf("snappy: %w", err)
	}
	return out, nil
}
