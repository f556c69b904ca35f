package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/schema"
)

// With --as in force the timeline's title names the aliases, and the
// inspector's "why" line says the alias chose the decoder.
func TestScreenAliasesShown(t *testing.T) {
	a, err := schema.ParseAliases([]string{"PatchedQAngle=QAngle"}, game.Unknown)
	if err != nil {
		t.Fatal(err)
	}
	screenTestWith(t, "patched.dem", patchedDota(t), Options{NoColor: true, Aliases: a}, func(hs *harness) {
		hs.keys("/")
		hs.typ("m_angRotation")
		hs.keys("enter", "tab") // tab: the search's note gives way
	}, func(t *testing.T, hs *harness, s string) {
		if f := selField(hs); f == nil || !strings.HasSuffix(f.Name, "m_angRotation") {
			t.Fatalf("selected %+v", f)
		}
		if !strings.Contains(s, "--as PatchedQAngle=QAngle") {
			t.Errorf("no title names the alias:\n%s", s)
		}
		if insp := inspectorText(hs); !strings.Contains(insp, "type PatchedQAngle read as QAngle (--as)") {
			t.Errorf("the why line does not name the alias:\n%s", insp)
		}
	})
}

// A search or filter for a field only the baselines set says so, not that
// nothing matches; so does one for a field only classes without entities
// declare; a name the file lacks still says nothing matches.
func TestSearchBaselineOnlyField(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "auto-20240102-2233.dem", data, 160, 48)
	for _, k := range []string{"/", "f"} {
		hs.keys(k)
		hs.typ("m_CustomHealthLabel")
		hs.keys("enter")
		if !strings.Contains(hs.m.note, "m_CustomHealthLabel: only baselines set it, no update writes it") {
			t.Errorf("%s m_CustomHealthLabel: %q", k, hs.m.note)
		}
	}
	// No item lies on the ground in the replay: only CDOTA_Item_Physical,
	// which no entity is, declares the field.
	hs.keys("/")
	hs.typ("m_bIsLowPriorityHoverItem")
	hs.keys("enter")
	if !strings.Contains(hs.m.note, "m_bIsLowPriorityHoverItem: declared by CDOTA_Item_Physical, but no entity of this file has it") {
		t.Errorf("/ of a field only unused classes declare: %q", hs.m.note)
	}
	hs.keys("/")
	hs.typ("m_NoSuchFieldAnywhere")
	hs.keys("enter")
	if !strings.Contains(hs.m.note, "no field or class matches") {
		t.Errorf("/ of a missing name: %q", hs.m.note)
	}
}
