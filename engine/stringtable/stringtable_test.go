package stringtable

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/lzss"
	"github.com/golang/snappy"
	"pgregory.net/rapid"
)

// The hand-packed tests spell the stream as '0'/'1' characters in the
// order the bits are read, independent of bitio.Writer.

// num spells the n-bit number v, lowest bit first.
func num(v uint64, n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteByte('0' + byte(v>>i&1))
	}
	return b.String()
}

// str spells the bytes of s and a zero terminator.
func str(s string) string { return raw([]byte(s)) + num(0, 8) }

// raw spells bytes without a terminator.
func raw(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		sb.WriteString(num(uint64(c), 8))
	}
	return sb.String()
}

// varint spells a base-128 varint.
func varint(v uint64) string {
	var sb strings.Builder
	for v >= 0x80 {
		sb.WriteString(num(v&0x7f|0x80, 8))
		v >>= 7
	}
	sb.WriteString(num(v, 8))
	return sb.String()
}

// pack turns a spelled stream into bytes, first bit in the lowest position.
func pack(parts ...string) []byte {
	s := strings.Join(parts, "")
	out := make([]byte, (len(s)+7)/8)
	for i, c := range s {
		switch c {
		case '1':
			out[i/8] |= 1 << (i % 8)
		case '0':
		default:
			panic(fmt.Sprintf("bad bit %q", c))
		}
	}
	return out
}

const (
	T = "1"
	F = "0"
)

func apply(t *testing.T, tab *Table, data []byte, n int) []int32 {
	t.Helper()
	changed, err := tab.Apply(data, n)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return changed
}

// A jump (increment bit 0, varint v) lands at the previous index + v + 2,
// not at v + 1: the two agree only on a message's first entry.
func TestJumpIsRelative(t *testing.T) {
	tab := &Table{Name: "t"}
	data := pack(
		T, T, F, str("a"), F, // index 0 by increment, key "a", no value
		F, varint(3), T, F, str("b"), F, // jump 3 from 0: 0 + 3 + 2 = 5, key "b"
		T, F, F, // index 6 by increment, no key, no value
		F, varint(0), F, F, // jump 0 from 6: 8 (the absolute rule says 1)
	)
	changed := apply(t, tab, data, 4)
	if want := []int32{0, 5, 6, 8}; !reflect.DeepEqual(changed, want) {
		t.Fatalf("changed = %v, want %v", changed, want)
	}
	if len(tab.Entries) != 9 {
		t.Fatalf("len(Entries) = %d, want 9", len(tab.Entries))
	}
	want := []Entry{{0, "a", nil}, {-1, "", nil}, {-1, "", nil}, {-1, "", nil}, {-1, "", nil}, {5, "b", nil}, {6, "", nil}, {-1, "", nil}, {8, "", nil}}
	if !reflect.DeepEqual(tab.Entries, want) {
		t.Fatalf("Entries = %+v\nwant %+v", tab.Entries, want)
	}
	if _, ok := tab.Get(3); ok {
		t.Error("Get(3) reports a never-written slot")
	}
	if e, ok := tab.ByKey("b"); !ok || e.Index != 5 {
		t.Errorf("ByKey(b) = %+v, %v", e, ok)
	}
	// A message's first entry jumps from -1: v + 1.
	if got := apply(t, tab, pack(F, varint(2), F, F), 1); !reflect.DeepEqual(got, []int32{3}) {
		t.Errorf("first-entry jump 2 landed at %v, want [3]", got)
	}
}

