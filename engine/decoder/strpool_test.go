package decoder

import (
	"strings"
	"testing"
)

// Once the pool holds its limit, new strings are not kept (their values
// read as PoolFullString), while strings already interned keep their ids.
func TestStringPoolCap(t *testing.T) {
	known := String("kept before the cap")
	pool.RLock()
	used := pool.bytes
	pool.RUnlock()
	defer func() { maxPoolBytes = MaxPoolBytes }()
	maxPoolBytes = used + 8

	if v := String("fits"); v.Str() != "fits" {
		t.Fatalf("a string within the cap became %q", v.Str())
	}
	a := StringBytes([]byte(strings.Repeat("x", 100)))
	b := String(strings.Repeat("y", 100))
	if a.Str() != PoolFullString || b.Str() != PoolFullString || a.U != b.U {
		t.Fatalf("strings over the cap: %q (%d), %q (%d)", a.Str(), a.U, b.Str(), b.U)
	}
	if v := String("kept before the cap"); v.U != known.U || v.Str() != "kept before the cap" {
		t.Fatalf("interned string changed: %q", v.Str())
	}
	pool.RLock()
	grown := pool.bytes - used
	pool.RUnlock()
	if grown > 4+len(PoolFullString) {
		t.Fatalf("pool grew %d bytes past a cap of 8", grown)
	}
}
