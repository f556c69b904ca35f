package fieldpath

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
	"pgregory.net/rapid"
)

// readOneByOne is Read as the ops define it, one code and one op at a
// time (readOp and apply), with none of Read's inline ops or runs: the
// reference its fast paths are held to.
func readOneByOne(r *bitio.Reader) ([]Path, []OpRecord, error) {
	var paths []Path
	var rec []OpRecord
	p := Path{}
	p.Idx[0] = -1
	for {
		start := r.Pos()
		op := readOp(r)
		if op == Finish {
			rec = append(rec, OpRecord{Op: Finish, Start: start, Bits: r.Pos() - start})
			return paths, rec, r.Err()
		}
		if msg := apply(r, &p, op); msg != "" {
			if r.Overflowed() {
				return paths, rec, r.Err()
			}
			return paths, rec, &Error{Bit: start, Op: op, Path: p, Msg: msg}
		}
		if r.Overflowed() {
			return paths, rec, r.Err()
		}
		paths = append(paths, p)
		rec = append(rec, OpRecord{Op: op, Start: start, Bits: r.Pos() - start})
		if len(paths) > MaxPaths {
			return paths, rec, &Error{Bit: start, Op: op, Path: p, Msg: errTooMany}
		}
	}
}

// TestInlineOpsAgreeWithApply reads random bit streams, biased towards the
// frequent ops' codes, with Read and with the general reference.
func TestInlineOpsAgreeWithApply(t *testing.T) {
	frequent := []Op{PlusOne, PlusTwo, PlusThree, PlusFour, PlusN,
		PushOneLeftDeltaZeroRightZero, PushOneLeftDeltaOneRightZero, PushOneLeftDeltaOneRightNonZero,
		PushOneLeftDeltaNRightZero, PushOneLeftDeltaNRightNonZeroPack6Bits, PushOneLeftDeltaNRightNonZeroPack8Bits,
		PopAllButOnePlusOne, PopAllButOnePlusN, PopAllButOnePlusNPack3Bits, PopAllButOnePlusNPack6Bits,
		NonTopoComplex, PushOneLeftDeltaNRightNonZero, Finish}
	rapid.Check(t, func(t *rapid.T) {
		var w bitio.Writer
		for range rapid.IntRange(0, 40).Draw(t, "ops") {
			op := rapid.SampledFrom(frequent).Draw(t, "op")
			c := CodeOf(op)
			w.Bits(uint64(c.Bits), uint(c.Len))
			// Operands: random bits, sometimes long runs of zeros (long
			// variable integers, huge indexes).
			if rapid.Bool().Draw(t, "zeros") {
				w.Bits(0, uint(rapid.IntRange(1, 40).Draw(t, "zero bits")))
			}
			w.Bits(rapid.Uint64().Draw(t, "operand bits"), uint(rapid.IntRange(0, 40).Draw(t, "operand len")))
		}
		data := w.Bytes()
		fast, slow := bitio.NewReader(data), bitio.NewReader(data)
		got, gotErr := Read(fast, nil, nil)
		want, _, wantErr := readOneByOne(slow)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) && !(gotErr != nil && wantErr != nil && len(want) > MaxPaths) {
			t.Fatalf("error %v, general reading says %v", gotErr, wantErr)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("paths differ:\n got %v\nwant %v", got, want)
		}
		if fast.Pos() != slow.Pos() {
			t.Fatalf("ended at bit %d, general reading at %d", fast.Pos(), slow.Pos())
		}
	})
}