func TestHistoryKey(t *testing.T) {
	tab := &Table{Name: "t"}
	data := pack(
		T, T, F, str("hello"), F,
		// history position 0, 3 bytes ("hel") + "p"
		T, T, T, num(0, 5), num(3, 5), str("p"), F,
		// position 1 ("help"), length 31 > len: the whole key + "er"
		T, T, T, num(1, 5), num(31, 5), str("er"), F,
		// position 9 beyond the history: just the suffix
		T, T, T, num(9, 5), num(2, 5), str("x"), F,
	)
	apply(t, tab, data, 4)
	var keys []string
	for _, e := range tab.Entries {
		keys = append(keys, e.Key)
	}
	if want := []string{"hello", "help", "helper", "x"}; !reflect.DeepEqual(keys, want) {
		t.Fatalf("keys = %q, want %q", keys, want)
	}
}

// TestHistoryShift checks that the history keeps the last 32 keys, oldest
// at position 0: after 33 keys, position 0 is the second key.
func TestHistoryShift(t *testing.T) {
	tab := &Table{Name: "t"}
	var parts []string
	for i := range 33 {
		parts = append(parts, T, T, F, str(fmt.Sprintf("k%02d", i)), F)
	}
	parts = append(parts, T, T, T, num(0, 5), num(3, 5), str("!"), F)
	parts = append(parts, T, T, T, num(31, 5), num(3, 5), str("?"), F)
	// An entry without a key enters the history too, with the key it has
	// (none here: index 35 was never written), so position 31 is "".
	parts = append(parts, T, F, F)
	parts = append(parts, T, T, T, num(31, 5), num(3, 5), str("."), F)
	apply(t, tab, pack(parts...), 37)
	got := []string{tab.Entries[33].Key, tab.Entries[34].Key, tab.Entries[36].Key}
	// After k00..k32 the history is k01..k32; reading "k01!" drops k01,
	// so position 31 is "k01!" itself.
	if want := []string{"k01!", "k01?", "."}; !reflect.DeepEqual(got, want) {
		t.Fatalf("keys = %q, want %q", got, want)
	}
}

func TestFixedSizeValue(t *testing.T) {
	tab := &Table{Name: "fixed", UserDataFixed: true, UserDataSize: 2, UserDataSizeBits: 10}
	data := pack(
		T, T, F, str("k"), T, num(0x2ab, 10),
		T, F, T, num(0x001, 10),
		T, F, F,
	)
	apply(t, tab, data, 3)
	if got := tab.Entries[0].Value; !bytes.Equal(got, []byte{0xab, 0x02}) {
		t.Errorf("value 0 = %x, want ab02", got)
	}
	if got := tab.Entries[1].Value; !bytes.Equal(got, []byte{0x01, 0x00}) {
		t.Errorf("value 1 = %x, want 0100", got)
	}
	if tab.Entries[2].Value != nil {
		t.Errorf("value 2 = %x, want none", tab.Entries[2].Value)
	}
}

func TestSeventeenBitSize(t *testing.T) {
	tab := &Table{Name: "t"}
	data := pack(T, F, T, num(3, 17), raw([]byte("xyz")))
	apply(t, tab, data, 1)
	if got := string(tab.Entries[0].Value); got != "xyz" {
		t.Fatalf("value = %q", got)
	}
}

func TestVarintBitCounts(t *testing.T) {
	tab := &Table{Name: "t", VarintBitCounts: true}
	v20 := bytes.Repeat([]byte{0x5a}, 20)
	v300 := bytes.Repeat([]byte{0xc3}, 300)
	data := pack(
		// 5 bytes: UBitVar short form, 6 bits.
		T, F, T, num(5, 6), raw([]byte("abcde")),
		// 20 = 0x14: prefix low nibble 4 | 0x10, then 4 bits of 20>>4.
		T, F, T, num(0x14, 6), num(1, 4), raw(v20),
		// 300 = 0x12c: low nibble 0xc | 0x20, then 8 bits of 300>>4.
		T, F, T, num(0x2c, 6), num(300>>4, 8), raw(v300),
	)
	apply(t, tab, data, 3)
	if got := string(tab.Entries[0].Value); got != "abcde" {
		t.Errorf("value 0 = %q", got)
	}
	if !bytes.Equal(tab.Entries[1].Value, v20) || !bytes.Equal(tab.Entries[2].Value, v300) {
		t.Errorf("long values differ")
	}
}

