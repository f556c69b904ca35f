package fieldpath

import (
	"errors"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

func TestHuffmanCodesMatchValvesTable(t *testing.T) {
	// Codes in read order, as published by other parsers' explicit tables.
	want := map[Op]string{
		PlusOne: "0", Finish: "10", PlusTwo: "1110", PushOneLeftDeltaNRightNonZeroPack6Bits: "1111",
		PushOneLeftDeltaOneRightNonZero: "11000", PlusN: "11010", PlusThree: "110010",
		PopAllButOnePlusOne: "110011", PopAllButOnePlusN: "110110000", NonTopoComplexPack4Bits: "1101100010",
		PopNAndNonTopographical: "1101100011000000", PushN: "1101100011000100",
		PushThreeLeftDeltaZero: "11011000110010010",
	}
	for op, code := range want {
		if got := CodeOf(op).String(); got != code {
			t.Errorf("%s: code %s, want %s", op, got, code)
		}
	}
	// A prefix code: no code is a prefix of another.
	for a := Op(0); a < NumOps; a++ {
		for b := Op(0); b < NumOps; b++ {
			ca, cb := CodeOf(a), CodeOf(b)
			if a != b && ca.Len <= cb.Len && cb.Bits&(1<<ca.Len-1) == ca.Bits {
				t.Fatalf("%s (%s) is a prefix of %s (%s)", a, ca, b, cb)
			}
		}
	}
}

// writeOps packs op codes with operands given as (value, bits) pairs.
func writeOps(w *bitio.Writer, ops ...any) {
	for _, o := range ops {
		switch v := o.(type) {
		case Op:
			c := CodeOf(v)
			w.Bits(uint64(c.Bits), uint(c.Len))
		case [2]int:
			w.Bits(uint64(v[0]), uint(v[1]))
		}
	}
}

func TestReadHandPackedPaths(t *testing.T) {
	// The seed's game-rules update shape: [0 1] via PushOneLeftDeltaOneRightNonZero
	// (left +1 from -1 → 0, push FP-varint 1), then PlusOne → [0 2],
	// PopAllButOnePlusOne → [1], PlusN (FP-varint 2, +5) → [8], finish.
	var w bitio.Writer
	writeOps(&w, PushOneLeftDeltaOneRightNonZero, [2]int{1, 1}, [2]int{1, 2}, // FP varint: 1 then 2 bits of value 1
		PlusOne, PopAllButOnePlusOne, PlusN, [2]int{1, 1}, [2]int{2, 2}, Finish)
	r := bitio.NewReader(w.Bytes())
	var rec []OpRecord
	paths, err := Read(r, nil, &rec)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"[0 1]", "[0 2]", "[1]", "[8]"}
	if len(paths) != len(want) {
		t.Fatalf("got %d paths %v, want %v", len(paths), paths, want)
	}
	for i, p := range paths {
		if p.String() != want[i] {
			t.Errorf("path %d = %s, want %s", i, p, want[i])
		}
	}
	if r.Pos() != w.Len() {
		t.Fatalf("read %d bits, wrote %d", r.Pos(), w.Len())
	}
	if len(rec) != 5 || rec[0].Op != PushOneLeftDeltaOneRightNonZero || rec[0].Bits != 5+3 || rec[4].Op != Finish || rec[4].Bits != 2 {
		t.Fatalf("op records %+v", rec)
	}
}

func TestReadRejectsBadPaths(t *testing.T) {
	var w bitio.Writer
	writeOps(&w, PopOnePlusOne, Finish) // pop from a one-level path
	_, err := Read(bitio.NewReader(w.Bytes()), nil, nil)
	var pe *Error
	if !errors.As(err, &pe) || pe.Op != PopOnePlusOne || pe.Bit != 0 {
		t.Fatalf("got %v, want a PopOnePlusOne error at bit 0", err)
	}
	// Truncated: no finish op.
	w = bitio.Writer{}
	writeOps(&w, PlusOne)
	if _, err := Read(bitio.NewReader(w.Bytes()), nil, nil); err == nil {
		t.Fatal("stream without finish op accepted")
	}
}

func TestReadAllocatesNothing(t *testing.T) {
	var w bitio.Writer
	writeOps(&w, PlusOne, PlusTwo, PushOneLeftDeltaNRightNonZeroPack6Bits, [2]int{3, 3}, [2]int{2, 3}, PlusOne, Finish)
	data := w.Bytes()
	buf := make([]Path, 0, 16)
	var r bitio.Reader
	if n := testing.AllocsPerRun(100, func() {
		r.Reset(data)
		buf, _ = Read(&r, buf[:0], nil)
	}); n != 0 {
		t.Fatalf("%v allocations per read", n)
	}
}
