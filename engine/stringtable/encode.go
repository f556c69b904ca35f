package stringtable

import (
	"fmt"
	"strings"

	"github.com/dembug/dembug/engine/bitio"
)

// Encode writes entries in the format Apply reads with t's settings, so
// that t.Apply(Encode(entries, t), len(entries)) reproduces them on t as it
// is now. Each entry writes its key when Key is non-empty (an empty Key
// keeps the key t has at that index) and its value when Value is non-nil (a
// nil Value clears the entry's value). Indexes are written as increments
// where consecutive and as jumps (previous + v + 2) otherwise; keys reuse the
// longest prefix (up to 31 bytes) of a recent entry's key, the history
// holding every entry's key as Apply keeps it. Values are never compressed.
//
// Encode panics on entries Apply could not read back: indexes that do not
// increase, or one that is negative or at least MaxEntries; a key
// containing a zero byte or longer than MaxKeyLen; for fixed-size tables a
// value of the wrong length; otherwise a value too long for its size field.
func Encode(entries []Entry, t *Table) []byte {
	var w bitio.Writer
	index := int32(-1)
	var history keyHistory
	for i, e := range entries {
		switch {
		case e.Index < 0 || e.Index >= MaxEntries:
			panic(fmt.Sprintf("stringtable.Encode: entry %d: index %d out of range", i, e.Index))
		case e.Index == index+1:
			w.Bool(true)
		case e.Index <= index:
			panic(fmt.Sprintf("stringtable.Encode: entry %d: index %d after %d: indexes must increase", i, e.Index, index))
		default:
			w.Bool(false)
			w.VarUint32(uint32(e.Index - index - 2))
		}
		index = e.Index

		w.Bool(e.Key != "")
		if e.Key != "" {
			if strings.IndexByte(e.Key, 0) >= 0 || len(e.Key) > MaxKeyLen {
				panic(fmt.Sprintf("stringtable.Encode: entry %d: key %.40q has a zero byte or exceeds %d bytes", i, e.Key, MaxKeyLen))
			}
			pos, n := bestPrefix(&history, e.Key)
			if n >= 3 {
				w.Bool(true)
				w.Bits(uint64(pos), 5)
				w.Bits(uint64(n), 5)
				w.String(e.Key[n:])
			} else {
				w.Bool(false)
				w.String(e.Key)
			}
		}
		key := e.Key
		if key == "" {
			key = t.keyAt(e.Index)
		}
		history.add(key)

		w.Bool(e.Value != nil)
		if e.Value != nil {
			writeValue(&w, i, e.Value, t)
		}
	}
	return w.Bytes()
}

// bestPrefix finds the history key sharing the longest prefix (at most 31
// bytes, what 5 bits can say) with key.
func bestPrefix(history *keyHistory, key string) (pos, n int) {
	for p := range history.n {
		h := history.at(p)
		l := 0
		for l < 31 && l < len(h) && l < len(key) && h[l] == key[l] {
			l++
		}
		if l > n {
			pos, n = p, l
		}
	}
	return pos, n
}

func writeValue(w *bitio.Writer, i int, v []byte, t *Table) {
	if t.UserDataFixed {
		bits := int(t.UserDataSizeBits)
		if bits < 0 || len(v) != (bits+7)/8 {
			panic(fmt.Sprintf("stringtable.Encode: entry %d: value is %d bytes, fixed size is %d bits", i, len(v), bits))
		}
		w.RawBytes(v[:bits/8])
		if r := bits % 8; r != 0 {
			w.Bits(uint64(v[bits/8]), uint(r))
		}
		return
	}
	if t.Flags&FlagCompressedValues != 0 {
		w.Bool(false)
	}
	if t.VarintBitCounts {
		if uint64(len(v)) >= 1<<32 {
			panic(fmt.Sprintf("stringtable.Encode: entry %d: value of %d bytes too long", i, len(v)))
		}
		w.UBitVar(uint32(len(v)))
	} else {
		if len(v) >= 1<<17 {
			panic(fmt.Sprintf("stringtable.Encode: entry %d: value of %d bytes exceeds the 17-bit size field", i, len(v)))
		}
		w.Bits(uint64(len(v)), 17)
	}
	w.RawBytes(v)
}
