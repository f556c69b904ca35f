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
		idx := int32(i)
		old, ok := t.Get(idx)
		if ok && old.Key == it.Key && bytes.Equal(old.Value, it.Value) && (old.Value == nil) == (it.Value == nil) {
			continue
		}
		t.set(idx, it.Key, it.Value)
		changed = append(changed, idx)
	}
	n := int32(min(len(items), MaxEntries))
	for i := n; i < int32(len(t.Entries)); i++ {
		if t.Entries[i].Index >= 0 {
			changed = append(changed, i)
		}
	}
	if int(n) < len(t.Entries) {
		clear(t.Entries[n:])
		t.Entries = t.Entries[:n]
	}
	for i := range t.far {
		if i >= n {
			delete(t.far, i)
			changed = append(changed, i)
		}
	}
	return changed
}
