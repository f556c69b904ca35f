package views

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
)

// FieldRow is one changed field of an entity update.
type FieldRow struct {
	Path    string // field path, e.g. [3 12 0]
	Name    string // CBodyComponent.m_cellX
	Type    string // schema var_type
	Decoder string // short decoder name, e.g. quant13
	Offset  string // first value bit, e.g. 0x1a.3
	Bits    uint   // value bits
	Value   string
	Err     bool     // the field's decode failed: the row is drawn as an error
	Sev     Severity // the worst anomaly of the value: marker '!' or '?'
}

// FieldTableInput is everything FieldTable needs.
type FieldTableInput struct {
	Rows     []FieldRow
	Selected int    // index into Rows, -1 for none
	Empty    string // shown when there are no rows
	Width    int
	Height   int // lines including the header
	Theme    Theme
	// Titles, when set, are the column headings in place of path, name,
	// type, decoder, offset, bits and value: rows that are no entity's
	// fields (a string table's reads) are headed by what they hold.
	Titles *[7]string
}

// fieldCol is one column of the field table.
type fieldCol struct {
	title string
	get   func(r *FieldRow) string
	right bool // right-aligned
	min   int
	w     int // natural, then assigned width
	on    bool
}

// FieldTable renders the fields of one update as a table: path, name,
// type, decoder, bit offset, bit length and value. Columns shrink and the
// path, type and (last) decoder columns drop out as the width goes down; the selected
// row is kept in view and marked with '>'. The column after the cursor mark
// holds each row's anomaly marker ('!' strong, '?' weak; Error and Warning
// colours).
func FieldTable(in FieldTableInput) string {
	t := in.Theme
	w := max(in.Width, 1)
	if len(in.Rows) == 0 {
		return emptyPane(t, in.Empty, "(no fields)", w)
	}
	cols := []*fieldCol{
		{title: "path", get: func(r *FieldRow) string { return r.Path }, min: 5},
		{title: "name", get: func(r *FieldRow) string { return r.Name }, min: 8},
		{title: "type", get: func(r *FieldRow) string { return r.Type }, min: 6},
		{title: "decoder", get: func(r *FieldRow) string { return r.Decoder }, min: 6},
		{title: "offset", get: func(r *FieldRow) string { return r.Offset }, right: true, min: 6},
		{title: "bits", get: func(r *FieldRow) string { return fmt.Sprint(r.Bits) }, right: true, min: 4},
		{title: "value", get: func(r *FieldRow) string { return r.Value }, min: 6},
	}
	if in.Titles != nil {
		for i, c := range cols {
			c.title = in.Titles[i]
		}
	}
	path, name, typ, dec, _, _, val := cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6]
	for _, c := range cols {
		c.on = true
		c.w = Width(c.title)
		for i := range in.Rows {
			c.w = max(c.w, Width(c.get(&in.Rows[i])))
		}
	}
	path.w = min(path.w, 14)
	name.w = min(name.w, 40)
	typ.w = min(typ.w, 24)
	dec.w = min(dec.w, 16)
	val.w = max(min(val.w, 40), 10)

	avail := w - 2 // the cursor mark and the anomaly marker
	total := func() int {
		n := 0
		for _, c := range cols {
			if c.on {
				n += c.w + 1
			}
		}
		return n - 1
	}
	// Shrink, then drop, in order of least loss.
	// The path goes first (the schema pane shows it), then the type; the
	// decoder stays longest: it is what the debugger is about.
	steps := []func(){
		func() { name.w = max(name.min, min(name.w, 32)); typ.w = max(typ.min, min(typ.w, 16)) },
		func() { val.w = max(val.min, min(val.w, 20)) },
		func() { name.w = max(name.min, min(name.w, 24)) },
		func() { typ.w = max(typ.min, min(typ.w, 10)); dec.w = max(dec.min, min(dec.w, 9)) },
		func() { val.w = max(val.min, min(val.w, 16)) },
		func() { path.w = max(path.min, min(path.w, 8)) },
		func() { name.w = max(name.min, min(name.w, 20)) },
		func() { val.w = max(val.min, min(val.w, 12)) },
		func() { path.on = false },
		func() { typ.w = max(typ.min, min(typ.w, 7)) },
		func() { name.w = max(name.min, min(name.w, 16)); val.w = max(val.min, min(val.w, 10)) },
		func() { typ.on = false },
		func() { dec.on = false },
		func() { name.w = max(name.min, min(name.w, 12)) },
		func() { val.w = val.min },
		func() { name.w = name.min },
	}
	shrinkToFit(avail, total, steps)
	if extra := avail - total(); extra > 0 {
		val.w += extra
	}

	row := func(get func(c *fieldCol) string) string {
		var b strings.Builder
		first := true
		for _, c := range cols {
			if !c.on {
				continue
			}
			if !first {
				b.WriteByte(' ')
			}
			first = false
			b.WriteString(padCell(get(c), c.w, c.right, c == name))
		}
		return b.String()
	}
	lines := []string{t.paint(t.Dim, Fit("  "+row(func(c *fieldCol) string { return c.title }), w))}
	body := max(0, in.Height-1)
	top := scrollTop(len(in.Rows), body, in.Selected, 0)
	for i := top; i < len(in.Rows) && i < top+body; i++ {
		r := &in.Rows[i]
		mark := " "
		if i == in.Selected {
			mark = ">"
		}
		line := Fit(mark+r.Sev.Mark()+row(func(c *fieldCol) string { return c.get(r) }), w)
		switch {
		case i == in.Selected:
			line = t.paint(t.SelectedValue, line)
		case r.Err:
			line = t.paint(t.Error, line)
		default:
			line = paintMarked(t, line, 1, r.Sev, t.Text)
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// paintMarked paints a plain line in st, except the one-cell severity
// marker at rune position at, which takes the severity's style.
func paintMarked(t Theme, line string, at int, sev Severity, st lipgloss.Style) string {
	if t.NoColor {
		return line
	}
	r := []rune(line)
	if sev == SevNone || at >= len(r) {
		return t.paint(st, line)
	}
	return t.paint(st, string(r[:at])) + t.paint(t.sevStyle(sev), string(r[at])) + t.paint(st, string(r[at+1:]))
}
