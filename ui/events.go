package ui

import (
	"fmt"
	"strings"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// eventLines are the inspector's lines for a game event message: its name,
// the list entry that defines it (or why none does), and the types the
// message sends against the ones the entry declares.
func eventLines(e *session.EventInfo) []views.InspectorLine {
	if e == nil {
		return nil
	}
	if e.Err != nil {
		return []views.InspectorLine{{Label: "event", Text: e.Err.Error(), Style: views.LineError}}
	}
	lines := []views.InspectorLine{{Label: "event", Text: fmt.Sprintf("%s (event id %d)", e.Label, e.ID), Style: views.LineMath}}
	d := e.Desc()
	if d == nil {
		return append(lines, views.InspectorLine{Label: "defined by", Text: e.Why() + ": its values are known by position only", Style: views.LineWarn})
	}
	lines = append(lines, views.InspectorLine{Label: "defined by",
		Text: fmt.Sprintf("entry #%d of the file's event list (GE_Source1LegacyGameEventList, %d entries): %s", d.Index, len(e.List.Descriptors), session.EventKeysText(d))})
	if len(e.Mismatches) == 0 {
		sent := make([]string, len(d.Keys))
		for i, k := range d.Keys {
			sent[i] = k.Type.String()
		}
		text := "as declared"
		if len(sent) > 0 {
			text += ": " + strings.Join(sent, ", ")
		}
		return append(lines, views.InspectorLine{Label: "sent types", Text: text, Style: views.LineDim})
	}
	for _, s := range e.Mismatches {
		lines = append(lines, views.InspectorLine{Label: "sent types", Text: s, Style: views.LineWarn})
	}
	return lines
}
