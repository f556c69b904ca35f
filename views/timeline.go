package views

import (
	"fmt"
	"strings"
)

// RowKind is what a timeline row stands for.
type RowKind uint8

const (
	RowCommand RowKind = iota // a demo command
	RowMessage                // an inner message of a packet
	RowUpdate                 // an entity update of a packet-entities message
	RowError                  // where decoding broke
	RowNote                   // a plain note ("indexing…", "no matches")
)

// TimelineRow is one line of the timeline. Which fields matter depends on
// Kind.
type TimelineRow struct {
	Kind       RowKind
	Expandable bool
	Expanded   bool
	Err        bool     // this command, message or update failed to decode
	Sev        Severity // the worst anomaly inside: '!' strong, '?' weak

	Index int    // command index, message position or entity index
	Tick  int32  // commands: demo tick (-1 during signon)
	Name  string // command or message name; update: class name
	Size  int    // commands: body bytes in the file; messages: body bytes
	Zip   bool   // commands: snappy-compressed body

	Op     string // updates: create, update, leave, delete
	Fields int    // updates: fields read
	Bits   uint   // updates: bits in the entity data

	Text string // error and note rows

	// Window marks a row inside the tick window marked for a cut; it is
	// drawn where the cursor's '>' goes (the cursor row keeps its '>').
	Window WindowMark
}

// WindowMark is where a timeline row stands in the window marked for a
// cut: outside, its first row, a row inside, its last row, or its only
// row.
type WindowMark uint8

const (
	WindowOut WindowMark = iota
	WindowFirst
	WindowIn
	WindowLast
	WindowOnly
)

// windowGlyphs draw the window as a bracket down the timeline's left edge.
var windowGlyphs = [...]string{WindowOut: " ", WindowFirst: "┌", WindowIn: "┆", WindowLast: "└", WindowOnly: "["}

// TimelineInput is the visible window of the timeline. The caller keeps
// the scroll position: Rows are the rows to show, top first.
type TimelineInput struct {
	Rows   []TimelineRow
	Cursor int // index into Rows, -1 when the cursor is elsewhere
	Width  int
	Height int // lines, including the column header
	Theme  Theme
}

// Timeline renders demo commands, expanded packets' inner messages and
// expanded packet-entities messages' updates, one per line, under a column
// header. The cursor row is marked with '>' (and highlighted in colour).
// Rows holding anomalous fields carry a severity marker ('!' strong, '?'
// weak): updates in their error column, messages before the expander,
// commands between tick and name; '✗' (decode failed, misaligned) wins.
func Timeline(in TimelineInput) string {
	t := in.Theme
	w := max(in.Width, 1)
	lines := make([]string, 0, in.Height)
	if in.Height > 0 {
		head := fmt.Sprintf("  %4s %5s  ", "cmd", "tick")
		right := fmt.Sprintf(" %5s ", "size")
		lines = append(lines, t.paint(t.Dim, Fit(head+padR("command", max(0, w-Width(head)-Width(right)))+right, w)))
	}
	for i, r := range in.Rows {
		if len(lines) >= in.Height {
			break
		}
		lines = append(lines, timelineRow(r, i == in.Cursor, w, t))
	}
	return strings.Join(lines, "\n")
}

// ShortKind drops the "DEM_" prefix of a demo command name.
func ShortKind(name string) string { return strings.TrimPrefix(name, "DEM_") }

// HumanSize spells a byte count compactly: 999, 1.2K, 34K, 1.5M.
func HumanSize(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 10_000:
		return fmt.Sprintf("%.1fK", float64(n)/1000)
	case n < 1_000_000:
		return fmt.Sprintf("%dK", n/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
}

func expander(r TimelineRow) string {
	switch {
	case !r.Expandable:
		return " "
	case r.Expanded:
		return "▾"
	}
	return "▸"
}

// opShort abbreviates an update's operation to at most 5 cells.
func opShort(op string) string {
	switch op {
	case "create":
		return "new"
	case "update":
		return "upd"
	case "delete":
		return "del"
	}
	return op
}

func timelineRow(r TimelineRow, cursor bool, w int, t Theme) string {
	mark := " "
	if cursor {
		mark = ">"
	} else if int(r.Window) < len(windowGlyphs) {
		mark = windowGlyphs[r.Window]
	}
	exp := expander(r)
	if r.Err {
		exp = "✗"
	}
	var s string
	markAt := -1 // rune position of the severity marker in the line
	switch r.Kind {
	case RowCommand:
		tick := "pre"
		if r.Tick >= 0 {
			tick = fmt.Sprint(r.Tick)
		}
		zip := " "
		if r.Zip {
			zip = "z"
		}
		// The marker has a column of its own after the tick's space: in
		// the space itself it ran into the tick ("0?Packet").
		left := fmt.Sprintf("%s%4d %5s ", exp, r.Index, tick)
		markAt = 1 + len([]rune(left))
		left += r.Sev.Mark()
		right := fmt.Sprintf(" %5s%s", HumanSize(r.Size), zip)
		s = left + padR(ShortKind(r.Name), max(0, w-1-Width(left)-Width(right))) + right
	case RowMessage:
		left := fmt.Sprintf("%s%s%3d ", r.Sev.Mark(), exp, r.Index)
		markAt = 1
		right := fmt.Sprintf(" %5s ", HumanSize(r.Size))
		s = left + padR(r.Name, max(0, w-1-Width(left)-Width(right))) + right
	case RowUpdate:
		err := r.Sev.Mark()
		markAt = 3
		if r.Err {
			err, markAt = "✗", -1
		}
		left := fmt.Sprintf("  %s#%-5d ", err, r.Index)
		avail := w - 1 - Width(left)
		// Field count and bits stay as long as the class name keeps a
		// few letters: without padding first, then without the bits.
		right := fmt.Sprintf(" %-5s %3df %5db", opShort(r.Op), r.Fields, r.Bits)
		if avail-Width(right) < 12 {
			right = fmt.Sprintf(" %s %df %db", opShort(r.Op), r.Fields, r.Bits)
		}
		if avail-Width(right) < 6 {
			right = fmt.Sprintf(" %s %df", opShort(r.Op), r.Fields)
		}
		if avail-Width(right) < 4 {
			right = " " + opShort(r.Op)
		}
		s = left + padR(truncLeft(r.Name, max(0, avail-Width(right))), max(0, avail-Width(right))) + right
	case RowError:
		s = "✗ " + r.Text
	default:
		s = " " + r.Text
	}
	line := Fit(mark+s, w)
	switch {
	case cursor:
		return t.paint(t.SelectedPath, line)
	case r.Kind == RowError || r.Err:
		return t.paint(t.Error, line)
	case r.Kind == RowNote:
		return t.paint(t.Dim, line)
	case r.Kind == RowMessage:
		return paintMarked(t, line, markAt, r.Sev, t.Info)
	}
	if markAt >= 0 {
		return paintMarked(t, line, markAt, r.Sev, t.Text)
	}
	return t.paint(t.Text, line)
}
