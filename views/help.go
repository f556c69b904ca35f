package views

import (
	"strings"
)

// HelpKey is one key binding: the keys as typed and what they do.
type HelpKey struct {
	Keys string
	Desc string
}

// HelpGroup is a titled group of bindings.
type HelpGroup struct {
	Title string
	Keys  []HelpKey
}

// HelpInput is what the help screen draws: the groups in a body of
// Width×Height cells, scrolled down Scroll lines.
type HelpInput struct {
	Groups        []HelpGroup
	Width, Height int
	Scroll        int
	Theme         Theme
}

// helpMinDesc is the narrowest a description column may get before the
// help uses fewer columns (and scrolls) instead.
const helpMinDesc = 20

// helpLine is one line of the help: a group title, the first line of a
// binding (with its keys) or a continuation of a wrapped description.
type helpLine struct {
	title bool
	keys  string
	text  string
}

// helpLayout is the help laid out in columns of equal width, each a list
// of lines, all as tall as the tallest.
type helpLayout struct {
	cols   [][]helpLine
	colW   int
	keyW   int
	height int
}

// layoutHelp lays the groups out in as few columns as show every line in
// height rows; when no count of columns does, in as many as keep the
// descriptions readable, taller than height (the screen scrolls). A group
// stays in one column when it fits in one, and a title never ends one.
func layoutHelp(groups []HelpGroup, width, height int) helpLayout {
	w, h := max(width, 1), max(height, 1)
	keyW, descMax := 0, 1
	for _, g := range groups {
		for _, k := range g.Keys {
			keyW = max(keyW, Width(k.Keys))
			descMax = max(descMax, Width(k.Desc))
		}
	}
	var best helpLayout
	for c := 1; c <= max(1, w/(keyW+4+1)); c++ {
		colW := w / c
		descW := colW - keyW - 4 // two spaces after the keys, two between columns
		if c > 1 && descW < min(helpMinDesc, descMax) {
			break
		}
		l := packHelp(groups, c, colW, keyW, max(1, descW))
		l.colW, l.keyW = colW, keyW
		if best.cols == nil || l.height < best.height {
			best = l
		}
		if l.height <= h {
			return l
		}
	}
	return best
}

// packHelp finds the least height at which the groups, wrapped at descW,
// fill at most c columns.
func packHelp(groups []HelpGroup, c, colW, keyW, descW int) helpLayout {
	// Units are what a column never splits: a title with its first
	// binding, and each binding with its wrapped lines.
	type unit []helpLine
	var blocks [][]unit
	var sizes []int // each block's lines
	total := 0
	for _, g := range groups {
		var us []unit
		for _, k := range g.Keys {
			var u unit
			for i, part := range wrapWords(k.Desc, descW) {
				if i == 0 {
					u = append(u, helpLine{keys: k.Keys, text: part})
				} else {
					u = append(u, helpLine{text: part})
				}
			}
			us = append(us, u)
		}
		title := helpLine{title: true, text: g.Title}
		if len(us) == 0 {
			us = []unit{{title}}
		} else {
			us[0] = append(unit{title}, us[0]...)
		}
		size := 0
		for _, u := range us {
			size += len(u)
		}
		blocks = append(blocks, us)
		sizes = append(sizes, size)
		total += size + 1 // and the blank line between groups
	}
	pack := func(h int) ([][]helpLine, bool) {
		cols := [][]helpLine{nil}
		for b, us := range blocks {
			size := sizes[b]
			cur := &cols[len(cols)-1]
			gap := 0
			if len(*cur) > 0 {
				gap = 1
			}
			if len(*cur)+gap+size > h && size <= h && len(*cur) > 0 {
				// The group fits a column of its own: start one.
				cols = append(cols, nil)
				cur, gap = &cols[len(cols)-1], 0
			}
			if gap > 0 {
				*cur = append(*cur, helpLine{})
			}
			for i, u := range us {
				if len(*cur)+len(u) > h && len(*cur) > 0 {
					cols = append(cols, nil)
					cur = &cols[len(cols)-1]
					if i > 0 {
						u = append(unit{{title: true, text: us[0][0].text + " (cont.)"}}, u...)
					}
				}
				*cur = append(*cur, u...)
			}
			if len(cols) > c {
				return nil, false
			}
		}
		return cols, true
	}
	for h := max(1, (total+c-1)/c); ; h++ {
		if cols, ok := pack(h); ok {
			height := 0
			for _, col := range cols {
				height = max(height, len(col))
			}
			return helpLayout{cols: cols, height: height}
		}
	}
}

