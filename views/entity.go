package views

import (
	"fmt"
	"strings"
)

// EntityRow is one field of an entity's state.
type EntityRow struct {
	Name    string
	Value   string
	Changed bool // written by the selected update
}

// EntityInput is everything Entity needs.
type EntityInput struct {
	Header   string // e.g. "#123 CDOTA_Unit_Hero_Axe serial 4"
	Before   bool   // the rows are the state before the update
	Rows     []EntityRow
	Selected int // index into Rows of the selected field, -1 for none
	Scroll   int // lines to shift the automatic scroll position by
	Width    int
	Height   int
	Theme    Theme
	Empty    string
}

// Entity renders an entity's full state: one row per set field with its
// value, fields the update wrote marked '*', the selected field marked '>'
// and kept in view.
func Entity(in EntityInput) string {
	t := in.Theme
	w := max(in.Width, 1)
	if in.Height <= 0 {
		return ""
	}
	if len(in.Rows) == 0 {
		return emptyPane(t, in.Empty, "(no entity)", w)
	}
	changed, sel := 0, in.Selected
	firstChanged := -1
	for i, r := range in.Rows {
		if r.Changed {
			changed++
			if firstChanged < 0 {
				firstChanged = i
			}
		}
	}
	if sel >= len(in.Rows) {
		sel = -1
	}
	when := "after"
	if in.Before {
		when = "before"
	}
	head := fmt.Sprintf("%s · %s the update · %s, %d written", in.Header, when, Count(len(in.Rows), "field"), changed)
	lines := []string{t.paint(t.Title, Fit(head, w))}
	nameW := 0
	for _, r := range in.Rows {
		nameW = max(nameW, Width(r.Name))
	}
	nameW = min(nameW, max(8, (w-2)*3/5))
	body := in.Height - 1
	focus := sel
	if focus < 0 {
		focus = firstChanged
	}
	top := scrollTop(len(in.Rows), body, focus, in.Scroll)
	for i := top; i < len(in.Rows) && i < top+body; i++ {
		r := in.Rows[i]
		mark := " "
		switch {
		case i == sel:
			mark = ">"
		case r.Changed:
			mark = "*"
		}
		line := Fit(mark+padR(truncLeft(r.Name, nameW), nameW)+" "+r.Value, w)
		switch {
		case i == sel:
			line = t.paint(t.SelectedValue, line)
		case r.Changed:
			line = t.paint(t.Info, line)
		default:
			line = t.paint(t.Text, line)
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
