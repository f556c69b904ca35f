package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// The fields pane's count of anomalous fields is the count of rows that
// carry a marker, on every update of a file with a renamed type (whose
// default-decoder reads are anomalies that mark nothing); L, once grading
// ended, does not say "so far".
func TestAnomalyViewsAgree(t *testing.T) {
	hs := newHarness(t, "patched.dem", patchedDota(t), 160, 48)
	count := regexp.MustCompile(`· (\d+) anomalous`)
	checked := 0
	for range 60 {
		hs.keys("n")
		title, _ := hs.m.fieldsPane(156, 40)
		rows := 0
		if hs.m.cur() != nil && hs.m.sel.Upd >= 0 {
			rows = markedRows(hs.m.cache.fields)
		}
		got := 0
		if mm := count.FindStringSubmatch(title); mm != nil {
			fmt.Sscan(mm[1], &got)
		}
		if got != rows {
			t.Fatalf("%+v: title %q counts %d, %d rows marked", hs.m.sel, title, got, rows)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no update checked")
	}
	if !hs.m.ix.GradeDone {
		t.Skip("grading did not finish in the harness")
	}
	hs.keys("L")
	s := hs.screen()
	if strings.Contains(s, "so far") || strings.Contains(s, "still grading") {
		t.Errorf("L after grading ended says so far:\n%s", s)
	}
}
