package replay_test

import (
	"testing"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/sample"
)

// stringValues lists the text of every string value in the table's states.
func stringValues(t *entity.Table) []decoder.Value {
	var out []decoder.Value
	var walk func(n *entity.Node)
	walk = func(n *entity.Node) {
		if n == nil {
			return
		}
		n.EachVal(func(_ int, v decoder.Value) {
			if v.Kind == decoder.KindString {
				out = append(out, v)
			}
		})
		n.EachKid(func(_ int, k *entity.Node) { walk(k) })
	}
	for _, e := range t.Entities {
		if e != nil {
			walk(e.State)
		}
	}
	return out
}

// A decode given a pool of its own interns its strings there: they read
// as the default pool's decode reads them, and are gone once the pool is
// released.
func TestDecodeInItsOwnPool(t *testing.T) {
	run := func(p *decoder.Pool) []decoder.Value {
		r, err := replay.Open(sample.Replay)
		if err != nil {
			t.Fatal(err)
		}
		r.Entities.Strings = p
		if err := r.Run(nil); err != nil {
			t.Fatal(err)
		}
		return stringValues(r.Entities)
	}
	shared := run(nil)
	p := decoder.NewPool()
	own := run(p)
	if len(own) == 0 || len(own) != len(shared) {
		t.Fatalf("%d string values in its own pool, %d in the default one", len(own), len(shared))
	}
	for i := range own {
		if own[i].Str() != shared[i].Str() || own[i].U == shared[i].U {
			t.Fatalf("value %d: %q (id %x) in its own pool, %q (id %x) shared", i, own[i].Str(), own[i].U, shared[i].Str(), shared[i].U)
		}
	}
	p.Release()
	for _, v := range own {
		if v.Str() != "" {
			t.Fatalf("%q outlived its released pool", v.Str())
		}
	}
}
