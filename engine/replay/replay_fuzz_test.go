package replay

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/internal/testreplays"
	"github.com/dembug/dembug/sample"
)

// seedCuts is where each game's first shared replay is cut for a seed: past
// the signon and its first in-game packets, so that a seed reaches every
// stage of decoding while staying quick to run.
var seedCuts = map[string]int{"dota2": 300 << 10, "cs2": 112 << 10, "deadlock": 128 << 10}

// runLimit is far above the time any seed takes (the whole Dota 2 replay
// decodes in well under a second): a run slower than this is a hang.
const runLimit = 10 * time.Second

// FuzzRun opens and decodes mutated demo files, seeded with the built-in
// sample and, where present, the start of a shared replay of each game.
// Whatever the input: no panic, the run ends, every error from Open is a
// *container.Error and every error from Run a *Error whose byte offset lies
// inside the file (or at its end, for a missing DEM_Stop), and the counts
// stay within what the file could hold.
func FuzzRun(f *testing.F) {
	f.Add(sample.Replay)
	if dir := testreplays.Dir(); dir != "" {
		for g, cut := range seedCuts {
			files, _ := filepath.Glob(filepath.Join(dir, g, "*.dem"))
			if len(files) == 0 {
				continue
			}
			if data, err := os.ReadFile(files[0]); err == nil {
				f.Add(data[:min(cut, len(data))])
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Open(data)
		if err != nil {
			var ce *container.Error
			if !errors.As(err, &ce) || ce.Offset != 0 {
				t.Fatalf("open: %T %v", err, err)
			}
			return
		}
		start := time.Now()
		err = r.Run(nil)
		if d := time.Since(start); d > runLimit {
			t.Fatalf("run took %v for %d bytes", d, len(data))
		}
		if err != nil {
			var re *Error
			if !errors.As(err, &re) {
				t.Fatalf("run: error %T carries no location: %v", err, err)
			}
			if re.Loc.Offset < container.HeaderSize || re.Loc.Offset > len(data) || re.Loc.Command < 0 {
				t.Fatalf("error located at byte %d, command %d of a %d-byte file: %v", re.Loc.Offset, re.Loc.Command, len(data), err)
			}
		}
		if !r.Done && err != nil {
			t.Fatal("error without Done")
		}
		if r.Stats.Commands > len(data) || r.Stats.PacketEntities > int64(len(data)) || r.Stats.Misaligned > r.Stats.PacketEntities {
			t.Fatalf("stats %+v from %d bytes", r.Stats, len(data))
		}
		if r.FirstMisaligned != nil && (r.FirstMisaligned.Loc.Offset > len(data) || r.Stats.Misaligned == 0) {
			t.Fatalf("first misaligned %v with %d misaligned", r.FirstMisaligned, r.Stats.Misaligned)
		}
	})
}
