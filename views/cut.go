package views

import (
	"fmt"
	"strings"
)

// CutReportInput is a written cut (a tick window saved as a replay of its
// own) as the cut's box shows it.
type CutReportInput struct {
	Out     string // the file written
	Command string // the command line that writes it again
	// First and Last are the ticks of the window's first and last
	// commands; StateTick the tick the full frame holds, -1 for none.
	First, Last, StateTick     int32
	Commands, Entities, Tables int
	Framing                    string // "as they were" (the default) or "in .dem framing"
	Size, InSize               int    // bytes of the cut and of its source
	Carried, Past              string
	Notes                      []string // what the cut could not carry
	Problems                   []string // the window misaligns, ends early
	Seconds                    float64  // how long it took; 0: not said
	Footer                     string
	Width, Height              int // Height 0: as tall as the report
	Theme                      Theme
}

type cutLine struct {
	text string
	role int // 0 text, 1 dim, 2 warning, 3 error, 4 the command
	// group is the report line a wrapped line belongs to: a box too short
	// drops whole report lines, never the start of one without the rest.
	group int
	// essential lines (the file written, the command line) go only when
	// nothing else is left to drop.
	essential bool
}

// dropOrder is which report lines a box too short for them all drops
// first, by role (-1 for the blank spacers): the spacers, the notes, the
// summary, what went wrong.
var dropOrder = []int{-1, 1, 2, 0, 3}

// cutLines are the report's lines, wrapped to w cells.
func cutLines(in CutReportInput, w int) []cutLine {
	var out []cutLine
	group := 0
	// add wraps s under a margin: lead before its first line, two more
	// cells before the lines it wraps onto, and a cell free before the
	// box's border on every line.
	add := func(role int, s, lead string) {
		group++
		for i, l := range wrapWords(s, max(1, w-len(lead)-3)) {
			if i > 0 {
				l = "  " + l
			}
			out = append(out, cutLine{text: lead + l, role: role, group: group})
		}
	}
	blank := func() {
		group++
		out = append(out, cutLine{group: -group}) // a spacer: its group is negative
	}
	add(0, "wrote "+in.Out, " ")
	for i := range out {
		out[i].essential = true
	}
	framing := in.Framing
	if framing == "" {
		framing = "as they were"
	}
	add(0, fmt.Sprintf("ticks %d–%d: %s %s", in.First, in.Last, Count(in.Commands, "command"), framing), " ")
	if in.StateTick >= 0 {
		add(0, fmt.Sprintf("a full frame of %s at tick %d", Count(in.Entities, "entity|entities"), in.StateTick), " ")
	} else {
		add(0, "no state before it: the window starts with the game", " ")
	}
	stood := "as they stood"
	if in.Tables == 1 {
		stood = "as it stood"
	}
	add(0, fmt.Sprintf("%s %s", Count(in.Tables, "string table"), stood), " ")
	size := fmt.Sprintf("%s of %s", SizeText(in.Size), SizeText(in.InSize))
	switch {
	case in.Seconds >= 0.1:
		size += fmt.Sprintf(", in %.1f s", in.Seconds)
	case in.Seconds > 0:
		size += ", in under 0.1 s"
	}
	add(0, size, " ")
	if in.Carried != "" || in.Past != "" || len(in.Notes)+len(in.Problems) > 0 {
		blank()
	}
	if in.Carried != "" {
		add(1, in.Carried, " ")
	}
	if in.Past != "" {
		add(1, "left out as events before the window: "+in.Past, " ")
	}
	for _, n := range in.Notes {
		add(2, "note: "+n, " ")
	}
	for _, p := range in.Problems {
		add(3, "✗ "+p, " ")
	}
	blank()
	group++
	out = append(out, cutLine{" the same from the shell:", 1, group, true})
	// A command too long for the box goes on with a backslash at each
	// break, so that the lines copied from the terminal still run.
	cmd := wrapShell(in.Command, max(1, w-8)) // the lead, " \\" and a free cell
	for i, l := range cmd {
		lead := "   "
		if i > 0 {
			lead = "     "
		}
		if i < len(cmd)-1 {
			l += " \\"
		}
		out = append(out, cutLine{lead + l, 4, group, true})
	}
	return out
}

// fitCutLines drops whole report lines, in dropOrder and from the end of
// each kind, until at most room lines are left; the lines kept stay in
// order. Should the essential lines alone be too many, their last room
// lines stay: the command line is what the box is for.
func fitCutLines(lines []cutLine, room int) []cutLine {
	kept := len(lines)
	gone := map[int]bool{}
	for _, role := range dropOrder {
		for i := len(lines) - 1; i >= 0 && kept > room; i-- {
			l := lines[i]
			if gone[l.group] || l.essential || (l.group < 0) != (role == -1) || role >= 0 && l.role != role {
				continue
			}
			gone[l.group] = true
			for _, m := range lines {
				if m.group == l.group {
					kept--
				}
			}
		}
	}
	out := make([]cutLine, 0, kept)
	for _, l := range lines {
		if !gone[l.group] {
			out = append(out, l)
		}
	}
	return out[max(0, len(out)-room):]
}

// CutReportLines is how many lines the report's box needs at its width.
func CutReportLines(in CutReportInput) int { return len(cutLines(in, max(1, in.Width-2))) + 3 }

// CutReport draws the report in a focused box of Width×Height cells
// (Height 0: CutReportLines), the footer on its last inside line.
func CutReport(in CutReportInput) string {
	t := in.Theme
	iw := max(1, in.Width-2)
	h := in.Height
	if h <= 0 {
		h = CutReportLines(in)
	}
	room := max(0, h-3)
	lines := fitCutLines(cutLines(in, iw), room)
	styles := []func(string) string{
		func(s string) string { return t.paint(t.Text, s) },
		func(s string) string { return t.paint(t.Dim, s) },
		func(s string) string { return t.paint(t.Warning, s) },
		func(s string) string { return t.paint(t.Error, s) },
		func(s string) string { return t.paint(t.SelectedValue, s) },
	}
	body := make([]string, 0, room+1)
	for _, l := range lines {
		body = append(body, styles[l.role](Fit(l.text, iw)))
	}
	for len(body) < room {
		body = append(body, strings.Repeat(" ", iw))
	}
	body = append(body, t.paint(t.Dim, Fit(" "+in.Footer, iw)))
	return Box("Cut written", strings.Join(body, "\n"), in.Width, h, true, t)
}

// SizeText is a byte count in the unit that reads best: 439 KB, 2.4 MB.
func SizeText(n int) string {
	switch {
	case n >= 10<<20:
		return fmt.Sprintf("%.0f MB", float64(n)/(1<<20))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return Count(n, "byte")
}

// wrapShell breaks a shell command into lines of at most w cells at the
// spaces between its words (not those inside single quotes); a word longer
// than a line has a line of its own.
func wrapShell(s string, w int) []string {
	var words []string
	start, quoted := 0, false
	for i, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
		case r == ' ' && !quoted:
			if i > start {
				words = append(words, s[start:i])
			}
			start = i + 1
		}
	}
	if start < len(s) {
		words = append(words, s[start:])
	}
	return fillLines(words, w, false)
}
