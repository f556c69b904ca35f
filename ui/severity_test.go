package ui

import (
	"testing"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/views"
)

// A read by the default decoder alone is the seed's rule for enums and
// ids: no `?` mark. With another anomaly beside it, that one grades it.
func TestDefaultDecoderReadIsNoMark(t *testing.T) {
	fb := diagnose.Anomaly{Rule: diagnose.Fallback, Score: diagnose.Scores[diagnose.Fallback]}
	dangling := diagnose.Anomaly{Rule: diagnose.DanglingHandle, Score: diagnose.Scores[diagnose.DanglingHandle]}
	overlong := diagnose.Anomaly{Rule: diagnose.VarintTooLong, Score: diagnose.Scores[diagnose.VarintTooLong]}
	for _, c := range []struct {
		as   []diagnose.Anomaly
		want views.Severity
	}{
		{[]diagnose.Anomaly{fb}, views.SevNone},
		{[]diagnose.Anomaly{fb, dangling}, views.SevWeak},
		{[]diagnose.Anomaly{fb, overlong}, views.SevStrong},
	} {
		if got := severity(c.as); got != c.want {
			t.Errorf("%v: severity %v, want %v", c.as, got, c.want)
		}
	}
}

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
