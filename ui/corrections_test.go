package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/sample"
)

// A CS2 file whose int32 a patch renamed: the opening note says what to do
// first (it survives an 80-column status line), the fields of the renamed
// type carry the strong marker (a misread, not just an unknown type), L counts the verdict and enter on it goes to the
// type's first read, and I decodes the file so without losing the place.
func TestRemainingVerdictOnScreen(t *testing.T) {
	_, data := loadReplay(t, "cs2/14065.dem")
	patched, n, err := writer.RenameInSchema(data, writer.Rename{From: "int32", To: "NetInt32_t"})
	if err != nil || n == 0 {
		t.Fatalf("rename: %d, %v", n, err)
	}
	narrow := newHarness(t, "patched", patched, 80, 24)
	if last := lastLine(narrow.screen()); !strings.HasPrefix(last, "I decodes 1 type as the values show") {
		t.Fatalf("80 columns: status line %q", last)
	}

	hs := newHarness(t, "patched", patched, 160, 48)
	hs.keys("L")
	if s := hs.screen(); !strings.Contains(s, "· 1 type read wrongly ·") {
		t.Fatalf("the list's title does not count the verdict:\n%s", s)
	}
	hs.keys("j", "enter")
	f := selField(hs)
	if f == nil || f.Schema == nil || f.Schema.VarType != "NetInt32_t" {
		t.Fatalf("enter on the verdict went to %+v (%s)", f, hs.m.note)
	}
	hs.screen()
	marked := false
	for _, r := range hs.m.cache.fields {
		marked = marked || r.Name == f.Name && r.Sev.Mark() == "!"
	}
	if !marked {
		t.Fatalf("%s (NetInt32_t) not marked:\n%s", f.Name, hs.screen())
	}
	at, raw := hs.m.sel, f.Value.U
	hs.keys("I")
	if hs.m.sel != at {
		t.Fatalf("I moved the selection from %+v to %+v", at, hs.m.sel)
	}
	g := selField(hs)
	if g == nil || g.Name != f.Name || g.Value.U != uint64(int64(int32(raw>>1)^-int32(raw&1))) {
		t.Fatalf("after I: %+v, want %s read as zigzag (was %d)", g, f.Name, raw)
	}
	if !strings.HasPrefix(hs.m.note, "decoded with --as NetInt32_t=int32: every value in place") {
		t.Errorf("the note when the decode ends: %q", hs.m.note)
	}
}

// A corrected field's inspector says what the seed reads from the same
// bits, what the game's reading gives, the evidence and the parsers;
// under --decoders seed the status line says the seed's reading decodes.
func TestCorrectedFieldInspector(t *testing.T) {
	hs := newHarness(t, "sample", sample.Replay, 160, 48)
	hs.keys("/")
	hs.typ("m_iCaptainPlayerIDs")
	hs.keys("enter")
	f := selField(hs)
	if f == nil || f.Schema == nil || f.Schema.Correction == nil {
		t.Fatalf("selected %+v", f)
	}
	text := inspectorText(hs)
	for _, want := range []string{"Corrected: PlayerID_t", "seed reads 2: the same bits, unsigned varint (fallback)", "game reads 1: PlayerID_t read as int32", "Manta, demoinfocs-golang, Clarity"} {
		if !strings.Contains(text, want) {
			t.Errorf("inspector lacks %q:\n%s", want, text)
		}
	}
	seed := newHarnessWith(t, "sample", sample.Replay, 160, 48, Options{NoColor: true, Aliases: schema.Aliases{Seed: true}})
	if last := lastLine(seed.screen()); !strings.Contains(last, "--decoders seed") {
		t.Errorf("the seed's reading is not named: %q", last)
	}
	seed.keys("/")
	seed.typ("m_iCaptainPlayerIDs")
	seed.keys("enter")
	if f := selField(seed); f == nil || f.Value.U != 2 || strings.Contains(inspectorText(seed), "Corrected:") {
		t.Errorf("under the seed's reading: %+v", f)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
