package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// DiffRow is one field of an update decoded twice: as the file's schema
// says (original) and under a what-if (another decoder, a bit edit).
type DiffRow struct {
	Path, Name string
	// Decoder, Offset and Bits describe the side being shown.
	Decoder string
	Offset  string
	Bits    uint
	Orig    string // original value
	WhatIf  string // value under the what-if
	// OrigSev and WhatIfSev grade each side's anomalies.
	OrigSev, WhatIfSev Severity
	// NoOrig and NoWhatIf say the field was read by one decode only.
	NoOrig, NoWhatIf bool
	Changed          bool // the values differ (or one side did not read it)
}

// DiffTableInput is everything DiffTable needs.
type DiffTableInput struct {
	Rows     []DiffRow
	Selected int  // index into Rows, -1 for none
	Original bool // the original decode is being shown (else the what-if's)
	Empty    string
	Width    int
	Height   int // lines including the header
	Theme    Theme
}

// Diff marks in the change column.
const (
	diffChanged = "*" // both decodes read the field; the values differ
	diffAdded   = "+" // only the what-if read the field
	diffDropped = "-" // only the original read the field
)

// DiffMark is the change-column marker of a row: '*' changed, '+' read
// only by the what-if, '-' read only by the original, ' ' unchanged.
func (r *DiffRow) DiffMark() string {
	switch {
	case r.NoOrig:
		return diffAdded
	case r.NoWhatIf:
		return diffDropped
	case r.Changed:
		return diffChanged
	}
	return " "
}

// diffCol is one column of the diff table.
type diffCol struct {
	title string
	get   func(r *DiffRow) string
	right bool
	w     int
	on    bool
}

// DiffTable renders a what-if's effect on one update, field by field: path,
// name, the shown side's decoder, offset and bit length, then the original
// value beside the what-if value (the shown side's title in brackets). The column after the cursor mark says
// how the row changed ('*', '+', '-'); each value starts with its anomaly
// marker ('!', '?'). With colour, changed what-if values are emphasised.
func DiffTable(in DiffTableInput) string {
	t := in.Theme
	w := max(in.Width, 1)
	if len(in.Rows) == 0 {
		return emptyPane(t, in.Empty, "(no fields)", w)
	}
	// The side the decoder, offset and bits columns describe is bracketed.
	origTitle, wiTitle := "original", "[what-if]"
	if in.Original {
		origTitle, wiTitle = "[original]", "what-if"
	}
	value := func(missing bool, sev Severity, v string) string {
		if missing {
			return " (not read)"
		}
		return sev.Mark() + v
	}
	cols := []*diffCol{
		{title: "path", get: func(r *DiffRow) string { return r.Path }},
		{title: "name", get: func(r *DiffRow) string { return r.Name }},
		{title: "decoder", get: func(r *DiffRow) string { return r.Decoder }},
		{title: "offset", get: func(r *DiffRow) string { return r.Offset }, right: true},
		{title: "bits", get: func(r *DiffRow) string {
			if (in.Original && r.NoOrig) || (!in.Original && r.NoWhatIf) {
				return ""
			}
			return fmt.Sprint(r.Bits)
		}, right: true},
		{title: " " + origTitle, get: func(r *DiffRow) string { return value(r.NoOrig, r.OrigSev, r.Orig) }},
		{title: " " + wiTitle, get: func(r *DiffRow) string { return value(r.NoWhatIf, r.WhatIfSev, r.WhatIf) }},
	}
	path, name, dec, off, _, orig, wi := cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6]
	for _, c := range cols {
		c.on = true
		c.w = Width(c.title)
		for i := range in.Rows {
			c.w = max(c.w, Width(c.get(&in.Rows[i])))
		}
	}
	path.w = min(path.w, 12)
	name.w = min(name.w, 28)
	dec.w = min(dec.w, 12)
	orig.w = min(orig.w, 24)
	wi.w = min(wi.w, 24)

	avail := w - 2 // the cursor mark and the change column
	total := func() int {
		n := 0
		for _, c := range cols {
			if c.on {
				n += c.w + 1
			}
		}
		return n - 1
	}
	shrink := func(c *diffCol, to int) { c.w = max(min(c.w, to), min(Width(c.title), to)) }
	steps := []func(){
		func() { shrink(name, 20); shrink(orig, 18); shrink(wi, 18) },
		func() { path.on = false },
		func() { off.on = false },
		func() { shrink(name, 16); shrink(orig, 12); shrink(wi, 12) },
		func() { dec.on = false },
		func() { shrink(name, 12); shrink(orig, 9); shrink(wi, 9) },
		func() { name.w = 8; orig.w = 8; wi.w = 8 },
	}
	shrinkToFit(avail, total, steps)
	if extra := avail - total(); extra > 0 {
		grow := extra / 2
		orig.w += grow
		wi.w += extra - grow
	}

	cell := func(c *diffCol, s string) string { return padCell(s, c.w, c.right, c == name) }
	head := []string{}
	for _, c := range cols {
		if c.on {
			head = append(head, cell(c, c.title))
		}
	}
	lines := []string{t.paint(t.Dim, Fit("  "+strings.Join(head, " "), w))}
	body := max(0, in.Height-1)
	top := scrollTop(len(in.Rows), body, in.Selected, 0)
	for i := top; i < len(in.Rows) && i < top+body; i++ {
		r := &in.Rows[i]
		mark := " "
		if i == in.Selected {
			mark = ">"
		}
		if i == in.Selected || t.NoColor {
			var parts []string
			for _, c := range cols {
				if c.on {
					parts = append(parts, cell(c, c.get(r)))
				}
			}
			line := Fit(mark+r.DiffMark()+strings.Join(parts, " "), w)
			if i == in.Selected {
				line = t.paint(t.SelectedValue, line)
			}
			lines = append(lines, line)
			continue
		}
		// Colour: paint the change marker, each value's anomaly marker and
		// a changed what-if value apart from the row's text.
		var b strings.Builder
		b.WriteString(mark)
		b.WriteString(t.paint(t.OffsetEmphasis, r.DiffMark()))
		first := true
		for _, c := range cols {
			if !c.on {
				continue
			}
			if !first {
				b.WriteByte(' ')
			}
			first = false
			s := cell(c, c.get(r))
			switch {
			case c == orig || c == wi:
				sev, st := r.OrigSev, t.Text
				if c == wi {
					sev = r.WhatIfSev
					if r.Changed {
						st = t.OffsetEmphasis
					}
				}
				rs := []rune(s)
				b.WriteString(t.paint(t.sevStyle(sev), string(rs[:1])))
				b.WriteString(t.paint(st, string(rs[1:])))
			default:
				b.WriteString(t.paint(t.Text, s))
			}
		}
		lines = append(lines, Fit(b.String(), w))
	}
	return strings.Join(lines, "\n")
}