func TestCompressedValue(t *testing.T) {
	tab := &Table{Name: "t", Flags: 1}
	plain := []byte(strings.Repeat("modifier ", 20))
	comp := snappy.Encode(nil, plain)
	data := pack(
		T, F, T, T, num(uint64(len(comp)), 17), raw(comp), // compressed
		T, F, T, F, num(2, 17), raw([]byte("hi")), // flag bit present, not compressed
	)
	apply(t, tab, data, 2)
	if !bytes.Equal(tab.Entries[0].Value, plain) {
		t.Errorf("value 0 = %q", tab.Entries[0].Value)
	}
	if got := string(tab.Entries[1].Value); got != "hi" {
		t.Errorf("value 1 = %q", got)
	}

	// With varint bit counts the compressed bit still precedes the size.
	tab2 := &Table{Name: "t", VarintBitCounts: true, Flags: 1}
	data2 := pack(T, F, T, T, num(uint64(len(comp))&15|0x10, 6), num(uint64(len(comp))>>4, 4), raw(comp))
	if len(comp) >= 256 {
		t.Fatal("test assumes a short compressed value")
	}
	apply(t, tab2, data2, 1)
	if !bytes.Equal(tab2.Entries[0].Value, plain) {
		t.Errorf("varint compressed value = %q", tab2.Entries[0].Value)
	}

	bad := pack(T, F, T, T, num(3, 17), raw([]byte{0xff, 0xff, 0xff}))
	_, err := (&Table{Name: "t", Flags: 1}).Apply(bad, 1)
	if err == nil || !strings.Contains(err.Error(), "snappy") {
		t.Fatalf("bad snappy value: err = %v", err)
	}
}

// An entry sent without a key keeps its key and contributes it to the key
// history: position 0 is entry 0's key, though the update did not send it
// (counting only sent keys, position 0 would be empty and the key "2").
func TestHistoryCountsKeylessEntries(t *testing.T) {
	tab := &Table{Name: "t"}
	apply(t, tab, pack(T, T, F, str("alpha"), F, T, T, F, str("beta"), F), 2)
	changed := apply(t, tab, pack(
		T, F, F, // index 0, key kept ("alpha"), no value
		T, T, T, num(0, 5), num(5, 5), str("2"), F, // "alpha"[:5] + "2"
	), 2)
	if !reflect.DeepEqual(changed, []int32{0, 1}) {
		t.Fatalf("changed = %v", changed)
	}
	if k0, k1 := tab.Entries[0].Key, tab.Entries[1].Key; k0 != "alpha" || k1 != "alpha2" {
		t.Fatalf("keys = %q, %q, want alpha, alpha2", k0, k1)
	}
}

// An update without a value leaves the entry with none; one without a key
// keeps the key.
func TestUpdateKeepsKeyClearsValue(t *testing.T) {
	tab := &Table{Name: "t"}
	apply(t, tab, pack(T, T, F, str("name"), T, num(1, 17), raw([]byte("A"))), 1)
	// Value only: the key stays.
	apply(t, tab, pack(T, F, T, num(1, 17), raw([]byte("B"))), 1)
	if e := tab.Entries[0]; e.Key != "name" || string(e.Value) != "B" {
		t.Fatalf("after value update: %+v", e)
	}
	// Key only: the value goes.
	apply(t, tab, pack(T, T, F, str("other"), F), 1)
	if e := tab.Entries[0]; e.Key != "other" || e.Value != nil {
		t.Fatalf("after key update: %+v, want key other and no value", e)
	}
	apply(t, tab, pack(T, F, T, num(1, 17), raw([]byte("C"))), 1)
	// Neither key nor value: the key stays, the value goes.
	apply(t, tab, pack(T, F, F), 1)
	if e := tab.Entries[0]; e.Key != "other" || e.Value != nil {
		t.Fatalf("after a bare update: %+v, want key other and no value", e)
	}
	// An empty value is a value, of no bytes.
	apply(t, tab, pack(T, F, T, num(0, 17)), 1)
	if e := tab.Entries[0]; e.Value == nil || len(e.Value) != 0 {
		t.Fatalf("after empty value: %+v", e)
	}
}

