package cli

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/testreplays"
)

// A replay cut or corrupted anywhere must decode what comes before the damage
// and report one located error, never panic.
func TestTruncatedAndCorruptReplays(t *testing.T) {
	path, data := testreplays.Read(t, "dota2")
	full, _ := CheckOnly(path, data)
	for cut := 0; cut < len(data); cut += 4096 {
		res, _ := CheckOnly(path, data[:cut])
		if res.Error == "" {
			t.Fatalf("cut at %d: no error reported", cut)
		}
		if cut > 16 && !strings.Contains(res.Error, "byte ") {
			t.Fatalf("cut at %d: error does not name a byte offset: %s", cut, res.Error)
		}
		if res.Commands > full.Commands {
			t.Fatalf("cut at %d decoded more commands than the whole file", cut)
		}
	}
	rng := rand.New(rand.NewSource(1))
	buf := make([]byte, len(data))
	for i := 0; i < 200; i++ {
		copy(buf, data)
		pos := 16 + rng.Intn(len(data)-16)
		buf[pos] ^= 1 << rng.Intn(8)
		CheckOnly(path, buf) // must not panic; errors are expected
	}
}
