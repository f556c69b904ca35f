package views

import (
	"strings"
)

// LineStyle says how an inspector line is drawn.
type LineStyle uint8

const (
	LinePlain LineStyle = iota
	LineBits            // raw bits: value-bit colour
	LinePath            // field-path bits: path-bit colour
	LineMath            // the arithmetic from raw to value: emphasised
	LineWarn
	LineError
	LineDim
)

// InspectorLine is one labelled line. Long text wraps under itself.
type InspectorLine struct {
	Label string
	Text  string
	Style LineStyle
}

// InspectorSection is a titled group of lines.
type InspectorSection struct {
	Title string
	Lines []InspectorLine
}

// InspectorInput is everything Inspector needs.
type InspectorInput struct {
	Sections []InspectorSection
	Scroll   int // first line shown
	Width    int
	Height   int
	Theme    Theme
}

// InspectorLines lays the sections out at a width, one string per line,
// so callers can bound scrolling.
func InspectorLines(in InspectorInput) []string {
	t := in.Theme
	w := max(in.Width, 1)
	var out []string
	for si, s := range in.Sections {
		if si > 0 {
			out = append(out, "")
		}
		if s.Title != "" {
			head := "── " + s.Title + " "
			out = append(out, t.paint(t.Title, trunc(head, w))+t.paint(t.Dim, strings.Repeat("─", max(0, w-Width(head)))))
		}
		labelW := 0
		for _, l := range s.Lines {
			labelW = max(labelW, Width(l.Label))
		}
		labelW = min(labelW, max(0, w/3))
		for _, l := range s.Lines {
			prefix := ""
			if labelW > 0 {
				prefix = padR(l.Label, labelW) + " "
			}
			textW := max(1, w-Width(prefix))
			for i, part := range wrapText(l.Text, textW) {
				p := prefix
				if i > 0 {
					p = strings.Repeat(" ", Width(prefix))
				}
				out = append(out, t.paint(t.Dim, p)+styleLine(t, l.Style, part))
			}
		}
	}
	return out
}

func styleLine(t Theme, st LineStyle, s string) string {
	switch st {
	case LineBits:
		return t.paint(t.SelectedValue, s)
	case LinePath:
		return t.paint(t.SelectedPath, s)
	case LineMath:
		return t.paint(t.OffsetEmphasis, s)
	case LineWarn:
		return t.paint(t.Warning, s)
	case LineError:
		return t.paint(t.Error, s)
	case LineDim:
		return t.paint(t.Dim, s)
	}
	return t.paint(t.Text, s)
}

// Inspector renders the explanation of the selected value: sections of
// labelled lines, wrapped to the width and scrolled by in.Scroll.
func Inspector(in InspectorInput) string {
	lines := InspectorLines(in)
	if in.Height <= 0 {
		return strings.Join(lines, "\n")
	}
	top := max(0, min(in.Scroll, len(lines)-in.Height))
	end := min(len(lines), top+in.Height)
	return strings.Join(lines[top:end], "\n")
}

// wrapText breaks s into lines of at most w cells, at spaces where it can
// and hard otherwise (bit strings have no spaces to break at).
func wrapText(s string, w int) []string {
	if w <= 0 {
		return []string{""}
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		r := []rune(para)
		for len(r) > 0 {
			if Width(string(r)) <= w {
				out = append(out, string(r))
				break
			}
			cut := w
			for cut > 0 && Width(string(r[:cut])) > w {
				cut--
			}
			brk := -1
			for i := cut; i > cut/2; i-- {
				if r[i] == ' ' {
					brk = i
					break
				}
			}
			if brk > 0 {
				out = append(out, string(r[:brk]))
				r = r[brk+1:]
			} else {
				out = append(out, string(r[:cut]))
				r = r[cut:]
			}
		}
		if len(r) == 0 && para == "" {
			out = append(out, "")
		}
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}
