package entity

import (
	"testing"

	"github.com/dembug/dembug/engine/fieldpath"
)

func path(idx ...int32) *fieldpath.Path {
	p := &fieldpath.Path{Last: len(idx) - 1}
	copy(p.Idx[:], idx)
	return p
}

// The name cache's packed keys must tell every cacheable path apart,
// including paths that differ only in length.
func TestPackPathDistinguishesPaths(t *testing.T) {
	seen := map[uint64][]int32{}
	for _, idx := range [][]int32{{0}, {0, 0}, {0, 0, 0}, {0, 0, 0, 0}, {1}, {0, 1}, {1, 0}, {65534}, {3, 65534, 0}, {7, 2, 1, 0}} {
		k, ok := packPath(path(idx...))
		if !ok {
			t.Fatalf("%v not cacheable", idx)
		}
		if prev, dup := seen[k]; dup {
			t.Fatalf("%v and %v share key %#x", prev, idx, k)
		}
		seen[k] = idx
	}
	for _, idx := range [][]int32{{65535}, {0, -1}, {0, 0, 0, 0, 0}} {
		if _, ok := packPath(path(idx...)); ok {
			t.Errorf("%v packed, but does not fit", idx)
		}
	}
}
