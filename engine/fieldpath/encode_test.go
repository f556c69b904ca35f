package fieldpath

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dembug/dembug/engine/bitio"
)

func encPath(idx ...int32) Path {
	var p Path
	copy(p.Idx[:], idx)
	p.Last = len(idx) - 1
	return p
}

// bitsInReadOrder spells the first n bits of w in read order, e.g. "010".
func bitsInReadOrder(w *bitio.Writer) string {
	r := bitio.NewReader(w.Bytes())
	var b strings.Builder
	for i := uint(0); i < w.Len(); i++ {
		if r.Bool() {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

func comparePathsLex(a, b Path) int {
	for i := 0; i <= min(a.Last, b.Last); i++ {
		if c := cmp.Compare(a.Idx[i], b.Idx[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.Last, b.Last)
}

func TestWriteHandChecked(t *testing.T) {
	cases := []struct {
		name  string
		paths []Path
		ops   []Op
		bits  string // read order; "" to skip
	}{
		{"first field", []Path{encPath(0)}, []Op{PlusOne, Finish},
			"0" + "10"},
		// The seed's game-rules shape, as TestReadHandPackedPaths packs it
		// by hand: push [0 1] (FP varint 1 = "1" "10"), +1, pop to [1],
		// +7 as PlusN with FP varint 2 ("1" "01").
		{"seed shape", []Path{encPath(0, 1), encPath(0, 2), encPath(1), encPath(8)},
			[]Op{PushOneLeftDeltaOneRightNonZero, PlusOne, PopAllButOnePlusOne, PlusN, Finish},
			"11000" + "110" + "0" + "110011" + "11010" + "101" + "10"},
		{"plus two, three, four", []Path{encPath(1), encPath(4), encPath(8)}, []Op{PlusTwo, PlusThree, PlusFour, Finish},
			"1110" + "110010" + "11011111" + "10"},
		// -1 → 5 is PlusN with FP varint 1 ("1" "10"); going back 5 → 3 is a
		// 4-bit non-topological delta of -2, stored plus 7 (5: "1010").
		{"backwards", []Path{encPath(5), encPath(3)}, []Op{PlusN, NonTopoComplexPack4Bits, Finish},
			"11010" + "110" + "1101100010" + "1" + "1010" + "10"},
		// Into a nested field three levels down and out again.
		{"deep", []Path{encPath(2, 0, 0), encPath(2, 0, 1), encPath(3)},
			[]Op{PushTwoLeftDeltaN, PlusOne, PopAllButOnePlusOne, Finish}, ""},
		{"pack6", []Path{encPath(0), encPath(3, 2)}, []Op{PlusOne, PushOneLeftDeltaNRightNonZeroPack6Bits, Finish},
			"0" + "1111" + "100" + "100" + "10"},
		{"empty", nil, []Op{Finish}, "10"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var w bitio.Writer
			if err := Write(&w, c.paths); err != nil {
				t.Fatal(err)
			}
			if c.bits != "" {
				if got := bitsInReadOrder(&w); got != c.bits {
					t.Errorf("bits %s, want %s", got, c.bits)
				}
			}
			var rec []OpRecord
			r := bitio.NewReader(w.Bytes())
			got, err := Read(r, nil, &rec)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.paths) || r.Pos() != w.Len() {
				t.Fatalf("read %v after %d of %d bits, want %v", got, r.Pos(), w.Len(), c.paths)
			}
			var ops []Op
			for _, o := range rec {
				ops = append(ops, o.Op)
			}
			if !slices.Equal(ops, c.ops) {
				t.Errorf("ops %v, want %v", ops, c.ops)
			}
		})
	}
}

func TestWriteRejects(t *testing.T) {
	bad := [][]Path{
		{encPath(-1 + 0*1)},          // negative index
		{{Last: MaxDepth}},           // too deep
		{{Last: -1}},                 // no index
		make([]Path, MaxPaths+1),     // too many
		{encPath(1), encPath(2, -3)}, // negative later on
	}
	bad[0][0].Idx[0] = -1
	for i, paths := range bad {
		var w bitio.Writer
		if err := Write(&w, paths); err == nil {
			t.Errorf("case %d accepted", i)
		}
		if w.Len() != 0 {
			t.Errorf("case %d: a failed Write wrote %d bits", i, w.Len())
		}
	}
}

// validPathGen draws one valid path: 1..MaxDepth indexes, mostly small as in
// real serializers, now and then anything up to 2^31-1.
func validPathGen() *rapid.Generator[Path] {
	return rapid.Custom(func(t *rapid.T) Path {
		depth := rapid.IntRange(1, MaxDepth).Draw(t, "depth")
		var p Path
		p.Last = depth - 1
		for i := 0; i < depth; i++ {
			switch rapid.IntRange(0, 9).Draw(t, "size") {
			case 0:
				p.Idx[i] = rapid.Int32Min(0).Draw(t, "huge")
			case 1, 2:
				p.Idx[i] = rapid.Int32Range(0, 2000).Draw(t, "large")
			default:
				p.Idx[i] = rapid.Int32Range(0, 12).Draw(t, "small")
			}
		}
		return p
	})
}

func writeRead(t *rapid.T, paths []Path) {
	var w bitio.Writer
	pre := uint(rapid.IntRange(0, 7).Draw(t, "prefix bits"))
	w.Bits(0x55, pre)
	if err := Write(&w, paths); err != nil {
		t.Fatal(err)
	}
	end := w.Len()
	w.Bits(rapid.Uint64().Draw(t, "after"), 64) // what follows the paths: values
	r := bitio.NewReader(w.Bytes())
	r.Skip(pre)
	got, err := Read(r, nil, nil)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if !slices.Equal(got, paths) {
		t.Fatalf("wrote %v, read %v", paths, got)
	}
	if r.Pos() != end {
		t.Fatalf("wrote %d bits, Read consumed %d", end-pre, r.Pos()-pre)
	}
}

// TestWriteReadSorted: random sorted lists of distinct valid paths, as an
// entity update carries them, come back unchanged, using exactly the bits
// written.
func TestWriteReadSorted(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		paths := rapid.SliceOfN(validPathGen(), 0, 120).Draw(t, "paths")
		slices.SortFunc(paths, comparePathsLex)
		paths = slices.Compact(paths)
		writeRead(t, paths)
	})
}

// TestWriteReadAnyOrder: the non-topological ops reach any path, so even
// unsorted lists with repeats survive.
func TestWriteReadAnyOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		writeRead(t, rapid.SliceOfN(validPathGen(), 0, 60).Draw(t, "paths"))
	})
}

// TestWriteChoosesShortOps: walking a flat run of fields one by one costs
// one bit a field, as in Valve's data.
func TestWriteChoosesShortOps(t *testing.T) {
	var paths []Path
	for i := int32(0); i < 100; i++ {
		paths = append(paths, encPath(i))
	}
	var w bitio.Writer
	if err := Write(&w, paths); err != nil {
		t.Fatal(err)
	}
	if w.Len() != 100+2 {
		t.Fatalf("100 consecutive fields took %d bits, want 102", w.Len())
	}
}
