package views

import "strings"

// AnomalyListRow is one row of the grouped list of anomalies: a rule's
// group, or one field under it.
type AnomalyListRow struct {
	Group bool     // a group row (else a field row, indented)
	Sev   Severity // the group's severity
	Muted bool
	Text  string
}

// AnomalyList draws the grouped list of anomalies: one row per rule and
// severity with its count, the fields under it, muted rows marked
// "[muted]". The selected row is marked '>' and kept in view.
func AnomalyList(rows []AnomalyListRow, sel, width, height int, t Theme) string {
	w, h := max(width, 1), max(height, 1)
	if len(rows) == 0 {
		return emptyPane(t, "no anomalies in the file (so far)", "", w)
	}
	top := scrollTop(len(rows), h, sel, 0)
	var lines []string
	for i := top; i < len(rows) && len(lines) < h; i++ {
		r := rows[i]
		cur := "  "
		if i == sel {
			cur = "> "
		}
		mark := " "
		switch r.Sev {
		case SevStrong:
			mark = "!"
		case SevWeak:
			mark = "?"
		}
		text := r.Text
		if !r.Group {
			mark, text = " ", "    "+text
		}
		if r.Muted {
			text += "  [muted]"
		}
		line := Fit(cur+mark+" "+text, w)
		switch {
		case i == sel:
			line = t.paint(t.SelectedPath, line)
		case r.Muted:
			line = t.paint(t.Dim, line)
		case r.Group && r.Sev == SevStrong:
			line = t.paint(t.Error, line)
		case r.Group && r.Sev == SevWeak:
			line = t.paint(t.Warning, line)
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
