package demoinfocs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/shrink"
	"github.com/dembug/dembug/internal/testreplays"
)

// infocsError is the first line demoinfocs-read (cmd/demoinfocs-read, the
// test a user gives dembug shrink) prints on the file at path ("" when
// demoinfocs reads it to its end). A process a file: demoinfocs keeps
// memory after an error (its dispatch goroutines), so parsing hundreds of
// candidates in one process grows without bound.
func infocsError(ctx context.Context, bin, path string) string {
	out, err := exec.CommandContext(ctx, bin, path).CombinedOutput()
	if err == nil {
		return ""
	}
	return shrink.LastLine(out)
}

// entityUpdates decodes data with dembug, cleanly or failing the test, and
// counts its entity updates (as check does).
func entityUpdates(t *testing.T, data []byte) int {
	t.Helper()
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	r.Hooks.Entities = func(_ replay.Location, _ *messages.PacketEntities, res entity.Result, _ *provenance.Message) {
		n += res.Updates
	}
	if err := r.Run(nil); err != nil || r.FirstMisaligned != nil {
		t.Fatalf("dembug does not read it clean: %v %v", err, r.FirstMisaligned)
	}
	return n
}

// TestShrinkWithDemoinfocs: demoinfocs cannot read 14155 and 14160
// ("unable to find existing entity"); shrink, with demoinfocs as the
// test, finds a file it still fails on that way, that dembug reads clean
// and that holds at most a tenth of the original's entity updates.
func TestShrinkWithDemoinfocs(t *testing.T) {
	const want = "unable to find existing entity"
	if testing.Short() {
		t.Skip("-short: shrinks two replays, a demoinfocs process a candidate")
	}
	bin := filepath.Join(t.TempDir(), "demoinfocs-read")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/demoinfocs-read").CombinedOutput(); err != nil {
		t.Fatalf("building demoinfocs-read: %v\n%s", err, out)
	}
	for _, path := range testreplays.Files(t, "cs2") {
		name := filepath.Base(path)
		if name != "14155.dem" && name != "14160.dem" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if e := infocsError(ctx, bin, path); !strings.Contains(e, want) {
				t.Skipf("demoinfocs reads the original otherwise: %q", e)
			}
			dir := t.TempDir()
			var n atomic.Int64
			res, err := shrink.Shrink(ctx, data, shrink.Options{Jobs: 2, Test: func(ctx context.Context, cand []byte) (bool, []byte) {
				p := filepath.Join(dir, fmt.Sprintf("c%d.dem", n.Add(1)))
				if err := os.WriteFile(p, cand, 0o644); err != nil {
					return false, nil
				}
				defer os.Remove(p)
				e := infocsError(ctx, bin, p)
				return strings.Contains(e, want), []byte(e)
			}})
			if err != nil {
				t.Fatal(err)
			}
			small := filepath.Join(dir, "small.dem")
			if err := os.WriteFile(small, res.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			if e := infocsError(ctx, bin, small); !strings.Contains(e, want) {
				t.Fatalf("demoinfocs on the shrunk file: %q", e)
			}
			orig, got := entityUpdates(t, data), entityUpdates(t, res.Data)
			if got*10 > orig || !res.Minimal {
				t.Fatalf("%d entity updates of the original's %d (1-minimal: %v)", got, orig, res.Minimal)
			}
			t.Logf("%d → %d bytes, %d → %d entity updates, %d tests: %s; %s", len(data), len(res.Data), orig, got, res.Tests,
				strings.Join(res.Remains(), "; "), shrink.LastLine(res.Output))
		})
	}
}
