package stringtable

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// An entry's reads explained for a reader to follow (the debugger's
// string-table walk): what each read's bits are, and what they mean.

// Encoding names a read's group (index, key or value) and how it is
// encoded, per the table's settings.
func (k PartKind) Encoding(t *Table) (group, enc string) {
	switch k {
	case PartIncrement:
		return "index", "bit"
	case PartJump:
		return "index", "varuint32"
	case PartKeyFlag, PartHistoryFlag:
		return "key", "bit"
	case PartHistory:
		return "key", "5+5 bits"
	case PartKey:
		return "key", "string"
	case PartValueFlag, PartCompressed:
		return "value", "bit"
	case PartSize:
		if t.VarintBitCounts {
			return "value", "ubitvar"
		}
		return "value", "17 bits"
	case PartValue:
		if t.UserDataFixed {
			return "value", fmt.Sprintf("%d bits", t.UserDataSizeBits)
		}
		return "value", "bytes"
	}
	return "", ""
}

// Brief is read p's value in a few words.
func (e *EntryWalk) Brief(p *Part) string {
	brief, _ := e.words(p, nil)
	return brief
}

// Explain says what read p of the entry means, under the table's
// settings t, in a sentence.
func (e *EntryWalk) Explain(p *Part, t *Table) string {
	_, long := e.words(p, t)
	return long
}

// words is read p in a few words and in a sentence (the sentence under
// the table's settings t; with t nil, "" where the sentence needs them).
func (e *EntryWalk) words(p *Part, t *Table) (brief, long string) {
	switch p.Kind {
	case PartIncrement:
		if p.V == 1 {
			return fmt.Sprintf("1: %d + 1 = %d", e.Prev, e.Index), fmt.Sprintf("1: the next index, %d + 1 = %d", e.Prev, e.Index)
		}
		return "0: a jump follows", "0: not the next index; a jump follows"
	case PartJump:
		return fmt.Sprintf("%d: %d + %d + 2 = %d", p.V, e.Prev, p.V, e.Index),
			fmt.Sprintf("v = %d, a varint: previous + v + 2 = %d + %d + 2 = %d", p.V, e.Prev, p.V, e.Index)
	case PartKeyFlag:
		if p.V == 1 {
			return "1: a key follows", "1: a key follows"
		}
		return fmt.Sprintf("0: keeps %q", e.Before.Key), fmt.Sprintf("0: no key; the entry keeps %q, and that key enters the history", e.Before.Key)
	case PartHistoryFlag:
		if p.V == 1 {
			return "1: starts with a recent key's prefix", "1: the key starts with a prefix of one of the last 32 entries' keys"
		}
		return "0: the whole key follows", "0: the whole key follows"
	case PartHistory:
		if p.Beyond {
			return fmt.Sprintf("key %d, %d bytes: past the history", p.V, p.Len),
				fmt.Sprintf("position %d (5 bits), length %d (5 bits): past the keys the history holds, so nothing is borrowed (as the public parsers tolerate)", p.V, p.Len)
		}
		return fmt.Sprintf("key %d, %d bytes: %q", p.V, p.Len, prefixOf(p.Str, p.Len)),
			fmt.Sprintf("position %d (5 bits), length %d (5 bits): borrows %q from %q", p.V, p.Len, prefixOf(p.Str, p.Len), p.Str)
	case PartKey:
		rest := p.Str[min(int(p.V), len(p.Str)):]
		if p.V > 0 {
			return fmt.Sprintf("%q", p.Str), fmt.Sprintf("%q, zero-terminated: the key is %q + %q = %q", rest, p.Str[:p.V], rest, p.Str)
		}
		return fmt.Sprintf("%q", p.Str), fmt.Sprintf("%q, zero-terminated", p.Str)
	case PartValueFlag:
		if p.V == 1 {
			return "1: a value follows", "1: a value follows"
		}
		if e.Before.Value != nil {
			return "0: the value is cleared", fmt.Sprintf("0: no value; the old one (%s) is cleared", count(len(e.Before.Value), "byte"))
		}
		return "0: no value", "0: no value"
	case PartCompressed:
		if p.V == 1 {
			return "1: snappy-compressed", "1: the value is snappy-compressed (the table's flags have bit 1)"
		}
		return "0: not compressed", "0: the value is stored as is (the table's flags have bit 1, so the bit is there)"
	case PartSize:
		return count(int(p.V), "byte"), e.sizeSentence(p, t)
	case PartValue:
		return shortHex(e.After.Value, 16), e.valueSentence(p, t)
	}
	return "", strings.TrimSpace(p.Kind.String())
}

// sizeSentence says how a value's size was read, under the table's
// settings t ("" without them).
func (e *EntryWalk) sizeSentence(p *Part, t *Table) string {
	switch {
	case t == nil:
		return ""
	case t.VarintBitCounts:
		return fmt.Sprintf("%s, a ubitvar (the table uses varint bit counts)", count(int(p.V), "byte"))
	}
	return fmt.Sprintf("%s, in 17 bits (the table does not use varint bit counts)", count(int(p.V), "byte"))
}

// valueSentence says what a value's bytes are, under the table's settings
// t ("" without them).
func (e *EntryWalk) valueSentence(p *Part, t *Table) string {
	switch {
	case t == nil:
		return ""
	case t.UserDataFixed:
		return fmt.Sprintf("%d bits, the table's fixed size: %s", t.UserDataSizeBits, shortHex(e.After.Value, 24))
	}
	v := shortHex(e.After.Value, 24)
	if int(p.V) != len(e.After.Value) {
		return fmt.Sprintf("%s compressed, %s decompressed: %s", count(int(p.V), "byte"), count(len(e.After.Value), "byte"), v)
	}
	return v
}

// prefixOf is s cut to n bytes.
func prefixOf(s string, n int) string { return s[:min(n, len(s))] }

// shortHex spells up to max bytes of b in hex, "…" after a cut.
func shortHex(b []byte, max int) string {
	if b == nil {
		return "(none)"
	}
	s := hex.EncodeToString(b[:min(len(b), max)])
	if len(b) > max {
		s += "…"
	}
	return s
}

// count spells n with its noun, singular for 1: "1 byte", "3 bytes".
func count(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// ValueHex spells up to max bytes of the entry's value in hex ("…" after
// a cut, "(none)" for no value).
func (e Entry) ValueHex(max int) string { return shortHex(e.Value, max) }
