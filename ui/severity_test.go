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
