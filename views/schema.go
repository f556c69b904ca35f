package views

import (
	"fmt"
	"strings"
)

// SchemaRow is one field of a serializer tree.
type SchemaRow struct {
	Depth    int
	Index    int    // position in its serializer (the field-path index)
	Name     string // var_name
	Type     string // var_type
	Detail   string // model and decoder, e.g. "simple · quant13"
	Nested   bool   // has a nested serializer
	Expanded bool   // its nested fields follow
	OnPath   bool   // an ancestor of the selected field
	Selected bool   // the selected field
}

// SchemaInput is everything Schema needs.
type SchemaInput struct {
	Header string // e.g. "CDOTA_Unit_Hero_Axe · 312 fields"
	Rows   []SchemaRow
	Scroll int // lines to shift the automatic scroll position by
	Width  int
	Height int
	Theme  Theme
	Empty  string
}

// Schema renders a class's serializer tree: fields with their path index,
// type, model and decoder; nested serializers on the selected path are
// expanded, the selected field is marked '>' and kept in view.
func Schema(in SchemaInput) string {
	t := in.Theme
	w := max(in.Width, 1)
	if in.Height <= 0 {
		return ""
	}
	if len(in.Rows) == 0 {
		return emptyPane(t, in.Empty, "(no class)", w)
	}
	lines := []string{t.paint(t.Title, Fit(in.Header, w))}
	sel := -1
	for i, r := range in.Rows {
		if r.Selected {
			sel = i
		}
	}
	// Columns: name part (indent, expander, index, name), type, detail.
	nameW := 0
	for _, r := range in.Rows {
		nameW = max(nameW, 2*r.Depth+6+Width(r.Name))
	}
	nameW = min(nameW, max(12, (w-1)*11/20))
	rest := max(0, w-1-nameW-1)
	typeW := 0
	if w >= 60 {
		typeW = min(rest/2, 24)
	}
	body := in.Height - 1
	top := scrollTop(len(in.Rows), body, sel, in.Scroll)
	for i := top; i < len(in.Rows) && i < top+body; i++ {
		r := in.Rows[i]
		mark := " "
		if r.Selected {
			mark = ">"
		}
		exp := " "
		if r.Nested {
			exp = "▸"
			if r.Expanded {
				exp = "▾"
			}
		}
		name := fmt.Sprintf("%s%s%3d %s", strings.Repeat("  ", r.Depth), exp, r.Index, r.Name)
		line := mark + padR(name, nameW) + " "
		if typeW > 0 {
			line += padR(r.Type, typeW) + " "
		}
		line += r.Detail
		line = Fit(line, w)
		switch {
		case r.Selected:
			line = t.paint(t.SelectedValue, line)
		case r.OnPath:
			line = t.paint(t.Info, line)
		default:
			line = t.paint(t.Text, line)
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