func TestTruncatedKeepsEarlierEntries(t *testing.T) {
	tab := &Table{Name: "userinfo"}
	entries := []Entry{{0, "zero", []byte("v0")}, {1, "one", []byte("v1")}, {2, "two", []byte("value two")}}
	full := Encode(entries, tab)
	// Cut inside the third entry's value.
	data := full[:len(full)-4]
	changed, err := tab.Apply(data, 3)
	if err == nil {
		t.Fatal("no error for truncated data")
	}
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("error %T is not *Error", err)
	}
	if se.Entry != 2 || se.Index != 2 {
		t.Errorf("Entry, Index = %d, %d, want 2, 2", se.Entry, se.Index)
	}
	if !strings.Contains(err.Error(), "entry 2") || !strings.Contains(err.Error(), "bit 0x") {
		t.Errorf("error %q lacks entry number or bit offset", err)
	}
	if !strings.Contains(err.Error(), bitio.Offset(se.Bit)) {
		t.Errorf("error %q lacks start offset %s", err, bitio.Offset(se.Bit))
	}
	if se.At <= se.Bit {
		t.Errorf("failure offset %d not after entry start %d", se.At, se.Bit)
	}
	if !reflect.DeepEqual(changed, []int32{0, 1}) {
		t.Errorf("changed = %v, want [0 1]", changed)
	}
	if len(tab.Entries) != 2 || tab.Entries[1].Key != "one" {
		t.Errorf("Entries = %+v", tab.Entries)
	}

	// Every shorter prefix fails cleanly, keeping what it decoded.
	for n := 1; n < len(full); n++ {
		tab := &Table{Name: "t"}
		ch, err := tab.Apply(full[:n], 3)
		if err == nil {
			t.Fatalf("prefix %d: no error", n)
		}
		for i, idx := range ch {
			if got, ok := tab.Get(idx); !ok || !reflect.DeepEqual(got, entries[i]) {
				t.Fatalf("prefix %d: entry %d = %+v, want %+v", n, i, got, entries[i])
			}
		}
	}
}

func TestApplyErrors(t *testing.T) {
	long := strings.Repeat("k", MaxKeyLen+1)
	tests := []struct {
		name    string
		tab     Table
		data    []byte
		n       int
		contain string
	}{
		{"index out of range", Table{}, pack(F, varint(MaxEntries), F, F), 1, "out of range"},
		{"key too long", Table{}, pack(T, T, F, str(long), F), 1, "key longer"},
		{"unterminated key", Table{}, pack(T, T, F, raw([]byte("abc"))), 1, "key"},
		{"value beyond data", Table{}, pack(T, F, T, num(100, 17), raw([]byte("x"))), 1, "exceeds"},
		{"huge fixed value", Table{UserDataFixed: true, UserDataSizeBits: 1 << 30}, pack(T, F, T), 1, "exceeds"},
		{"huge varint value", Table{VarintBitCounts: true}, pack(T, F, T, num(0x3f, 6), num(1<<28-1, 28)), 1, "exceeds"},
		{"negative count", Table{}, pack(T, F, F), -1, "negative"},
		{"more entries than data", Table{}, pack(T, F, F), 5, "read past end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.tab.Name = tt.name
			_, err := tt.tab.Apply(tt.data, tt.n)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.contain) {
				t.Fatalf("error %q does not mention %q", err, tt.contain)
			}
			if tt.n >= 0 && !strings.Contains(err.Error(), "bit 0x") {
				t.Fatalf("error %q lacks a bit offset", err)
			}
		})
	}
}

