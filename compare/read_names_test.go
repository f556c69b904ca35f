package compare

import (
	"strings"
	"testing"
	"time"
)

func TestNormalName(t *testing.T) {
	for in, want := range map[string]string{
		"m_vecX":                       "m_vecX",
		"m_iCaptainPlayerIDs.0001":     "m_iCaptainPlayerIDs.0001",
		"m_iCaptainPlayerIDs.1":        "m_iCaptainPlayerIDs.0001",
		"m_iCaptainPlayerIDs[1]":       "m_iCaptainPlayerIDs.0001",
		"m_vec.12.m_y":                 "m_vec.0012.m_y",
		"m_vec[12].m_y":                "m_vec.0012.m_y",
		"m_a[3][4]":                    "m_a.0003.0004",
		"m_big.12345":                  "m_big.12345",
		"CBodyComponent.m_cellX":       "CBodyComponent.m_cellX",
		"m_flPoseParameter.3":          "m_flPoseParameter.0003",
		"m_x.1a":                       "m_x.1a",
		"m_odd[":                       "m_odd[",
		"m_odd[x]":                     "m_odd[x]",
		"m_nested.0002.m_list.7.m_val": "m_nested.0002.m_list.0007.m_val",
	} {
		if got := normalName(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// A long run of digits in a name is read in time linear in its length (it
// took time in the square of the digits: 13 s for 200,000, minutes for a
// million), and written as before.
func TestNormalNameOfLongDigitRuns(t *testing.T) {
	digits := strings.Repeat("9", 1_000_000)
	for _, name := range []string{"m_vec." + digits, "m_vec[" + digits, "m_vec." + digits + "a", "m_vec.1" + digits + ".m_x", "m_vec[" + digits + "]"} {
		done := make(chan string, 1)
		go func() { done <- normalName(name) }()
		select {
		case got := <-done:
			want := name
			if strings.HasSuffix(name, "]") {
				want = "m_vec." + digits
			}
			if got != want {
				t.Errorf("%.12s…: %d bytes, want %d", name, len(got), len(want))
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%.12s… (%d bytes): no name after 5 s", name, len(name))
		}
	}
	trace := `{"tick":1,"entity":2,"name":"m_vec.` + digits + `","value":1}` + "\n"
	start := time.Now()
	if reads, err := ParseTrace(strings.NewReader(trace)); err != nil || len(reads) != 1 || time.Since(start) > 5*time.Second {
		t.Fatalf("a trace line with a million digits: %v, %d reads, %v", err, len(reads), time.Since(start))
	}
}
