package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/sample"
)

// An inner message that is not packet-entities opens as its wire tree:
// svc_ServerInfo of the built-in sample, with the modelled fields named.
func TestScreenWireServerInfo(t *testing.T) {
	screenTestOn(t, "sample.dem", sample.Replay, func(hs *harness) {
		hs.keys("j", "j", "j", "right", "j")
	}, func(t *testing.T, hs *harness, s string) {
		if !wide(s) {
			return
		}
		if msg := hs.m.ix.Msg(hs.m.sel.Cmd, hs.m.sel.Msg); msg == nil || msg.Name != "svc_ServerInfo" {
			t.Fatalf("selection %+v is not svc_ServerInfo", hs.m.sel)
		}
		for _, want := range []string{"Wire · svc_ServerInfo", "max_classes", "class ids take", "/opt/srcds/dota_v10000/"} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q", want)
			}
		}
	})
}

// A command body without inner messages opens as its wire tree too:
// DEM_ClassInfo's classes, nested.
func TestScreenWireClassInfo(t *testing.T) {
	screenTestOn(t, "sample.dem", sample.Replay, func(hs *harness) {
		hs.keys("j", "j", "j", "j", "j")
	}, func(t *testing.T, hs *harness, s string) {
		if !wide(s) {
			return
		}
		if c := hs.m.ix.Cmd(hs.m.sel.Cmd); c == nil || c.Kind.String() != "DEM_ClassInfo" {
			t.Fatalf("selection %+v is not DEM_ClassInfo", hs.m.sel)
		}
		for _, want := range []string{"Wire · DEM_ClassInfo", "#1 classes", "network_name", "CDOTA_Unit_Roshan"} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q", want)
			}
		}
	})
}

// wide reports whether the screen is wide enough for the fields pane.
func wide(s string) bool { return len([]rune(strings.SplitN(s, "\n", 2)[0])) >= 160 }

// A string-table create lists the entries it wrote; an instance baseline's
// key names its class.
func TestScreenStringTableEntries(t *testing.T) {
	screenTestOn(t, "sample.dem", sample.Replay, func(hs *harness) {
		hs.keys("j", "j", "right", "j")
	}, func(t *testing.T, hs *harness, s string) {
		if msg := hs.m.ix.Msg(hs.m.sel.Cmd, hs.m.sel.Msg); msg == nil || msg.Name != "svc_CreateStringTable" {
			t.Fatalf("selection %+v is not svc_CreateStringTable", hs.m.sel)
		}
		if !wide(s) {
			return
		}
		for _, want := range []string{"String-table entries", "instancebaseline created", `"0" = CDOTAGamerulesProxy, 1 byte`} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q", want)
			}
		}
	})
}

// j in the fields pane moves through the wire tree, and the bitstream
// shows the body with the selected field's bytes (svc_ServerInfo's
// game_dir, at byte 9).
func TestScreenWireSelect(t *testing.T) {
	screenTestOn(t, "sample.dem", sample.Replay, func(hs *harness) {
		hs.keys("j", "j", "j", "right", "j")
		for i := 0; i < 8 && hs.m.focus != paneFields; i++ {
			hs.keys("tab")
		}
		hs.keys("j", "j", "j")
	}, func(t *testing.T, hs *harness, s string) {
		if hs.m.wireSel != 3 || hs.m.focus != paneFields {
			t.Fatalf("wire row %d selected, focus on pane %d", hs.m.wireSel, hs.m.focus)
		}
		if !wide(s) {
			return
		}
		for _, want := range []string{"> 0x9", "Bitstream · svc_ServerInfo", "0x9.0 +34 bytes"} {
			if !strings.Contains(s, want) {
				t.Errorf("screen lacks %q", want)
			}
		}
	})
}

// The inspector spells out the selected wire field in full, where the
// fields pane cuts it: DEM_FileHeader's game_directory with the game and
// the build read from it; and command #0 explains the file header's two
// offsets with the commands they point at (the sample's #100 and #99).
func TestScreenWireFileHeader(t *testing.T) {
	screenTestOn(t, "sample.dem", sample.Replay, func(hs *harness) {
		for i := 0; i < 8 && hs.m.focus != paneFields; i++ {
			hs.keys("tab")
		}
		hs.keys("j", "j", "j", "j", "j")
	}, func(t *testing.T, hs *harness, s string) {
		if hs.m.wireSel != 5 || hs.m.cache.wire[5].Name != "game_directory" {
			t.Fatalf("wire row %d selected, want 5 (game_directory)", hs.m.wireSel)
		}
		text := inspectorText(hs)
		for _, want := range []string{
			"#6 game_directory, wire type bytes",
			`"/opt/srcds/dota_v10000/game/dota" (game dota2, from the last element; build 10000, from dota_v10000)`,
			"file info    byte 6497 (int32 at 0x8): command #100 DEM_FileInfo",
			"spawn groups byte 6494 (int32 at 0xc): command #99 DEM_SpawnGroups",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("inspector lacks %q:\n%s", want, text)
			}
		}
		if wide(s) && !strings.Contains(s, "build 10000, from dota_v10000") {
			t.Error("the build is not on the 160×48 screen")
		}
	})
}

// svc_ServerInfo's max_classes, selected, shows the class-id width it
// gives in the inspector (the fields pane cuts it).
func TestScreenWireMaxClasses(t *testing.T) {
	screenTestOn(t, "sample.dem", sample.Replay, func(hs *harness) {
		hs.keys("j", "j", "j", "right", "j")
		for i := 0; i < 8 && hs.m.focus != paneFields; i++ {
			hs.keys("tab")
		}
		hs.keys("j")
	}, func(t *testing.T, hs *harness, s string) {
		if !strings.Contains(inspectorText(hs), "5 (class ids take floor(log2 5) + 1 = 3 bits)") {
			t.Errorf("inspector lacks the class-id width:\n%s", inspectorText(hs))
		}
		if wide(s) && !strings.Contains(s, "3 bits)") {
			t.Error("the class-id width is not on the 160×48 screen")
		}
	})
}

// DEM_SendTables counts the schema's serializers and distinct fields.
func TestScreenSendTablesSchema(t *testing.T) {
	screenTestOn(t, "sample.dem", sample.Replay, func(hs *harness) {
		hs.keys("j", "j", "j", "j")
	}, func(t *testing.T, hs *harness, s string) {
		if !strings.Contains(inspectorText(hs), "8 serializers, 50 distinct fields") {
			t.Errorf("inspector lacks the schema's counts:\n%s", inspectorText(hs))
		}
	})
}