func TestEmptyDataIsNoUpdate(t *testing.T) {
	tab := &Table{Name: "t"}
	changed, err := tab.Apply(nil, 10)
	if err != nil || changed != nil || tab.Entries != nil {
		t.Fatalf("Apply(nil, 10) = %v, %v; entries %v", changed, err, tab.Entries)
	}
}

// tableGen draws table settings.
func tableGen(t *rapid.T) *Table {
	tab := &Table{Name: "gen"}
	if rapid.Bool().Draw(t, "fixed") {
		tab.UserDataFixed = true
		tab.UserDataSizeBits = int32(rapid.IntRange(0, 70).Draw(t, "bits"))
		tab.UserDataSize = (tab.UserDataSizeBits + 7) / 8
	} else {
		tab.Flags = int32(rapid.IntRange(0, 3).Draw(t, "flags"))
		tab.VarintBitCounts = rapid.Bool().Draw(t, "varint")
	}
	return tab
}

// entriesGen draws entries with ascending indexes that Encode accepts.
func entriesGen(t *rapid.T, tab *Table) []Entry {
	n := rapid.IntRange(0, 60).Draw(t, "n")
	var out []Entry
	idx := int32(-1)
	prefixes := []string{"", "models/heroes/", "particles/", "k"}
	for i := range n {
		step := int32(1)
		if rapid.IntRange(0, 3).Draw(t, "jump") == 0 {
			step += int32(rapid.IntRange(1, 5000).Draw(t, "gap"))
		}
		idx += step
		e := Entry{Index: idx}
		if rapid.Bool().Draw(t, fmt.Sprintf("haskey%d", i)) {
			p := rapid.SampledFrom(prefixes).Draw(t, "prefix")
			suffix := rapid.StringOfN(rapid.RuneFrom(nil, keyRunes), 0, 40, -1).Draw(t, "suffix")
			e.Key = p + suffix
		}
		if rapid.Bool().Draw(t, fmt.Sprintf("hasvalue%d", i)) {
			if tab.UserDataFixed {
				bits := int(tab.UserDataSizeBits)
				e.Value = rapid.SliceOfN(rapid.Byte(), (bits+7)/8, (bits+7)/8).Draw(t, "fixed value")
				if r := bits % 8; r != 0 {
					e.Value[len(e.Value)-1] &= 1<<r - 1
				}
			} else {
				e.Value = rapid.SliceOfN(rapid.Byte(), 0, 300).Draw(t, "value")
			}
		}
		out = append(out, e)
	}
	return out
}

// keyRunes are printable, non-zero runes, including multi-byte ones.
var keyRunes = &unicode.RangeTable{R16: []unicode.Range16{
	{Lo: 0x20, Hi: 0x7e, Stride: 1},
	{Lo: 0xe0, Hi: 0xff, Stride: 1},
	{Lo: 0x4e00, Hi: 0x4e20, Stride: 1},
}}

func TestEncodeApplyRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		settings := tableGen(t)
		entries := entriesGen(t, settings)
		data := Encode(entries, settings)

		tab := *settings
		changed, err := tab.Apply(data, len(entries))
		if err != nil {
			t.Fatalf("Apply: %v", err)
		}
		if len(changed) != len(entries) {
			t.Fatalf("changed %d entries, want %d", len(changed), len(entries))
		}
		for i, e := range entries {
			if changed[i] != e.Index {
				t.Fatalf("changed[%d] = %d, want %d", i, changed[i], e.Index)
			}
			got, ok := tab.Get(e.Index)
			if !ok || !reflect.DeepEqual(got, e) {
				t.Fatalf("entry %d = %+v, want %+v", i, got, e)
			}
		}
		if written := tab.Len(); written != len(entries) {
			t.Fatalf("%d slots written, want %d", written, len(entries))
		}
	})
}

