package stringtable

import (
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// Walk records each read with its bits: on hand-packed bits, a jump, a
// history reference borrowing from a keyless entry's key, a value-less
// update that clears a value, and the state before and after each entry.
func TestWalkRecordsEveryRead(t *testing.T) {
	tab := &Table{Name: "t", Flags: FlagCompressedValues}
	apply(t, tab, pack(T, T, F, str("alpha"), T, F, num(1, 17), raw([]byte{7})), 1)
	data := pack(
		T, F, F, // 0: increment, no key (keeps "alpha"), no value (clears 07)
		F, varint(3), T, T, num(0, 5), num(3, 5), str("x"), T, F, num(2, 17), raw([]byte{1, 2}), // jump 3 → 5, "alp"+"x"
	)
	w, err := tab.Walk(data, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(w) != 2 {
		t.Fatalf("%d entries walked", len(w))
	}
	kinds := func(e EntryWalk) (out []PartKind) {
		for _, p := range e.Parts {
			out = append(out, p.Kind)
		}
		return out
	}
	if got := kinds(w[0]); !reflect.DeepEqual(got, []PartKind{PartIncrement, PartKeyFlag, PartValueFlag}) {
		t.Errorf("entry 0 parts %v", got)
	}
	if w[0].Before.Value == nil || w[0].After.Value != nil || w[0].After.Key != "alpha" || !w[0].Existed {
		t.Errorf("entry 0 before %+v after %+v", w[0].Before, w[0].After)
	}
	e := w[1]
	if got := kinds(e); !reflect.DeepEqual(got, []PartKind{PartIncrement, PartJump, PartKeyFlag, PartHistoryFlag, PartHistory, PartKey, PartValueFlag, PartCompressed, PartSize, PartValue}) {
		t.Fatalf("entry 1 parts %v", got)
	}
	if e.Prev != 0 || e.Index != 5 || e.Existed {
		t.Errorf("entry 1: prev %d index %d existed %v", e.Prev, e.Index, e.Existed)
	}
	// Bits: entry 1 starts at 3; the jump's varint at 4 (8 bits), key flag
	// at 12, history flag 13, history 14 (10 bits), key 24 (16 bits: "x\0").
	want := map[PartKind][3]uint64{PartJump: {4, 8, 3}, PartHistory: {14, 10, 0}, PartKey: {24, 16, 3}, PartSize: {42, 17, 2}, PartValue: {59, 16, 2}}
	for _, p := range e.Parts {
		if wv, ok := want[p.Kind]; ok && (uint64(p.Start) != wv[0] || uint64(p.Bits) != wv[1] || p.V != wv[2]) {
			t.Errorf("%s at %d, %d bits, v %d; want %v", p.Kind, p.Start, p.Bits, p.V, wv)
		}
		if p.Kind == PartHistory && (p.Str != "alpha" || p.Len != 3) {
			t.Errorf("history borrowed %q, %d bytes", p.Str, p.Len)
		}
		if p.Kind == PartKey && p.Str != "alpx" {
			t.Errorf("key %q", p.Str)
		}
	}
	if e.Start != 3 || e.End != 75 || e.After.Key != "alpx" || !reflect.DeepEqual(e.After.Value, []byte{1, 2}) {
		t.Errorf("entry 1 bits %d-%d, after %+v", e.Start, e.End, e.After)
	}
}

// Walk leaves the table as Apply does, and its reads tile each entry's
// bits: every read starts where the one before ended, from the entry's
// first bit to its last.
func TestWalkAgreesWithApply(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		settings := tableGen(t)
		a, b := *settings, *settings
		for m := range rapid.IntRange(1, 3).Draw(t, "messages") {
			entries := messageGen(t, &a, m)
			data := Encode(entries, &a)
			changed, err := a.Apply(data, len(entries))
			if err != nil {
				t.Fatal(err)
			}
			w, err := b.Walk(data, len(entries))
			if err != nil || len(w) != len(changed) {
				t.Fatalf("walk: %d entries, %v; apply changed %d", len(w), err, len(changed))
			}
			next := uint(0)
			for i, e := range w {
				if e.Index != changed[i] || e.Start != next {
					t.Fatalf("entry %d: index %d at bit %d, want %d at %d", i, e.Index, e.Start, changed[i], next)
				}
				at := e.Start
				for _, p := range e.Parts {
					if p.Start != at {
						t.Fatalf("entry %d: %s at bit %d, want %d", i, p.Kind, p.Start, at)
					}
					at += p.Bits
				}
				if at != e.End {
					t.Fatalf("entry %d: reads end at %d, the entry at %d", i, at, e.End)
				}
				if got, _ := a.Get(e.Index); !reflect.DeepEqual(got, e.After) {
					t.Fatalf("entry %d after = %+v, table has %+v", i, e.After, got)
				}
				next = e.End
			}
			if !reflect.DeepEqual(a.Entries, b.Entries) {
				t.Fatalf("after message %d the walked table differs from the applied one", m)
			}
		}
	})
}

// A history position past the keys held borrows nothing, and the walk
// says so rather than naming a key.
func TestWalkHistoryBeyond(t *testing.T) {
	tab := &Table{Name: "t"}
	w, err := tab.Walk(pack(T, T, T, num(7, 5), num(4, 5), str("k"), F), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range w[0].Parts {
		if p.Kind == PartHistory && (!p.Beyond || p.Str != "" || p.V != 7 || p.Len != 4) {
			t.Errorf("history part %+v", p)
		}
	}
	if w[0].After.Key != "k" {
		t.Errorf("key %q", w[0].After.Key)
	}
}
