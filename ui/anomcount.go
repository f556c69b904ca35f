package ui

import (
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/views"
)

// markedRows counts the field rows that carry an anomaly marker.
func markedRows(rows []views.FieldRow) int {
	n := 0
	for i := range rows {
		if rows[i].Sev != views.SevNone {
			n++
		}
	}
	return n
}

// markedStrength counts a report's anomalies as the markers grade them:
// those that count (a read by the default decoder alone does not), strong
// or weak, the message-level one included.
func markedStrength(rep *diagnose.Report) (strong, weak int) {
	if rep == nil {
		return 0, 0
	}
	rep.Each(func(a diagnose.Anomaly) {
		if !diagnose.Counted(a) {
			return
		}
		if diagnose.SeverityOf(a) == diagnose.SevStrong {
			strong++
		} else {
			weak++
		}
	})
	return strong, weak
}
