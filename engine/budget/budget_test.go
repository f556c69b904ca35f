package budget

import (
	"runtime/debug"
	"testing"
)

// Set lowers the collector's limit to its soft limit and never raises a
// lower one (GOMEMLIMIT in the environment).
func TestSetNeverRaisesALowerLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	defer Set(0, 0)
	debug.SetMemoryLimit(300 << 20)
	Set(1<<30, 600<<20)
	if l := debug.SetMemoryLimit(-1); l != 300<<20 {
		t.Fatalf("limit %d MiB after a higher soft limit; want 300", l>>20)
	}
	Set(1<<30, 200<<20)
	if l := debug.SetMemoryLimit(-1); l != 200<<20 {
		t.Fatalf("limit %d MiB after a lower soft limit; want 200", l>>20)
	}
	if Limit() != 1<<30 {
		t.Fatalf("budget %d, want 1 GiB", Limit())
	}
}
