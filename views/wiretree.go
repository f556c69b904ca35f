package views

import (
	"fmt"
	"strings"
	"unicode"
)

// WireLine is one protobuf field of a message body.
type WireLine struct {
	Depth  int    // levels below the top
	Field  int    // field number
	Name   string // the field's name where dembug models the message
	Type   string // wire type
	Offset int    // byte offset of the tag within the body
	Len    int    // bytes, tag included
	Value  string
}

// WireTreeInput is everything WireTree needs.
type WireTreeInput struct {
	Lines    []WireLine
	Selected int // index into Lines, -1 for none
	Empty    string
	Note     string // a line after the tree (a parse error)
	Width    int
	Height   int
	Theme    Theme
}

// WireTree renders a message body as its protobuf fields, nested ones
// indented under their parent: byte offset, field number and name, wire
// type, length and value. The selected line is marked '>' and kept in view.
func WireTree(in WireTreeInput) string {
	t := in.Theme
	w := max(in.Width, 1)
	if len(in.Lines) == 0 && in.Note == "" {
		return emptyPane(t, in.Empty, "(empty body)", w)
	}
	nameW := 0
	for _, l := range in.Lines {
		nameW = max(nameW, Width(wireName(l)))
	}
	nameW = min(nameW, max(w/3, 12))
	lines := []string{t.paint(t.Dim, Fit(fmt.Sprintf("  %-6s %s %-7s %5s  %s", "at", Fit("field", nameW), "type", "bytes", "value"), w))}
	body := max(0, in.Height-1)
	n := len(in.Lines)
	if in.Note != "" {
		n++
	}
	top := scrollTop(n, body, in.Selected, 0)
	for i := top; i < top+body && i < n; i++ {
		if i == len(in.Lines) {
			lines = append(lines, t.paint(t.Error, Fit("  "+in.Note, w)))
			break
		}
		l := in.Lines[i]
		mark := " "
		if i == in.Selected {
			mark = ">"
		}
		s := Fit(fmt.Sprintf("%s 0x%-4x %s %-7s %5d  %s", mark, l.Offset, Fit(wireName(l), nameW), l.Type, l.Len, narrow(l.Value)), w)
		if i == in.Selected {
			s = t.paint(t.SelectedValue, s)
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "\n")
}

func wireName(l WireLine) string {
	s := strings.Repeat("  ", l.Depth) + fmt.Sprintf("#%d", l.Field)
	if l.Name != "" {
		s += " " + l.Name
	}
	return s
}

// narrow writes the runes of s that take no cell of their own (combining
// marks, joiners, variation selectors, controls) as \u escapes: the value
// is the last column, cut to the pane by cells, so a wide character (an
// emoji, as entities prints it) is shown as itself, but a rune that would
// fold into its neighbour is not hidden.
func narrow(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 || unicode.IsPrint(r) && Width(string(r)) >= 1 {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, "\\u{%x}", r)
	}
	return b.String()
}