// PickerItem is one line of a picker: a choice, or a section header.
type PickerItem struct {
	Label   string
	Detail  string // dim text after the label
	Header  bool   // a section title, not selectable
	Current bool   // what is in use now: marked "(now)"
}

// PickerInput is everything Picker needs.
type PickerInput struct {
	Title    string
	Intro    []string // lines above the choices
	Items    []PickerItem
	Selected int    // index into Items
	Footer   string // the keys, on the last line
	Width    int
	Height   int
	Theme    Theme
}

// Picker renders a small modal list in a focused box of exactly
// Width×Height cells: intro lines, then the items (headers dim, the
// selection marked '>' and highlighted, scrolled into view), then a footer.
func Picker(in PickerInput) string {
	t := in.Theme
	iw := max(in.Width-2, 1)
	var lines []string
	for _, l := range in.Intro {
		lines = append(lines, Fit(" "+l, iw))
	}
	if len(in.Intro) > 0 {
		lines = append(lines, strings.Repeat(" ", iw))
	}
	room := max(0, in.Height-2-len(lines)-1)
	top := scrollTop(len(in.Items), room, in.Selected, 0)
	for i := top; i < len(in.Items) && i < top+room; i++ {
		it := in.Items[i]
		if it.Header {
			head := "── " + it.Label + " "
			lines = append(lines, t.paint(t.Title, trunc(head, iw))+t.paint(t.Dim, strings.Repeat("─", max(0, iw-Width(head)))))
			continue
		}
		mark := " "
		if i == in.Selected {
			mark = ">"
		}
		label := mark + " " + it.Label
		if it.Current {
			label += " (now)"
		}
		if i == in.Selected {
			s := label
			if it.Detail != "" {
				s += "  " + it.Detail
			}
			lines = append(lines, t.paint(t.SelectedValue, Fit(s, iw)))
			continue
		}
		s := t.paint(t.Text, trunc(label, iw))
		if rest := iw - Width(label) - 2; it.Detail != "" && rest > 0 {
			s += "  " + t.paint(t.Dim, trunc(it.Detail, rest))
		}
		lines = append(lines, Fit(s, iw))
	}
	for len(lines) < max(0, in.Height-3) {
		lines = append(lines, "")
	}
	lines = append(lines, t.paint(t.Dim, Fit(" "+in.Footer, iw)))
	return Box(in.Title, strings.Join(lines, "\n"), in.Width, in.Height, true, t)
}

// Overlay draws top (a block of lines) over base at column x, line y,
// keeping what base shows around it; every base line keeps its width.
func Overlay(base, top string, x, y int) string {
	lines := strings.Split(base, "\n")
	for i, tl := range strings.Split(top, "\n") {
		row := y + i
		if row < 0 || row >= len(lines) {
			continue
		}
		bl := lines[row]
		bw := Width(bl)
		if x >= bw {
			continue
		}
		if Width(tl) > bw-x {
			tl = ansi.Truncate(tl, bw-x, "") // the box goes past the edge
		}
		tw := Width(tl)
		left := ansi.Cut(bl, 0, x)
		if n := Width(left); n < x { // a wide rune straddled the edge
			left += strings.Repeat(" ", x-n)
		}
		right := ""
		if x+tw < bw {
			right = ansi.Cut(bl, x+tw, bw)
			if n := Width(right); n < bw-x-tw {
				right = strings.Repeat(" ", bw-x-tw-n) + right
			}
		}
		if strings.Contains(bl, "\x1b") || strings.Contains(tl, "\x1b") {
			// Keep the base's styles from leaking into the box and back.
			lines[row] = Fit(left+"\x1b[m"+tl+"\x1b[m"+right, bw)
		} else {
			lines[row] = Fit(left+tl+right, bw)
		}
	}
	return strings.Join(lines, "\n")
}