func TestEncodePanicsOnUnencodable(t *testing.T) {
	for name, tc := range map[string]struct {
		e   []Entry
		tab Table
	}{
		"index 0 not first": {[]Entry{{Index: 3}, {Index: 0}}, Table{}},
		"index repeated":    {[]Entry{{Index: 3}, {Index: 3}}, Table{}},
		"negative index":    {[]Entry{{Index: -2}}, Table{}},
		"zero in key":       {[]Entry{{Index: 0, Key: "a\x00b"}}, Table{}},
		"fixed mismatch":    {[]Entry{{Index: 0, Value: []byte{1}}}, Table{UserDataFixed: true, UserDataSizeBits: 16}},
		"value too long":    {[]Entry{{Index: 0, Value: make([]byte, 1<<17)}}, Table{}},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			Encode(tc.e, &tc.tab)
		})
	}
}

func TestSet(t *testing.T) {
	var s Set
	a, b, a2 := &Table{Name: "a"}, &Table{Name: "b"}, &Table{Name: "a"}
	s.Create(a)
	s.Create(b)
	if a.Index != 0 || b.Index != 1 {
		t.Fatalf("indexes %d %d", a.Index, b.Index)
	}
	if s.ByID(1) != b || s.ByID(2) != nil || s.ByID(-1) != nil {
		t.Fatal("ByID")
	}
	if s.ByName("a") != a || s.ByName("zz") != nil {
		t.Fatal("ByName")
	}
	s.Create(a2)
	if s.ByName("a") != a2 || s.ByID(0) != a {
		t.Fatal("duplicate name")
	}
	s.Reset()
	if len(s.Tables) != 0 || s.ByName("b") != nil {
		t.Fatal("Reset")
	}
}

func TestDecompress(t *testing.T) {
	plain := bytes.Repeat([]byte("instancebaseline "), 40)

	got, err := Decompress(plain, false, 0)
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("uncompressed: %v", err)
	}
	got, err = Decompress(snappy.Encode(nil, plain), true, len(plain))
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("snappy: %v", err)
	}
	got, err = Decompress(lzss.Encode(plain), true, len(plain))
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("lzss: %v", err)
	}
	got, err = Decompress(lzss.Encode(plain), true, 0)
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("lzss without declared size: %v", err)
	}
	if _, err := Decompress(snappy.Encode(nil, plain), true, len(plain)-1); err == nil {
		t.Error("snappy over the declared size accepted")
	}
	if _, err := Decompress(lzss.Encode(plain), true, 10); err == nil || !strings.Contains(err.Error(), "byte") {
		t.Errorf("lzss over the declared size: %v", err)
	}
	if _, err := Decompress([]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, true, 0); err == nil {
		t.Error("snappy bomb header accepted")
	}
	if _, err := Decompress([]byte("LZSS\x01"), true, 0); err == nil {
		t.Error("truncated lzss accepted")
	}
}

