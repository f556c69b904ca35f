package stringtable

import (
	"fmt"
	"maps"

	"github.com/dembug/dembug/engine/lzss"
)

// Set holds the string tables of one demo, in creation order.
type Set struct {
	Tables []*Table
	byName map[string]*Table
}

// MaxTables is the most tables one demo may create between clears: the
// engine's network string-table limit (real replays create 12 to 20).
const MaxTables = 64

// Create adds t as the next table, setting t.Index to its creation order.
// A table with the same name as an earlier one shadows it in ByName. It
// fails past MaxTables.
func (s *Set) Create(t *Table) error {
	if len(s.Tables) >= MaxTables {
		return fmt.Errorf("string table %q would be table %d, past the limit of %d", t.Name, len(s.Tables)+1, MaxTables)
	}
	if s.byName == nil {
		s.byName = make(map[string]*Table)
	}
	t.Index = len(s.Tables)
	s.Tables = append(s.Tables, t)
	s.byName[t.Name] = t
	return nil
}

// ByID returns the table created i-th (the table_id of
// svc_UpdateStringTable), or nil.
func (s *Set) ByID(i int) *Table {
	if i < 0 || i >= len(s.Tables) {
		return nil
	}
	return s.Tables[i]
}

// ByName returns the most recently created table with the name, or nil.
func (s *Set) ByName(name string) *Table { return s.byName[name] }

// Reset removes all tables (svc_ClearAllStringTables).
func (s *Set) Reset() {
	clear(s.Tables)
	s.Tables = s.Tables[:0]
	clear(s.byName)
}

// Decompress returns the entry data of an svc_CreateStringTable message.
// Uncompressed data is returned as is. Compressed data starting with the
// "LZSS" magic is decoded with lzss.Decode (older demos), anything else as a
// snappy block. The output is capped at uncompressedSize when that is
// positive (the message's uncompressed_size), and at MaxDecompressed always.
func Decompress(data []byte, compressed bool, uncompressedSize int) ([]byte, error) {
	if !compressed {
		return data, nil
	}
	limit := MaxDecompressed
	if uncompressedSize > 0 && uncompressedSize < limit {
		limit = uncompressedSize
	}
	if lzss.IsCompressed(data) {
		out, err := lzss.Decode(data, limit)
		if err != nil {
			return nil, fmt.Errorf("string table data: %w", err)
		}
		return out, nil
	}
	out, err := decodeSnappy(data, limit)
	if err != nil {
		return nil, fmt.Errorf("string table data: %w", err)
	}
	return out, nil
}

// Clone returns a copy of the set that later updates of either leave the
// other unchanged. Keys and values are shared: an update replaces an
// entry's value, never writes into it.
func (s *Set) Clone() Set {
	c := Set{Tables: make([]*Table, len(s.Tables)), byName: make(map[string]*Table, len(s.byName))}
	for i, t := range s.Tables {
		ct := *t
		ct.Entries = append([]Entry(nil), t.Entries...)
		ct.far = maps.Clone(t.far)
		c.Tables[i] = &ct
	}
	for name, t := range s.byName {
		c.byName[name] = c.Tables[t.Index]
	}
	return c
}
