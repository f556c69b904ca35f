package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dembug/dembug/views"
)

var screenSizes = []struct{ w, h int }{{80, 24}, {160, 48}}

// screenTest runs script on the Dota replay at both sizes and compares the
// final screen to testdata/golden/ui/<test>/<w>x<h>.golden. check, when
// set, asserts facts the golden file alone would not make obvious.
func screenTest(t *testing.T, script func(hs *harness), check func(t *testing.T, hs *harness, screen string)) {
	_, data := loadReplay(t, dotaReplay)
	screenTestOn(t, "auto-20240102-2233.dem", data, script, check)
}

// screenTestOn is screenTest on any file's bytes.
func screenTestOn(t *testing.T, name string, data []byte, script func(hs *harness), check func(t *testing.T, hs *harness, screen string)) {
	screenTestWith(t, name, data, Options{NoColor: true}, script, check)
}

// screenTestWith is screenTestOn with the model's options.
func screenTestWith(t *testing.T, name string, data []byte, opts Options, script func(hs *harness), check func(t *testing.T, hs *harness, screen string)) {
	for _, sz := range screenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			hs := newHarnessWith(t, name, data, sz.w, sz.h, opts)
			script(hs)
			out := hs.screen()
			lines := strings.Split(out, "\n")
			if len(lines) != sz.h {
				t.Fatalf("screen has %d lines, want %d", len(lines), sz.h)
			}
			for i, l := range lines {
				if n := views.Width(l); n != sz.w { // cells: a wide character takes two
					t.Fatalf("line %d is %d cells, want %d: %q", i, n, sz.w, l)
				}
			}
			if strings.Contains(out, "\x1b[") {
				t.Fatal("NoColor screen has escape sequences")
			}
			if hs.m.fatal != "" {
				t.Fatalf("internal error: %s", hs.m.fatal)
			}
			if check != nil {
				check(t, hs, out)
			}
			requireGolden(t, out)
		})
	}
}

func TestScreenOpen(t *testing.T) {
	screenTest(t, func(hs *harness) {}, func(t *testing.T, hs *harness, s string) {
		if !hs.m.ix.Done || hs.m.ix.Err != nil {
			t.Fatalf("index: done %v err %+v", hs.m.ix.Done, hs.m.ix.Err)
		}
		if !strings.Contains(s, "FileHeader") {
			t.Fatal("first command not shown")
		}
	})
}

func TestScreenFirstUpdate(t *testing.T) {
	screenTest(t, func(hs *harness) { hs.keys("n") }, func(t *testing.T, hs *harness, s string) {
		if hs.m.sel.Upd != 0 || hs.m.ix.FlatOf(hs.m.sel) != 0 {
			t.Fatalf("selection %+v is not the first update", hs.m.sel)
		}
		for _, want := range []string{"CWorld", "m_flSimulationTime"} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q", want)
			}
		}
	})
}

// Moving through fields: the inspector and bitstream follow the field.
func TestScreenFields(t *testing.T) {
	screenTest(t, func(hs *harness) {
		hs.keys("n", "n", "tab")
		hs.keys("j", "j", "j")
	}, func(t *testing.T, hs *harness, s string) {
		fs := hs.m.curFields()
		if hs.m.sel.Field != 3 || len(fs) < 4 {
			t.Fatalf("field %d of %d selected, want 3", hs.m.sel.Field, len(fs))
		}
		f := fs[3]
		if f.Name != "m_hAssignedHero" {
			t.Fatalf("field 3 is %s, want m_hAssignedHero", f.Name)
		}
		// The bitstream's selection title names the field's value offset.
		if hs.m.layout().visible[paneBits] && !strings.Contains(s, "field 3 · value "+offsetOf(f.Start)) {
			t.Errorf("bitstream does not follow field 3 (%s)", offsetOf(f.Start))
		}
		if hs.m.layout().visible[paneInspector] && !strings.Contains(s, "handle") {
			t.Error("inspector does not explain the handle")
		}
	})
}

func TestScreenGotoTick(t *testing.T) {
	screenTest(t, func(hs *harness) {
		hs.keys("g")
		hs.typ("100")
		hs.keys("enter")
	}, func(t *testing.T, hs *harness, s string) {
		c := hs.m.ix.Cmd(hs.m.sel.Cmd)
		if c == nil || c.Tick < 100 || hs.m.sel.Upd < 0 {
			t.Fatalf("selection %+v is not an update at tick ≥ 100", hs.m.sel)
		}
		for i := 0; i < hs.m.sel.Cmd; i++ {
			if cc := hs.m.ix.Commands[i]; cc.Tick >= 100 && cc.NumUpdates() > 0 {
				t.Fatalf("command #%d at tick %d comes earlier", i, cc.Tick)
			}
		}
	})
}

func TestScreenSearch(t *testing.T) {
	screenTest(t, func(hs *harness) {
		hs.keys("/")
		hs.typ("m_vecX")
		hs.keys("enter")
	}, func(t *testing.T, hs *harness, s string) {
		fs := hs.m.curFields()
		if hs.m.sel.Field < 0 || !strings.Contains(fs[hs.m.sel.Field].Name, "m_vecX") {
			t.Fatalf("selected field is not an m_vecX: %+v", hs.m.sel)
		}
		if hs.m.layout().visible[paneInspector] {
			for _, want := range []string{"/ 8191 × 255.96875 =", "dropped at set-up: low already exact"} {
				if !strings.Contains(strings.ReplaceAll(s, "│", ""), want) && !strings.Contains(inspectorText(hs), want) {
					t.Errorf("inspector lacks %q", want)
				}
			}
		}
	})
}

func TestScreenHelp(t *testing.T) {
	screenTest(t, func(hs *harness) { hs.keys("?") }, func(t *testing.T, hs *harness, s string) {
		for _, b := range hs.m.keys.HelpGroups() {
			for _, k := range b.Keys {
				if hs.m.w >= 160 && !strings.Contains(s, k.Keys) {
					t.Errorf("help lacks %q", k.Keys)
				}
			}
		}
	})
}
