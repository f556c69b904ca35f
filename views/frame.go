package views

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Width is the display width of s in cells, ignoring escape sequences.
func Width(s string) int {
	if isPlainASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

// isPlainASCII reports whether s is printable ASCII only: one cell per
// byte, no escape sequences. Most of what dembug draws is, and it is much
// cheaper to measure.
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// Fit truncates s (which may carry escape sequences) to w cells, ending in
// "…" when cut, and pads it with spaces to exactly w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := Width(s)
	if n > w {
		s = ansi.Truncate(s, w, "…")
		n = Width(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// trunc cuts plain text to at most w cells with a trailing "…".
func trunc(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if Width(s) <= w {
		return s
	}
	if isPlainASCII(s) {
		return s[:w-1] + "…"
	}
	return ansi.Truncate(s, w, "…")
}

// truncLeft cuts plain text to at most w cells keeping its end, with a
// leading "…" (for names whose last part matters most).
func truncLeft(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if Width(s) <= w {
		return s
	}
	if isPlainASCII(s) {
		return "…" + s[len(s)-(w-1):]
	}
	r := []rune(s)
	used, i := 0, len(r)
	for i > 0 {
		cw := ansi.StringWidth(string(r[i-1]))
		if used+cw > w-1 {
			break
		}
		used += cw
		i--
	}
	return "…" + string(r[i:])
}

// padL right-aligns plain text in w cells (truncating if needed).
func padL(s string, w int) string {
	s = trunc(s, w)
	if n := Width(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

// padR left-aligns plain text in w cells (truncating if needed).
func padR(s string, w int) string {
	s = trunc(s, w)
	if n := Width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// Block makes s exactly w cells wide and h lines tall: lines are cut or
// padded, missing lines are blank.
func Block(s string, w, h int) string {
	if h <= 0 || w <= 0 {
		return ""
	}
	lines := strings.Split(s, "\n")
	out := make([]string, h)
	for i := range out {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out[i] = Fit(l, w)
	}
	return strings.Join(out, "\n")
}

// Box draws a pane of exactly w×h cells: a border (thick or accented when
// focused) with the title set into its top edge, around body, which is cut
// or padded to the inside.
func Box(title, body string, w, h int, focused bool, t Theme) string {
	if w < 2 || h < 2 {
		return Block(title, w, h)
	}
	st := t.Border
	if focused {
		st = t.BorderFocused
	}
	b := st.GetBorderStyle()
	paint := func(s string) string {
		if t.NoColor {
			return s
		}
		return lipgloss.NewStyle().Foreground(st.GetBorderTopForeground()).Render(s)
	}
	inner := w - 2
	var sb strings.Builder
	// Top edge: ┌─ Title ───┐
	label := ""
	if title != "" && inner >= 4 {
		label = " " + trunc(title, inner-3) + " "
	}
	fill := inner - 1 - Width(label)
	if label == "" {
		fill = inner
	}
	sb.WriteString(paint(b.TopLeft))
	if label != "" {
		sb.WriteString(paint(b.Top))
		if t.NoColor {
			sb.WriteString(label)
		} else {
			sb.WriteString(t.paint(t.Title, label))
		}
	}
	sb.WriteString(paint(strings.Repeat(b.Top, max(0, fill))))
	sb.WriteString(paint(b.TopRight))
	sb.WriteByte('\n')
	left, right := paint(b.Left), paint(b.Right)
	for _, l := range strings.Split(Block(body, inner, h-2), "\n")[:h-2] {
		sb.WriteString(left)
		sb.WriteString(l)
		sb.WriteString(right)
		sb.WriteByte('\n')
	}
	sb.WriteString(paint(b.BottomLeft + strings.Repeat(b.Bottom, inner) + b.BottomRight))
	return sb.String()
}

// scrollTop picks the first visible row of a list of n rows shown in h
// lines so that row sel is visible, keeping it near the middle, then
// shifts the window by extra (user scrolling) within bounds.
// ScrollTop is the first of n rows shown in h lines with row sel kept in
// view, as the tables draw them (for mapping a click to a row).
func ScrollTop(n, h, sel int) int { return scrollTop(n, h, sel, 0) }

func scrollTop(n, h, sel, extra int) int {
	if n <= h || h <= 0 {
		return 0
	}
	top := 0
	if sel >= 0 {
		top = sel - h/2
	}
	top += extra
	return max(0, min(top, n-h))
}

// emptyPane is a pane's one line when it has nothing to show: msg, or
// fallback when msg is empty, dimmed.
func emptyPane(t Theme, msg, fallback string, w int) string {
	if msg == "" {
		msg = fallback
	}
	return t.paint(t.Dim, Fit(" "+msg, w))
}

// shrinkToFit runs steps, each narrowing or hiding table columns, until
// total() fits in avail.
func shrinkToFit(avail int, total func() int, steps []func()) {
	for _, step := range steps {
		if total() <= avail {
			return
		}
		step()
	}
}

// padCell fits a table cell to w: right-aligned, or left-aligned keeping
// its tail (names: the end of a dotted name says most), or left-aligned.
func padCell(s string, w int, right, keepTail bool) string {
	switch {
	case right:
		return padL(s, w)
	case keepTail:
		return padR(truncLeft(s, w), w)
	}
	return padR(s, w)
}