// wrapWords breaks s into lines of at most w cells at spaces, cutting
// words longer than a line.
func wrapWords(s string, w int) []string {
	if Width(s) <= w {
		return []string{s}
	}
	return fillLines(strings.Fields(s), w, true)
}

// fillLines puts words on lines of at most w cells, one space between
// them. A word longer than a line is cut (cutLong) or has a line of its
// own.
func fillLines(words []string, w int, cutLong bool) []string {
	var out []string
	line := ""
	for _, word := range words {
		for cutLong && Width(word) > w {
			if line != "" {
				out, line = append(out, line), ""
			}
			r := []rune(word)
			out = append(out, string(r[:w]))
			word = string(r[w:])
		}
		switch {
		case line == "":
			line = word
		case Width(line)+1+Width(word) <= w:
			line += " " + word
		default:
			out, line = append(out, line), word
		}
	}
	if line != "" || len(out) == 0 {
		out = append(out, line)
	}
	return out
}

// HelpLines is how many lines the help needs at this size: more than
// Height when it scrolls.
func HelpLines(in HelpInput) int {
	return layoutHelp(in.Groups, in.Width, in.Height).height
}

// HelpView renders every key binding, group by group, flowing down
// columns as the width allows, scrolled down in.Scroll lines when they
// do not fit.
func HelpView(in HelpInput) string {
	w, h, t := max(in.Width, 1), max(in.Height, 1), in.Theme
	l := layoutHelp(in.Groups, w, h)
	top := max(0, min(in.Scroll, l.height-h))
	render := func(hl helpLine) string {
		switch {
		case hl.title:
			return t.paint(t.Title, Fit(hl.text, l.colW))
		case hl.keys == "" && hl.text == "":
			return strings.Repeat(" ", l.colW)
		}
		return t.paint(t.Key, padR(hl.keys, l.keyW)) + t.paint(t.Text, Fit("  "+hl.text, max(0, l.colW-l.keyW)))
	}
	lines := make([]string, min(h, max(1, l.height-top)))
	for _, col := range l.cols {
		for r := range lines {
			if i := top + r; i < len(col) {
				lines[r] += render(col[i])
			} else {
				lines[r] += strings.Repeat(" ", l.colW)
			}
		}
	}
	for i := range lines {
		lines[i] = Fit(lines[i], w)
	}
	return strings.Join(lines, "\n")
}

// Help renders every key binding from the top (HelpView unscrolled).
func Help(groups []HelpGroup, width, height int, t Theme) string {
	return HelpView(HelpInput{Groups: groups, Width: width, Height: height, Theme: t})
}

// StatusBar renders one line of exactly width cells: left text, and right
// text against the right edge. The right side (the keys that get a user
// out) is kept whole while it leaves room for a few cells of the left,
// which is cut short instead.
func StatusBar(left, right string, width int, t Theme) string {
	w := max(width, 1)
	lw, rw := Width(left), Width(right)
	var s string
	switch {
	case lw+1+rw <= w:
		s = left + strings.Repeat(" ", w-lw-rw) + right
	case right != "" && rw+1+min(lw, 8) <= w:
		s = Fit(left, w-rw-1) + " " + right
	default:
		s = Fit(left, w)
	}
	return t.paint(t.StatusBar, Fit(s, w))
}
