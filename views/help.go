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

// Help renders every key binding, group by group, flowing down columns as
// the width allows.
func Help(groups []HelpGroup, width, height int, t Theme) string {
	w := max(width, 1)
	keyW := 0
	for _, g := range groups {
		for _, k := range g.Keys {
			keyW = max(keyW, Width(k.Keys))
		}
	}
	type item struct {
		title bool
		text  string
		k     HelpKey
	}
	var items []item
	for i, g := range groups {
		if i > 0 {
			items = append(items, item{})
		}
		items = append(items, item{title: true, text: g.Title})
		for _, k := range g.Keys {
			items = append(items, item{k: k})
		}
	}
	h := max(1, height)
	cols := (len(items) + h - 1) / h
	colW := w
	if cols > 1 {
		colW = max(20, w/cols)
	}
	if cols*colW > w {
		// Not everything fits: show what does, a column at a time.
		cols = max(1, w/colW)
	}
	render := func(it item) string {
		switch {
		case it.title:
			return t.paint(t.Title, Fit(it.text, colW))
		case it.k.Keys == "" && it.k.Desc == "":
			return strings.Repeat(" ", colW)
		}
		keys := padR(it.k.Keys, keyW)
		return t.paint(t.Key, keys) + t.paint(t.Text, Fit("  "+it.k.Desc, max(0, colW-keyW)))
	}
	lines := make([]string, min(h, len(items)))
	for c := range cols {
		for r := range lines {
			i := c*h + r
			if i < len(items) {
				lines[r] += render(items[i])
			} else {
				lines[r] += strings.Repeat(" ", colW)
			}
		}
	}
	for i := range lines {
		lines[i] = Fit(lines[i], w)
	}
	return strings.Join(lines, "\n")
}

// StatusBar renders one line of exactly width cells: left text, and right
// text against the right edge when both fit.
func StatusBar(left, right string, width int, t Theme) string {
	w := max(width, 1)
	lw, rw := Width(left), Width(right)
	var s string
	if lw+1+rw <= w {
		s = left + strings.Repeat(" ", w-lw-rw) + right
	} else {
		s = Fit(left, w)
	}
	return t.paint(t.StatusBar, Fit(s, w))
}
