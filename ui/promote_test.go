package ui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/brokendemo"
)

// P turns a what-if over every field of a type into an --as, decodes the
// whole file again under it, and says the command line and how many values
// the two readings differ in.
func TestPromoteWhatIf(t *testing.T) {
	hs := newHarness(t, wrongName, brokendemo.WrongDecoder(), 160, 48)
	toSpeed(t, hs)
	hs.keys("P")
	if !strings.Contains(hs.m.note, "no what-if here") {
		t.Errorf("P without a what-if: %q", hs.m.note)
	}
	if !hs.m.misaligned() {
		t.Fatal("the broken demo does not misalign")
	}
	hs.keys("d")
	pick(t, hs, "raw 32-bit float")
	for hs.m.picker.scope != scopeType {
		hs.keys("s")
	}
	hs.keys("enter")
	if hs.m.wiHere() == nil {
		t.Fatalf("no what-if: %q", hs.m.note)
	}
	hs.keys("P")
	if hs.m.fatal != "" {
		t.Fatal(hs.m.fatal)
	}
	// float32 fields with a bit count are quantized; a type whose rule
	// reads a raw float regardless is what the alias names.
	flags := strings.Join(hs.m.opts.Aliases.Flags(), " ")
	if !strings.HasPrefix(flags, "--as float32=") {
		t.Fatalf("aliases after P: %q (note %q)", flags, hs.m.note)
	}
	if !hs.m.ix.Done || hs.m.misaligned() {
		t.Errorf("after P: done %v, misaligned %v", hs.m.ix.Done, hs.m.misaligned())
	}
	if f := selField(hs); hs.m.sel.Cmd >= 0 && f != nil && f.Name == brokendemo.Speed && f.Decoder.Label() != "raw 32-bit float" {
		t.Errorf("%s still read as %s", f.Name, f.Decoder.Label())
	}
	m := regexp.MustCompile(`^promoted: dembug wrong-decoder\.dem --as float32=\S+ · (\d+) of (\d+) values change$`).FindStringSubmatch(hs.m.note)
	if m == nil {
		t.Fatalf("note %q", hs.m.note)
	}
	changed, _ := strconv.Atoi(m[1])
	total, _ := strconv.Atoi(m[2])
	if changed == 0 || changed > total {
		t.Errorf("%d of %d values change", changed, total)
	}
	if !strings.Contains(inspectorText(hs), "promoted") && hs.m.sel.Cmd < 0 {
		t.Error("the file summary does not say what was promoted")
	}
}
