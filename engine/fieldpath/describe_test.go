package fieldpath

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

// Every op's example, read by Read: the path Before written by Write, then
// the op's code and its operands as the example gives them, then the finish
// op, yields After from Before, and the op takes exactly its code and the
// example's bits. What each op is said to do is so checked against apply
// and the inline ops of Read.
func TestEveryOpsExampleReadsAsDescribed(t *testing.T) {
	for op := Op(0); op < NumOps; op++ {
		d := Describe(op)
		if d.Operand == "" || d.Effect == "" || d.Before == nil || (op != Finish) != (d.After != nil) {
			t.Fatalf("%s: description incomplete: %+v", op, d)
		}
		var pre bitio.Writer
		before := Path{Last: len(d.Before) - 1}
		copy(before.Idx[:], d.Before)
		if err := Write(&pre, []Path{before}); err != nil {
			t.Fatal(err)
		}
		// Write ends with the finish op: leave it out.
		var w bitio.Writer
		var r bitio.Reader
		r.Reset(pre.Bytes())
		fin := CodeOf(Finish)
		w.Bits(r.Bits64(pre.Len()-uint(fin.Len)), pre.Len()-uint(fin.Len))
		start := w.Len()
		c := CodeOf(op)
		w.Bits(uint64(c.Bits), uint(c.Len))
		for _, o := range d.Operands {
			o.write(&w)
		}
		opBits := w.Len() - start
		if op != Finish {
			w.Bits(uint64(fin.Bits), uint(fin.Len))
		}
		r.Reset(w.Bytes())
		var rec []OpRecord
		paths, err := Read(&r, nil, &rec)
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		if r.Pos() != w.Len() {
			t.Errorf("%s: read %d bits of %d", op, r.Pos(), w.Len())
		}
		want := 2
		if op == Finish {
			want = 1
		}
		if len(paths) != want || !reflect.DeepEqual(paths[0].Slice(), d.Before) {
			t.Fatalf("%s: paths %v from %v", op, paths, d.Before)
		}
		if op == Finish {
			continue
		}
		if got := paths[1].Slice(); !reflect.DeepEqual(got, d.After) {
			t.Errorf("%s %s: %v → %v, described as → %v", op, d.ExampleBits(), d.Before, got, d.After)
		}
		if rec[1].Op != op || rec[1].Bits != opBits {
			t.Errorf("%s: read as %s of %d bits, written %d", op, rec[1].Op, rec[1].Bits, opBits)
		}
		if n := uint(len(strings.ReplaceAll(d.ExampleBits(), " ", ""))); n != opBits-uint(c.Len) {
			t.Errorf("%s: example bits %q, %d operand bits written", op, d.ExampleBits(), opBits-uint(c.Len))
		}
	}
}

// The codes are prefix-free and every op has one; the tree's doc names as
// many ops as there are.
func TestCodesArePrefixFree(t *testing.T) {
	for a := Op(0); a < NumOps; a++ {
		ca := CodeOf(a).String()
		if ca == "" {
			t.Fatalf("%s has no code", a)
		}
		for b := Op(0); b < NumOps; b++ {
			if cb := CodeOf(b).String(); a != b && strings.HasPrefix(cb, ca) {
				t.Errorf("%s's code %s starts %s's %s", a, ca, b, cb)
			}
		}
	}
	unused := 0
	for op := Op(0); op < NumOps; op++ {
		if op.Weight() == 0 {
			unused++
		}
	}
	if !strings.Contains(TreeDoc, "40 ops") || NumOps != 40 || !strings.Contains(TreeDoc, fmt.Sprintf("the %d ops of weight 0", unused)) {
		t.Errorf("TreeDoc's counts are not %d ops, %d of weight 0", NumOps, unused)
	}
}

// ReadOperands, after each example's code, gives back the example's
// operands, form and value, and ends where the op ends.
func TestReadOperandsGivesTheExamplesOperands(t *testing.T) {
	for op := Op(0); op < NumOps; op++ {
		d := Describe(op)
		var w bitio.Writer
		for _, o := range d.Operands {
			o.write(&w)
		}
		n := w.Len()
		w.Bits(0, 64) // room after the operands, as in a real stream
		var r bitio.Reader
		r.Reset(w.Bytes())
		got, err := ReadOperands(&r, op, len(d.Before))
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		if len(got) != len(d.Operands) || (len(got) > 0 && !reflect.DeepEqual(got, d.Operands)) || r.Pos() != n {
			t.Errorf("%s: read %+v ending at bit %d, the example has %+v in %d bits", op, got, r.Pos(), d.Operands, n)
		}
	}
}
