package session

import (
	"testing"

	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/testdata"
)

// The index pass over the built-in sample finds its commands and updates,
// and every update's Ref finds it again.
func TestBuildIndexSample(t *testing.T) {
	ix := BuildIndex("sample.dem", testdata.Sample)
	if !ix.Done || ix.Err != nil {
		t.Fatalf("index: done %v, error %+v", ix.Done, ix.Err)
	}
	if len(ix.Commands) == 0 || ix.NumUpdates() == 0 {
		t.Fatalf("%d commands, %d updates", len(ix.Commands), ix.NumUpdates())
	}
	for k := range ix.NumUpdates() {
		r := ix.Ref(k)
		if ix.Update(r.Cmd, r.Msg, r.Upd) == nil || ix.FlatOf(r) != k {
			t.Fatalf("update %d: %+v does not find it again", k, r)
		}
		if _, ok := ix.Location(r); !ok {
			t.Fatalf("update %d: no location", k)
		}
	}
}

func path(i int32) fieldpath.Path { return fieldpath.Path{Idx: [fieldpath.MaxDepth]int32{i}} }

// Pairing matches fields by path in order and marks the ones a side lacks.
func TestPairFields(t *testing.T) {
	fs := func(ps ...fieldpath.Path) []provenance.Field {
		out := make([]provenance.Field, len(ps))
		for i, p := range ps {
			out[i].Path = p
		}
		return out
	}
	o := fs(path(0), path(1), path(3))
	w := fs(path(0), path(2), path(3), path(4))
	got := pairFields(o, w)
	want := []Pair{{0, 0}, {-1, 1}, {1, -1}, {2, 2}, {-1, 3}}
	if len(got) != len(want) {
		t.Fatalf("pairs %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("pairs %v, want %v", got, want)
		}
	}
}
