package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dembug/dembug/compare"
	"github.com/dembug/dembug/engine/schema"
)

// buggyTrace is our whole decode of data as a parser's trace that reads
// one bit too many at a varint in the middle of the file, every later read
// of its message a bit later; k is the changed read.
func buggyTrace(t *testing.T, data []byte) (ours, theirs []compare.Read, k int) {
	ours, err := compare.Ours(data, schema.Aliases{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	theirs = make([]compare.Read, len(ours))
	copy(theirs, ours)
	k = -1
	for i := len(ours) / 2; i+5 < len(ours); i++ {
		if r := ours[i]; !r.Baseline && r.Decoder == "unsigned varint" && ours[i+5].Command == r.Command && ours[i+5].Message == r.Message {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatal("no read to change")
	}
	for i := range theirs {
		theirs[i].Line = i + 1
		theirs[i].Why, theirs[i].Decoder = "", ""
	}
	theirs[k].Bits++
	for i := k + 1; i < len(theirs) && theirs[i].Command == ours[k].Command && theirs[i].Message == ours[k].Message; i++ {
		theirs[i].Offset++
	}
	return ours, theirs, k
}

// --compare opens at the first difference: the field selected, theirs
// beside ours in the inspector, both bit ranges in the bitstream.
func TestScreenCompare(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	ours, theirs, k := buggyTrace(t, data)
	res := compare.Compare(ours, theirs, compare.Options{})
	if res.First == nil || res.First.What != compare.Bits {
		t.Fatalf("first difference %+v", res.First)
	}
	o := ours[k]
	screenTestWith(t, "auto-20240102-2233.dem", data, Options{NoColor: true, Compare: &res}, func(hs *harness) {},
		func(t *testing.T, hs *harness, s string) {
			sel := hs.m.sel
			if sel.Cmd != int(o.Command) || sel.Upd != o.Update || sel.Field != o.Field || !hs.m.atDifference() {
				t.Fatalf("selection %+v, want command %d update %d field %d", sel, o.Command, o.Update, o.Field)
			}
			if f := hs.m.curFields(); f == nil || f[sel.Field].Name != o.Name || uint(o.Offset) != f[sel.Field].Start {
				t.Fatalf("selected field is not %s at %d", o.Name, o.Offset)
			}
			insp := inspectorText(hs)
			for _, want := range []string{"Compare · first difference", "bits: they read", fmt.Sprintf("line %d of their trace", k+1)} {
				if !strings.Contains(insp, want) {
					t.Errorf("inspector lacks %q:\n%s", want, insp)
				}
			}
			if th := hs.m.theirsSpan(); th == nil || th.Bits != uint(o.Bits)+1 || th.Start != uint(o.Offset) {
				t.Fatalf("their span %+v", th)
			}
			if !strings.Contains(s, "theirs beside ours") {
				t.Error("bitstream title does not say theirs is shown")
			}
		})
}

// A trace equal to our decode opens as usual, saying so.
func TestCompareEqualOpensAsUsual(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	ours, err := compare.Ours(data, schema.Aliases{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := compare.Compare(ours, ours, compare.Options{})
	hs := newHarnessWith(t, "x.dem", data, 160, 48, Options{NoColor: true, Compare: &res})
	if hs.m.cmp != nil || !strings.Contains(hs.m.note, "no difference") || hs.m.sel.Upd >= 0 {
		t.Fatalf("cmp %v, note %q, selection %+v", hs.m.cmp, hs.m.note, hs.m.sel)
	}
}

// c and C step through every difference in decode order.
func TestCompareStepsThroughDifferences(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	ours, theirs, k := buggyTrace(t, data)
	res := compare.Compare(ours, theirs, compare.Options{All: true})
	hs := newHarnessWith(t, "x.dem", data, 160, 48, Options{NoColor: true, Compare: &res})
	at := func(r compare.Read) bool {
		s := hs.m.sel
		return s.Cmd == int(r.Command) && s.Upd == r.Update && s.Field == r.Field && hs.m.atDifference()
	}
	if !at(ours[k]) {
		t.Fatalf("not opened at the first difference: %+v", hs.m.sel)
	}
	hs.keys("c")
	if !at(ours[k+1]) || hs.m.cmp.diff().What != compare.Offset || !strings.Contains(inspectorText(hs), "difference 2 of") {
		t.Fatalf("c: at %+v (%s), note %q", hs.m.sel, hs.m.cmp.diff().What, hs.m.note)
	}
	hs.keys("C")
	if !at(ours[k]) {
		t.Fatalf("C: at %+v", hs.m.sel)
	}
	hs.keys("C")
	if !at(ours[k]) || !strings.Contains(hs.m.note, "no earlier difference") {
		t.Fatalf("C at the first: at %+v, note %q", hs.m.sel, hs.m.note)
	}
}
