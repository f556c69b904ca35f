package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/writer"
)

// patchedDota is the Dota 2 replay as a game patch would leave it: QAngle
// renamed in its schema, so every angle falls back to the default decoder
// and the first message misaligns inside CWorld's baseline.
func patchedDota(t *testing.T) []byte {
	_, data := loadReplay(t, dotaReplay)
	patched, n, err := writer.RenameInSchema(data, writer.Rename{From: "QAngle", To: "PatchedQAngle"})
	if err != nil || n == 0 {
		t.Fatalf("patch: %d symbols, %v", n, err)
	}
	return patched
}

// TestScreenInferred: at the misaligned message the inspector says what
// the unknown name behaves as, where it breaks, and that I applies it.
func TestScreenInferred(t *testing.T) {
	screenTestOn(t, "patched.dem", patchedDota(t), func(hs *harness) { hs.keys("a") }, func(t *testing.T, hs *harness, s string) {
		insp := inspectorText(hs)
		for _, want := range []string{"type PatchedQAngle behaves as QAngle", "the first read of PatchedQAngle", "instance baseline", "I decodes the whole file with --as PatchedQAngle=QAngle"} {
			if !strings.Contains(insp, want) {
				t.Errorf("inspector lacks %q:\n%s", want, insp)
			}
		}
	})
}

// TestApplyInferred: I decodes the file again under the inferred alias,
// and nothing misaligns any more.
func TestApplyInferred(t *testing.T) {
	hs := newHarness(t, "patched.dem", patchedDota(t), 160, 48)
	if !hs.m.misaligned() || hs.m.inference == nil || hs.m.inference.checked == nil {
		t.Fatalf("before I: misaligned %v, inference %+v", hs.m.misaligned(), hs.m.inference)
	}
	hs.keys("I")
	if hs.m.fatal != "" {
		t.Fatal(hs.m.fatal)
	}
	if !hs.m.ix.Done || hs.m.misaligned() {
		t.Fatalf("after I: done %v, misaligned %v", hs.m.ix.Done, hs.m.misaligned())
	}
	if got := strings.Join(hs.m.opts.Aliases.Flags(), " "); got != "--as PatchedQAngle=QAngle" {
		t.Fatalf("aliases in force %q", got)
	}
	if s := inspectorText(hs); !strings.Contains(s, "--as PatchedQAngle=QAngle") {
		t.Errorf("the file summary does not say which aliases are in force:\n%s", s)
	}
}
