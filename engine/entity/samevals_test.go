package entity

import (
	"math"
	"testing"

	"github.com/dembug/dembug/engine/decoder"
)

// sameVals agrees with decoder.Value.Equal value by value.
func TestSameValsAgreesWithEqual(t *testing.T) {
	vals := []decoder.Value{
		decoder.Uint(7), decoder.Int(-7), decoder.Float(1.5), decoder.Float(math.Copysign(0, -1)),
		decoder.Float(0), decoder.Bool(true), decoder.Float(math.NaN()), {},
	}
	for i, a := range vals {
		for j, b := range vals {
			want := a.Equal(b)
			if got := sameVals([]decoder.Value{decoder.Uint(1), a}, []decoder.Value{decoder.Uint(1), b}); got != want {
				t.Errorf("%d %v against %d %v: sameVals %v, Equal %v", i, a, j, b, got, want)
			}
		}
	}
	if sameVals([]decoder.Value{decoder.Uint(1)}, []decoder.Value{decoder.Uint(1), decoder.Uint(2)}) {
		t.Error("lists of two lengths are the same")
	}
	if !sameVals(nil, []decoder.Value{}) {
		t.Error("two empty lists differ")
	}
}
