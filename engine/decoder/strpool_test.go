package decoder

import (
	"strings"
	"sync"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

// Once a pool holds its limit, new strings are not kept (their values read
// as PoolFullString), while strings already interned keep their ids.
func TestStringPoolCap(t *testing.T) {
	p := NewPool()
	defer p.Release()
	known := p.String("kept before the cap")
	p.mu.RLock()
	used := p.bytes
	p.mu.RUnlock()
	defer func() { maxPoolBytes = MaxPoolBytes }()
	maxPoolBytes = used + 8

	if v := p.String("fits"); v.Str() != "fits" {
		t.Fatalf("a string within the cap became %q", v.Str())
	}
	a := p.StringBytes([]byte(strings.Repeat("x", 100)))
	b := p.String(strings.Repeat("y", 100))
	if a.Str() != PoolFullString || b.Str() != PoolFullString || a.U != b.U {
		t.Fatalf("strings over the cap: %q (%d), %q (%d)", a.Str(), a.U, b.Str(), b.U)
	}
	if v := p.String("kept before the cap"); v.U != known.U || v.Str() != "kept before the cap" {
		t.Fatalf("interned string changed: %q", v.Str())
	}
	p.mu.RLock()
	grown := p.bytes - used
	p.mu.RUnlock()
	if grown > 4+len(PoolFullString) {
		t.Fatalf("pool grew %d bytes past a cap of 8", grown)
	}
}

// A decode with a pool of its own fills only that pool: the default pool
// and other pools keep taking new strings, and a released pool's strings
// are forgotten.
func TestPoolsAreSeparate(t *testing.T) {
	full, other := NewPool(), NewPool()
	defer other.Release()
	full.limit = 64
	for i := range 10 {
		full.String(strings.Repeat(string(rune('a'+i)), 20))
	}
	if v := full.String("late"); v.Str() != PoolFullString {
		t.Fatalf("a full pool kept %q", v.Str())
	}
	if v := other.String("late"); v.Str() != "late" {
		t.Fatalf("another pool: %q", v.Str())
	}
	if v := String("late in the default pool"); v.Str() != "late in the default pool" {
		t.Fatalf("the default pool: %q", v.Str())
	}
	// The same text in two pools is two values, each reading back.
	a, b := other.String("same"), (*Pool)(nil).String("same")
	if a.U == b.U || a.Str() != "same" || b.Str() != "same" {
		t.Fatalf("same text: %d %q, %d %q", a.U, a.Str(), b.U, b.Str())
	}
	v := full.String("aaaaaaaaaaaaaaaaaaaa")
	full.Release()
	if v.Str() != "" {
		t.Fatalf("a released pool's string reads %q", v.Str())
	}
}

// Decoding into a pool from several goroutines at once, with pools made
// and released beside it, keeps every value readable.
func TestPoolsConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := NewPool()
			defer p.Release()
			d := &Decoder{Family: FamString}
			for i := range 200 {
				s := strings.Repeat(string(rune('a'+g)), i%17+1)
				var v Value
				r := newStringReader(s)
				r.Strings = p
				d.DecodeTo(r, &v)
				if v.Str() != s {
					t.Errorf("decoded %q, want %q", v.Str(), s)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func newStringReader(s string) *bitio.Reader {
	return bitio.NewReader(append([]byte(s), 0))
}
