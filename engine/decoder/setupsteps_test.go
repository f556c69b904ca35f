package decoder

import (
	"fmt"
	"strings"
	"testing"
)

// The steps end where NewQuantized ends, and name the numbers
// docs/format.md §6 computes.
func TestSetupStepsAgree(t *testing.T) {
	for _, bits := range []int32{1, 4, 10, 13, 15, 20} {
		for _, flags := range []int32{0, 1, 2, 4, 5, 6, 8, 9, 12, -8} {
			for _, r := range [][2]float32{{0, 1}, {-25, 25}, {0, 102.3}, {0, 5}, {0, 100}, {-1, 0}, {0.1, 0.7}} {
				q, err := NewQuantized(bits, flags, r[0], true, r[1], true)
				steps := SetupSteps(bits, flags, r[0], true, r[1], true)
				last := steps[len(steps)-1]
				if err != nil {
					if !strings.Contains(last, "error") {
						t.Errorf("%d bits %d %v: NewQuantized fails (%v), steps end %q", bits, flags, r, err, last)
					}
					continue
				}
				want := fmt.Sprintf("reads %d bits over %v … %v", q.Bits, q.Low, q.High)
				if f := q.Flags & 7; f != 0 {
					want += ", after " + FlagNames(f)
				}
				if !strings.HasPrefix(last, want) {
					t.Errorf("%d bits %d %v: steps end %q, set-up %q", bits, flags, r, last, want)
				}
			}
		}
	}
	has := func(steps []string, sub string) {
		t.Helper()
		if !strings.Contains(strings.Join(steps, "\n"), sub) {
			t.Errorf("no %q in\n%s", sub, strings.Join(steps, "\n"))
		}
	}
	pr := SetupSteps(10, -8, 0, true, 5, true)
	has(pr, "bits 0xfffffff0 above the four flags")
	has(pr, "= 2^3 = 8")
	has(pr, "= 7.9921875")
	has(pr, "a step is 7.9921875 / 1023 = 0.0078125")
	wd := SetupSteps(10, QuantRoundUp, 0, true, 102.3, true)
	has(wd, "= uint32(1022.99994) = 1022")
	has(wd, "ROUNDUP kept")
	fr := SetupSteps(10, QuantRoundUp, -25, true, 25, true)
	has(fr, "= -24.951172")
	has(fr, "ROUNDUP dropped")
	has(SetupSteps(4, 8, 0, true, 100, true), "4 → 8")
	has(SetupSteps(13, QuantRoundDown, 0, true, 256, true), "ROUNDDOWN dropped")
}
