package replay_test

import (
	"path/filepath"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

// A decode into the storage of a released one, of this file or another,
// reaches the state a decode into new storage does, halfway through and at
// the end (entities and every value, string tables, baselines, ticks and
// counts): every shared replay is decoded fresh, then twice more in turn,
// each released once compared, so that each decodes into what another
// (and at last its own) left.
func TestDecodeIntoReleasedStorage(t *testing.T) {
	type want struct {
		name     string
		data     []byte
		half     int
		mid, end frozen
	}
	open := func(data []byte) *replay.Replay {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	toHalf := func(r *replay.Replay, half int) {
		n := 0
		if err := r.Run(func(*container.Command) bool { n++; return n == half }); err != nil {
			t.Fatal(err)
		}
	}
	toEnd := func(r *replay.Replay) {
		if err := r.Run(nil); err != nil {
			t.Fatal(err)
		}
	}
	var files []want
	testreplays.EachFile(t, func(path string, data []byte) {
		r := open(data)
		toEnd(r)
		w := want{name: filepath.Base(path), data: data, half: r.Stats.Commands / 2}
		r = open(data)
		toHalf(r, w.half)
		w.mid = freeze(r)
		toEnd(r)
		w.end = freeze(r)
		files = append(files, w)
	})
	for round := range 2 {
		for _, w := range files {
			r := open(w.data)
			toHalf(r, w.half)
			if d := w.mid.differs(r); d != "" {
				t.Fatalf("round %d, %s, halfway: %s", round, w.name, d)
			}
			toEnd(r)
			if d := w.end.differs(r); d != "" {
				t.Fatalf("round %d, %s, at the end: %s", round, w.name, d)
			}
			r.Release()
		}
	}
}
