package ui

import "testing"

// Valve writes DEM_SpawnGroups and DEM_FileInfo after DEM_Stop: a whole
// replay ends without the "no DEM_Stop" note; a cut one says it stopped.
func TestEndOfAWholeReplayHasNoNote(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, "whole.dem", data, 160, 48)
	if hs.m.ix.EndNote != "" || hs.m.ix.Err != nil {
		t.Fatalf("whole replay: note %q, error %+v", hs.m.ix.EndNote, hs.m.ix.Err)
	}
	cut := newHarness(t, "cut.dem", data[:len(data)*3/4], 160, 48)
	if cut.m.ix.Err == nil {
		t.Fatal("a replay cut at three quarters ends without an error")
	}
}
