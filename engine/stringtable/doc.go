// Package stringtable keeps Source 2 network string tables and decodes the
// bit-packed entry updates carried by svc_CreateStringTable and
// svc_UpdateStringTable.
//
// An update is a sequence of entries, each:
//
//	bool        increment: index = previous + 1 (previous starts at -1), else
//	varuint32   a jump v: index = previous + v + 2
//	bool        has key, then
//	  bool      use history, then
//	    5 bits  position in the history of recent keys (oldest first)
//	    5 bits  length of that key's prefix to reuse
//	  string    zero-terminated rest of the key (the whole key without history)
//	bool        has value, then
//	  fixed-size tables: UserDataSizeBits bits, otherwise
//	    bool    compressed (only when Flags&1 is set)
//	    size    byte count: UBitVar if VarintBitCounts, else 17 bits
//	    bytes   the value, snappy-compressed if flagged
//
// The key history holds the keys of the last 32 entries of one update, every
// entry counted: one sent without a key contributes the key the entry
// already has. When full, the oldest is dropped and positions shift down.
// An entry sent without a value is left with none (its old value is
// cleared); one sent without a key keeps its key. docs/format.md gives the
// evidence for each rule.
//
// Files:
//
//	stringtable.go  Table, Entry, Apply: the tables and the entry-update decoder
//	walk.go         Walk, EntryWalk, Part: Apply's decode with every bit run explained
//	set.go          Set (tables by id and name), Decompress for snappy table data
//	restore.go      Restore, RestoreEntry, Truncate: set a table from a snapshot
//	encode.go       Encode: the inverse of Apply, for the writer and tests
//	arena.go        arena: shared blocks for the keys and values of big updates
package stringtable
