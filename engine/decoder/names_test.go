package decoder

import (
	"strings"
	"testing"
)

// Setup says why set-up changed each flag the schema asked for.
func TestSetupFlagChanges(t *testing.T) {
	for _, tc := range []struct {
		flags     int32
		low, high float32
		want      string
	}{
		{QuantRoundDown, 0, 256, "flags ROUNDDOWN → dropped at set-up: low already exact"},
		{QuantEncodeZero, 0, 100, "ENCODE_ZERO"},
		{QuantEncodeZero, 5, 100, "0 is outside the range"},
		{QuantEncodeIntegers | QuantRoundDown, 0, 100, "ENCODE_INTEGERS overrides it"},
	} {
		q, err := NewQuantized(10, tc.flags, tc.low, true, tc.high, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.Setup(); !strings.Contains(got, tc.want) {
			t.Errorf("flags %d over %g…%g: %q lacks %q", tc.flags, tc.low, tc.high, got, tc.want)
		}
	}
}

// Every family has a name and a short name, and the short names tell the
// families apart.
func TestEveryFamilyIsNamed(t *testing.T) {
	seen := map[string]Family{}
	for _, f := range Families() {
		if families[f].name == "" || families[f].short == "" || families[f].id == "" {
			t.Errorf("family %d lacks a name, short name or ID", f)
		}
		if g, ok := seen[families[f].short]; ok {
			t.Errorf("%s and %s share the short name %q", g, f, families[f].short)
		}
		seen[families[f].short] = f
	}
	if s := (&Decoder{Family: FamVector, Components: 3, Elem: &Decoder{Family: FamCoord}}).Short(); s != "vec3×coord" {
		t.Errorf("vector short name %q", s)
	}
	if s := (*Decoder)(nil).Short(); s != "?" {
		t.Errorf("no decoder: %q", s)
	}
}
