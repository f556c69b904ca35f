package stringtable

import (
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// The three rules the game writes by (docs/format.md, "String tables"),
// checked as properties over several messages applied to one living table:
// a jump lands at previous + v + 2; every entry, keyed or not, enters the
// key history (a keyless one with the key it already has); an entry sent
// without a value is left with none.

// model is the table as the rules say it should be.
type model map[int32]Entry

// messageGen draws one message's entries: ascending indexes from a small
// range (so later messages revisit earlier entries), keys that often share
// a prefix with earlier ones, and values or none.
func messageGen(t *rapid.T, tab *Table, m int) []Entry {
	n := rapid.IntRange(1, 40).Draw(t, fmt.Sprintf("n%d", m))
	idx := int32(-1)
	var out []Entry
	for i := range n {
		idx += int32(rapid.IntRange(1, 4).Draw(t, "step"))
		e := Entry{Index: idx}
		if rapid.IntRange(0, 2).Draw(t, "haskey") == 0 {
			e.Key = rapid.SampledFrom([]string{"modifier_", "modifier_item_", "npc_dota_", "k"}).Draw(t, "prefix") +
				rapid.StringOfN(rapid.RuneFrom([]rune("abcxyz_")), 0, 8, -1).Draw(t, "suffix")
		}
		if rapid.Bool().Draw(t, fmt.Sprintf("hasvalue%d", i)) {
			if tab.UserDataFixed {
				bits := int(tab.UserDataSizeBits)
				e.Value = rapid.SliceOfN(rapid.Byte(), (bits+7)/8, (bits+7)/8).Draw(t, "fixed value")
				if r := bits % 8; r != 0 {
					e.Value[len(e.Value)-1] &= 1<<r - 1
				}
			} else {
				e.Value = rapid.SliceOfN(rapid.Byte(), 0, 20).Draw(t, "value")
			}
		}
		out = append(out, e)
	}
	return out
}

func (m model) apply(entries []Entry) {
	for _, e := range entries {
		if e.Key == "" {
			e.Key = m[e.Index].Key
		}
		m[e.Index] = e
	}
}

func (m model) check(t *rapid.T, tab *Table, after int) {
	if tab.Len() != len(m) {
		t.Fatalf("after message %d: %d entries written, want %d", after, tab.Len(), len(m))
	}
	for i, want := range m {
		got, ok := tab.Get(i)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Fatalf("after message %d: entry %d = %+v, want %+v", after, i, got, want)
		}
	}
}

// Encode writes against the table as it is, Apply reads back: over several
// messages the table is what the rules give.
func TestRulesRoundTripOverMessages(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tab := tableGen(t)
		want := model{}
		for m := range rapid.IntRange(1, 5).Draw(t, "messages") {
			entries := messageGen(t, tab, m)
			data := Encode(entries, tab)
			if _, err := tab.Apply(data, len(entries)); err != nil {
				t.Fatalf("message %d: %v", m, err)
			}
			want.apply(entries)
			want.check(t, tab, m)
		}
	})
}

// The same, with the bits spelled here from the rules (not by Encode):
// jumps drawn wherever the index is not the next one, history references
// drawn to any position the history holds, keyless entries counted in it.
func TestRulesOnSpelledBits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tab := &Table{Name: "spelled"}
		want := model{}
		for m := range rapid.IntRange(1, 4).Draw(t, "messages") {
			entries := messageGen(t, tab, m)
			var parts []string
			var history []string
			prev := int32(-1)
			for i := range entries {
				e := &entries[i]
				if e.Index == prev+1 {
					parts = append(parts, T)
				} else {
					parts = append(parts, F, varint(uint64(e.Index-prev-2)))
				}
				prev = e.Index
				if e.Key != "" {
					parts = append(parts, T)
					if len(history) > 0 && rapid.Bool().Draw(t, "use history") {
						pos := rapid.IntRange(0, len(history)-1).Draw(t, "pos")
						l := rapid.IntRange(0, min(31, len(history[pos]))).Draw(t, "len")
						e.Key = history[pos][:l] + e.Key
						parts = append(parts, T, num(uint64(pos), 5), num(uint64(l), 5), str(e.Key[l:]))
					} else {
						parts = append(parts, F, str(e.Key))
					}
				} else {
					parts = append(parts, F)
				}
				key := e.Key
				if key == "" {
					key = want[e.Index].Key
				}
				if len(history) == historySize {
					history = history[1:]
				}
				history = append(history, key)
				if e.Value != nil {
					parts = append(parts, T, num(uint64(len(e.Value)), 17), raw(e.Value))
				} else {
					parts = append(parts, F)
				}
			}
			if _, err := tab.Apply(pack(parts...), len(entries)); err != nil {
				t.Fatalf("message %d: %v", m, err)
			}
			want.apply(entries)
			want.check(t, tab, m)
		}
	})
}

// A snapshot puts item i at index i, drops what lies past its last item,
// and names what it changed.
func TestRestore(t *testing.T) {
	tab := &Table{Name: "EntityNames"}
	apply(t, tab, Encode([]Entry{{0, "a", []byte{1}}, {1, "b", nil}, {2, "c", []byte{3}}, {5000, "far", nil}}, tab), 4)
	changed := tab.Restore([]Entry{{Key: "a", Value: []byte{1}}, {Key: "b", Value: []byte{2}}})
	if !reflect.DeepEqual(changed, []int32{1, 2, 5000}) {
		t.Fatalf("changed = %v, want [1 2 5000]", changed)
	}
	want := []Entry{{0, "a", []byte{1}}, {1, "b", []byte{2}}}
	if !reflect.DeepEqual(tab.Entries, want) || tab.Len() != 2 {
		t.Fatalf("entries = %+v (%d written), want %+v", tab.Entries, tab.Len(), want)
	}
	// Growing: a mid-game recording's snapshot holds entries no message sent.
	changed = tab.Restore([]Entry{{Key: "a", Value: []byte{1}}, {Key: "b", Value: []byte{2}}, {Key: "n"}, {Key: "m", Value: []byte{}}})
	if !reflect.DeepEqual(changed, []int32{2, 3}) || tab.Len() != 4 {
		t.Fatalf("changed = %v, %d written", changed, tab.Len())
	}
	if e, _ := tab.Get(3); e.Key != "m" || e.Value == nil {
		t.Fatalf("entry 3 = %+v", e)
	}
}
