package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

// A ubitvar is taken apart into its 4 low bits, 2 selector bits, the extra
// bits the selector asks for, and their sum, for each width.
func TestUBitVarLines(t *testing.T) {
	for _, c := range []struct {
		v     uint32
		extra uint
	}{{5, 0}, {43, 4}, {256, 8}, {4000, 8}, {1 << 20, 28}} {
		var w bitio.Writer
		w.Bits(0b101, 3) // not at a byte boundary
		w.UBitVar(c.v)
		w.Bits(0, 40)
		l := ubitvarLines(w.Bytes(), 3)
		var text []string
		for _, x := range l {
			text = append(text, x.Label+" "+x.Text)
		}
		s := strings.Join(text, "\n")
		want := []string{
			fmt.Sprintf("bits %s low 4 · ", bitio.Spell(uint64(c.v&15), 4)),
			fmt.Sprintf("select: %d more", c.extra),
		}
		if c.extra == 0 {
			want = append(want, fmt.Sprintf("sum %d, in 6 bits", c.v))
		} else {
			want = append(want, fmt.Sprintf("sum %d + %d × 16 = %d, in %d bits", c.v&15, c.v>>4, c.v, 6+c.extra), fmt.Sprintf("%s extra", bitio.Spell(uint64(c.v>>4), c.extra)))
		}
		for _, x := range want {
			if !strings.Contains(s, x) {
				t.Errorf("%d: lacks %q:\n%s", c.v, x, s)
			}
		}
	}
}
