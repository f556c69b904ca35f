package stringtable

import "bytes"

// Restore sets the table to the items of a DEM_StringTables snapshot: item
// i becomes entry i, with its key and value (nil for none), and entries
// past the last item are removed. It returns the indexes whose key or value
// changed or that were removed (the written ones in order, then any far
// ones removed); an entry the snapshot repeats as it is stays untouched.
func (t *Table) Restore(items []Entry) (changed []int32) {
	for i, it := range items {
		if i >= MaxEntries {
			break
		}
		if t.RestoreEntry(int32(i), []byte(it.Key), it.Value, it.Value != nil) {
			changed = append(changed, int32(i))
		}
	}
	return append(changed, t.Truncate(int32(min(len(items), MaxEntries)))...)
}

// RestoreEntry sets entry i to a snapshot item's key and value (none
// without hasValue), unless it holds them already, and reports whether it
// changed. Key and value are copied: they may point into a reused buffer,
// and an unchanged entry costs no allocation.
func (t *Table) RestoreEntry(i int32, key, value []byte, hasValue bool) bool {
	if i < 0 || i >= MaxEntries {
		return false
	}
	old, ok := t.Get(i)
	if ok && old.Key == string(key) && (old.Value != nil) == hasValue && bytes.Equal(old.Value, value) {
		return false
	}
	var v []byte
	if hasValue {
		v = append(make([]byte, 0, len(value)), value...)
	}
	t.set(i, string(key), v)
	return true
}

// Truncate removes the entries at n and past it, and returns their indexes
// (the dense ones in order, then the far ones).
func (t *Table) Truncate(n int32) (removed []int32) {
	for i := n; i < int32(len(t.Entries)); i++ {
		if t.Entries[i].Index >= 0 {
			removed = append(removed, i)
		}
	}
	if int(n) < len(t.Entries) {
		clear(t.Entries[max(n, 0):])
		t.Entries = t.Entries[:max(n, 0)]
	}
	for i := range t.far {
		if i >= n {
			delete(t.far, i)
			removed = append(removed, i)
		}
	}
	return removed
}
