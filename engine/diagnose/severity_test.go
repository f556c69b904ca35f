package diagnose

import "testing"

// A read by the default decoder alone is the seed's rule for enums and
// ids: no mark. With another anomaly beside it, that one grades it.
func TestDefaultDecoderReadIsNoMark(t *testing.T) {
	fb := Anomaly{Rule: Fallback, Score: Scores[Fallback]}
	dangling := Anomaly{Rule: DanglingHandle, Score: Scores[DanglingHandle]}
	overlong := Anomaly{Rule: VarintTooLong, Score: Scores[VarintTooLong]}
	for _, c := range []struct {
		as   []Anomaly
		want Severity
	}{
		{[]Anomaly{fb}, SevNone},
		{[]Anomaly{fb, dangling}, SevWeak},
		{[]Anomaly{fb, overlong}, SevStrong},
	} {
		if got := Grade(c.as); got != c.want {
			t.Errorf("%v: severity %v, want %v", c.as, got, c.want)
		}
	}
}

// Strength counts the message-level anomaly with the fields' and splits
// them at Threshold.
func TestStrength(t *testing.T) {
	rep := Report{
		Anomalies: [][]Anomaly{
			{{Rule: NonFinite, Score: Threshold}},
			nil,
			{{Rule: DanglingHandle, Score: Threshold / 2}, {Rule: AbsurdFloat, Score: Threshold + 1}},
		},
		End: &Anomaly{Rule: UnreadBits, Score: Threshold / 4},
	}
	if s, w := rep.Strength(); s != 2 || w != 2 {
		t.Errorf("Strength = %d strong, %d weak; want 2, 2", s, w)
	}
	if n := rep.Anomalous(0, 3); n != 2 {
		t.Errorf("Anomalous(0, 3) = %d, want 2", n)
	}
	if n := rep.Anomalous(1, 1); n != 0 {
		t.Errorf("Anomalous(1, 1) = %d, want 0", n)
	}
	if as := rep.FieldAnomalies(1, 1); len(as) != 2 {
		t.Errorf("FieldAnomalies(1, 1) has %d anomalies, want 2", len(as))
	}
	if as := rep.FieldAnomalies(2, 5); as != nil {
		t.Errorf("FieldAnomalies past the end = %v, want nil", as)
	}
}
