package replay_test

import (
	"path/filepath"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

// A decode into the storage of a released one, of this file or another,
// reaches the state a decode into new storage does, halfway through and at
// the end: every shared replay is decoded fresh, then twice more in turn,
// each released once compared, so that each decodes into what another
// (and at last its own) left.
func TestDecodeIntoReleasedStorage(t *testing.T) {
	type want struct {
		name      string
		data      []byte
		half      int
		mid, end  *entity.Table
		midFields int64
		endFields int64
	}
	decode := func(data []byte, half int) (*replay.Replay, *entity.Table, int64) {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		if err := r.Run(func(*container.Command) bool { n++; return n == half }); err != nil {
			t.Fatal(err)
		}
		mid, fields := deepCopy(r.Entities), r.Entities.Stats.Fields
		if err := r.Run(nil); err != nil {
			t.Fatal(err)
		}
		return r, mid, fields
	}
	var files []want
	testreplays.EachFile(t, func(path string, data []byte) {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Run(nil); err != nil {
			t.Fatal(err)
		}
		w := want{name: filepath.Base(path), data: data, half: r.Stats.Commands / 2}
		_, w.mid, w.midFields = decode(data, w.half)
		r, _, _ = decode(data, w.half)
		w.end, w.endFields = deepCopy(r.Entities), r.Entities.Stats.Fields
		files = append(files, w)
	})
	for round := range 2 {
		for _, w := range files {
			r, mid, fields := decode(w.data, w.half)
			if d := sameEntities(w.mid, mid); d != "" || fields != w.midFields {
				t.Fatalf("round %d, %s, halfway: %s (%d fields, want %d)", round, w.name, d, fields, w.midFields)
			}
			if d := sameEntities(w.end, r.Entities); d != "" || r.Entities.Stats.Fields != w.endFields {
				t.Fatalf("round %d, %s, at the end: %s", round, w.name, d)
			}
			r.Release()
		}
	}
}