func FuzzApply(f *testing.F) {
	f.Add(Encode([]Entry{{0, "a", nil}, {5, "abc", []byte("value")}}, &Table{}), 2, byte(0), int32(0))
	f.Add(Encode([]Entry{{0, "models/a", []byte{1, 2}}, {1, "models/b", []byte{3, 4}}}, &Table{UserDataFixed: true, UserDataSizeBits: 12}), 2, byte(1), int32(12))
	f.Add(pack(T, F, T, T, num(5, 17), raw(snappy.Encode(nil, []byte("hello")))), 1, byte(2), int32(0))
	f.Add(pack(T, T, T, num(0, 5), num(3, 5), str("x"), T, num(0x14, 6), num(1, 4)), 3, byte(4), int32(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff}, 100, byte(7), int32(1<<30))
	f.Fuzz(func(t *testing.T, data []byte, n int, mode byte, bits int32) {
		n = max(min(n, 1<<16), -1)
		tab := &Table{
			Name:             "fuzz",
			UserDataFixed:    mode&1 != 0,
			UserDataSizeBits: bits,
			Flags:            int32(mode >> 1 & 1),
			VarintBitCounts:  mode&4 != 0,
		}
		walked := tab.Copy()
		changed, err := tab.Apply(data, n)
		for _, i := range changed {
			if _, ok := tab.Get(i); !ok {
				t.Fatalf("changed index %d not written", i)
			}
		}
		// Walk reads the same: the same error, an entry per change (and
		// the failing one), its reads within the data.
		w, werr := walked.Walk(data, n)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("Apply: %v; Walk: %v", err, werr)
		}
		if full := len(w) - len(changed); len(data) > 0 && n >= 0 && (full < 0 || full > 1 || full == 1 && err == nil) {
			t.Fatalf("walked %d entries for %d changes (err %v)", len(w), len(changed), err)
		}
		for _, e := range w {
			for _, p := range e.Parts {
				if p.Start+p.Bits > uint(len(data))*8 {
					t.Fatalf("%s read at %d+%d past %d bits", p.Kind, p.Start, p.Bits, len(data)*8)
				}
			}
		}
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not *Error: %v", err, err)
			}
			if n >= 0 && (se.At > uint(len(data))*8 || se.Entry != len(changed)) {
				t.Fatalf("inconsistent error %+v after %d changes", se, len(changed))
			}
		} else if len(data) > 0 && len(changed) != max(n, 0) {
			t.Fatalf("changed %d of %d", len(changed), n)
		}
		if len(tab.Entries) > MaxEntries {
			t.Fatalf("%d entries", len(tab.Entries))
		}
	})
}

// TestFarIndexCostsOneEntry: an entry far past the last one is kept on its
// own, not by growing the table to its index; it reads back like any other.
func TestFarIndexCostsOneEntry(t *testing.T) {
	tab := &Table{Name: "t", VarintBitCounts: true}
	entries := []Entry{{Index: 0, Key: "a"}, {Index: 1<<20 - 2, Key: "far", Value: []byte{1}}}
	if _, err := tab.Apply(Encode(entries, tab), len(entries)); err != nil {
		t.Fatal(err)
	}
	if len(tab.Entries) > 1+denseGap {
		t.Fatalf("Entries grew to %d for two entries", len(tab.Entries))
	}
	for _, e := range entries {
		if got, ok := tab.Get(e.Index); !ok || !reflect.DeepEqual(got, e) {
			t.Fatalf("Get(%d) = %+v, %v; want %+v", e.Index, got, ok, e)
		}
	}
	if e, ok := tab.ByKey("far"); !ok || e.Index != 1<<20-2 {
		t.Fatalf("ByKey(far) = %+v, %v", e, ok)
	}
	if tab.Len() != 2 {
		t.Fatalf("Len = %d, want 2", tab.Len())
	}
	// An update of the far entry changes it in place.
	upd := []Entry{{Index: 1<<20 - 2, Value: []byte{2}}}
	if _, err := tab.Apply(Encode(upd, tab), 1); err != nil {
		t.Fatal(err)
	}
	if e, _ := tab.Get(1<<20 - 2); e.Key != "far" || e.Value[0] != 2 {
		t.Fatalf("after the update: %+v", e)
	}
	c := (&Set{Tables: []*Table{tab}}).Clone()
	tab.far[1<<20-2] = Entry{}
	if e, _ := c.Tables[0].Get(1<<20 - 2); e.Key != "far" {
		t.Fatalf("the clone shares far entries: %+v", e)
	}
}

func TestSetRefusesTablesPastTheLimit(t *testing.T) {
	var s Set
	for i := range MaxTables {
		if err := s.Create(&Table{Name: fmt.Sprint(i)}); err != nil {
			t.Fatalf("table %d: %v", i, err)
		}
	}
	if err := s.Create(&Table{Name: "one too many"}); err == nil {
		t.Fatal("created a table past MaxTables")
	}
	s.Reset()
	if err := s.Create(&Table{Name: "after a clear"}); err != nil {
		t.Fatal(err)
	}
}
