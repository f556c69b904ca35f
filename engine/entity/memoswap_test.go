package entity

import (
	"fmt"
	"reflect"
	"testing"
)

// TestMemoSwapExchangesEveryMember holds updateMemo.swap, which exchanges
// member by member, to a plain swap of the whole structs.
func TestMemoSwapExchangesEveryMember(t *testing.T) {
	a := updateMemo{n: 3, rest: []uint64{1}, targets: make([]target, 2), pinned: true, recorded: false, rec: &memoRecord{}}
	b := updateMemo{n: 9, rest: []uint64{2, 3}, targets: make([]target, 1), pinned: false, recorded: true, rec: nil}
	// Every member must differ between a and b, so that a member swap
	// leaves out shows.
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range va.NumField() {
		if fmt.Sprint(va.Field(i)) == fmt.Sprint(vb.Field(i)) {
			t.Fatalf("member %s is alike in both memos: give it different values", va.Type().Field(i).Name)
		}
	}
	wantA, wantB := b, a
	a.swap(&b)
	if !reflect.DeepEqual(a, wantA) || !reflect.DeepEqual(b, wantB) {
		t.Fatalf("swap left a member behind:\n a %+v\n b %+v", a, b)
	}
}
