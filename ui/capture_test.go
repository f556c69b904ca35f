package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/mapfile"
)

// The Deadlock broadcast capture opens in the debugger as a replay and
// steps to its last tick: the timeline ends with where the capture stops,
// and a command's place names its fragment file.
func TestBroadcastCaptureOpens(t *testing.T) {
	dir, tried := replaysDir()
	if dir == "" {
		t.Skipf("shared replays not found (looked in %s)", strings.Join(tried, ", "))
	}
	path := filepath.Join(dir, "deadlock", "broadcast-2025-02-27")
	data, err := mapfile.ReadFile(path)
	if err != nil {
		t.Skipf("capture not readable: %v", err)
	}
	hs := newHarness(t, path, data, 160, 48)
	ix := hs.m.ix
	if !ix.Done || ix.Err != nil {
		t.Fatalf("index: done %v, err %v", ix.Done, ix.Err)
	}
	if !strings.Contains(ix.EndNote, "the capture stops at 40/delta.bin") {
		t.Fatalf("end note %q", ix.EndNote)
	}
	hs.keys("end", "up")
	s := hs.screen()
	for _, want := range []string{"tick 15772", "40/delta.bin byte 467720", "the capture stops at"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	// The last packet's entity updates load.
	hs.keys("N")
	if hs.m.cur() == nil || hs.m.loadErr != "" || hs.m.fatal != "" {
		t.Fatalf("last update does not load: %q %q", hs.m.loadErr, hs.m.fatal)
	}
}

// A message that breaks in an update header says so in its inspector
// once the suspect search has run: two PVS bits the data does not have.
func TestHeaderCheckInInspector(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	pvs, n, err := writer.AddField(data, messages.SvcPacketEntities, 16, 1)
	if err != nil || n == 0 {
		t.Fatal(n, err)
	}
	hs := newHarness(t, "pvs.dem", pvs, 160, 48)
	at, ok := hs.m.firstMisaligned()
	if !ok {
		t.Fatal("nothing misaligned")
	}
	hs.run(hs.m.firstSuspectCmd(nil))
	if l := hs.m.suspect; l == nil || !strings.Contains(l.header(), "aligns with no PVS bits") {
		t.Fatalf("suspect %+v", hs.m.suspect)
	}
	hs.m.sel = at
	hs.m.cache.inspKey.drop()
	if s := inspectorText(hs); !strings.Contains(s, "aligns with no PVS bits") {
		t.Fatalf("inspector:\n%s", s)
	}
}
