package fieldpath

import (
	"errors"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

// FuzzRead decodes field paths from arbitrary bits. Whatever the input:
// no panic; the reader stays within its data; every path returned has 1 to
// MaxDepth non-negative indexes (entity decoding indexes serializers with
// them); there are at most MaxPaths+1 of them; an error is either a located
// *Error or the reader's overflow, with its bit offset inside the data; the
// op record has one entry per path (plus the finish op); and a successful
// read of up to 256 paths re-encodes (Write) to bits that read back to the same paths.
func FuzzRead(f *testing.F) {
	var w bitio.Writer
	Write(&w, []Path{mk(0), mk(1), mk(1, 0), mk(1, 2), mk(5, 3, 7), mk(40)})
	f.Add(w.Bytes())
	w = bitio.Writer{}
	Write(&w, []Path{mk(3, 1, 2, 3, 4, 5, 6, 7), mk(9000), mk(9000, 17)})
	f.Add(w.Bytes())
	f.Add([]byte{0x00})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0x1b, 0x63, 0x00, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bitio.NewReader(data)
		var rec []OpRecord
		paths, err := Read(r, nil, &rec)
		if r.Pos() > r.Len() {
			t.Fatalf("position %d past the end %d", r.Pos(), r.Len())
		}
		if len(paths) > MaxPaths+1 {
			t.Fatalf("%d paths", len(paths))
		}
		for i := range paths {
			p := &paths[i]
			if p.Last < 0 || p.Last >= MaxDepth {
				t.Fatalf("path %d has Last %d", i, p.Last)
			}
			for _, v := range p.Slice() {
				if v < 0 {
					t.Fatalf("path %d (%s) has a negative index", i, p)
				}
			}
		}
		finish := 0
		if err == nil {
			finish = 1
		}
		if len(rec) != len(paths)+finish && len(rec) != len(paths)+1 {
			t.Fatalf("%d op records for %d paths (err %v)", len(rec), len(paths), err)
		}
		for _, o := range rec {
			if o.Start+o.Bits > r.Len() || o.Op >= NumOps {
				t.Fatalf("op record %+v outside %d bits", o, r.Len())
			}
		}

		// The inline ops and PlusOne's runs read what one op at a time
		// reads.
		sameAsOneByOne(t, data, paths, rec, err)

		// The same read without recording gives the same result.
		r2 := bitio.NewReader(data)
		paths2, err2 := Read(r2, nil, nil)
		if (err == nil) != (err2 == nil) || len(paths2) != len(paths) || r2.Pos() != r.Pos() {
			t.Fatalf("recording changed the result: %d/%d paths, %v/%v", len(paths), len(paths2), err, err2)
		}

		if err != nil {
			var fe *Error
			var oe *bitio.OverflowError
			switch {
			case errors.As(err, &fe):
				if fe.Bit >= r.Len() {
					t.Fatalf("error at bit %d of %d: %v", fe.Bit, r.Len(), err)
				}
			case errors.As(err, &oe):
				if !r.Overflowed() || oe.Pos > r.Len() {
					t.Fatalf("overflow error %v without overflow", err)
				}
			default:
				t.Fatalf("error %T carries no bit offset: %v", err, err)
			}
			return
		}
		if r.Overflowed() {
			t.Fatal("overflow without error")
		}
		if len(paths) > 256 {
			return // Write searches for the cheapest ops: slow for thousands of paths
		}
		var out bitio.Writer
		if err := Write(&out, paths); err != nil {
			t.Fatalf("paths read cannot be written back: %v", err)
		}
		again, err := Read(bitio.NewReader(out.Bytes()), nil, nil)
		if err != nil || len(again) != len(paths) {
			t.Fatalf("re-read: %d paths of %d, %v", len(again), len(paths), err)
		}
		for i := range paths {
			if paths[i].String() != again[i].String() {
				t.Fatalf("path %d: %s re-read as %s", i, paths[i], again[i])
			}
		}
	})
}

// sameAsOneByOne fails t unless Read's paths, op records and error on
// data are the reference's: the same paths and records, both without
// error or both with one, a located error the same.
func sameAsOneByOne(t *testing.T, data []byte, paths []Path, rec []OpRecord, err error) {
	t.Helper()
	want, wantRec, wantErr := readOneByOne(bitio.NewReader(data))
	if len(paths) != len(want) || (err == nil) != (wantErr == nil) {
		t.Fatalf("%d paths (err %v), one op at a time %d (err %v)", len(paths), err, len(want), wantErr)
	}
	for i := range paths {
		if paths[i] != want[i] {
			t.Fatalf("path %d: %s, one op at a time %s", i, paths[i], want[i])
		}
	}
	var fe, we *Error
	if errors.As(err, &fe) != errors.As(wantErr, &we) || fe != nil && *fe != *we {
		t.Fatalf("error %v, one op at a time %v", err, wantErr)
	}
	if wantErr != nil {
		return // an over-read's records may end at another operand
	}
	if len(rec) != len(wantRec) {
		t.Fatalf("%d op records, one op at a time %d", len(rec), len(wantRec))
	}
	for i := range rec {
		if rec[i] != wantRec[i] {
			t.Fatalf("op record %d: %+v, one op at a time %+v", i, rec[i], wantRec[i])
		}
	}
}

// Runs of PlusOne (its code is the bit 0) longer than a window, after a
// push, ending at the data's end, and at the MaxPaths bound, read as one
// op at a time reads them.
func TestPlusOneRuns(t *testing.T) {
	written := func(paths []Path) []byte {
		var w bitio.Writer
		if err := Write(&w, paths); err != nil {
			t.Fatal(err)
		}
		return w.Bytes()
	}
	var flat, nested []Path
	for i := int32(0); i < 300; i++ {
		flat = append(flat, mk(i))
		nested = append(nested, mk(3, i))
	}
	for _, c := range []struct {
		name    string
		data    []byte
		wantErr bool
	}{
		{"300 in a row, across windows, then finish", written(flat), false},
		{"a run below a push", written(append([]Path{mk(3)}, nested...)), false},
		{"zeros to the end: an over-read", make([]byte, 40), true},
		{"a run past MaxPaths", make([]byte, MaxPaths/8+64), true},
	} {
		var rec []OpRecord
		paths, err := Read(bitio.NewReader(c.data), nil, &rec)
		if len(paths) < 100 || (err != nil) != c.wantErr {
			t.Errorf("%s: %d paths, %v", c.name, len(paths), err)
		}
		t.Run(c.name, func(t *testing.T) { sameAsOneByOne(t, c.data, paths, rec, err) })
	}
}

func mk(idx ...int32) Path {
	var p Path
	copy(p.Idx[:], idx)
	p.Last = len(idx) - 1
	return p
}
