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

func mk(idx ...int32) Path {
	var p Path
	copy(p.Idx[:], idx)
	p.Last = len(idx) - 1
	return p
}
