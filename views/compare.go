package views

import "strings"

// CompareRow is one property of a read, theirs beside ours.
type CompareRow struct {
	Label, Theirs, Ours string
	Differs             bool
	Bits                bool // the row is raw bits
}

// CompareInput is a difference between a parser's trace and our decode
// (dembug FILE --compare THEIRS.jsonl).
type CompareInput struct {
	Title    string // "First difference", "Difference 3 of 17"
	What     string // bits, offset, value, missing, extra, order
	Sentence string // what differs, in words
	Where    string // tick, entity, class, field
	Theirs   string // heading of their column: "theirs (line 12)"
	Rows     []CompareRow
	Why      string // why we chose our decoder
	Summary  string
}

// CompareSection is the inspector section of a difference: what differs,
// then each property of the read, once when both sides agree on it, theirs
// above ours when they do not (the inspector is narrow: two columns would
// wrap).
func CompareSection(in CompareInput) InspectorSection {
	sec := InspectorSection{Title: in.Title}
	add := func(label, text string, st LineStyle) {
		sec.Lines = append(sec.Lines, InspectorLine{Label: label, Text: text, Style: st})
	}
	add("differs", in.What+": "+in.Sentence, LineWarn)
	if in.Where != "" {
		add("at", in.Where, LinePlain)
	}
	add("theirs", in.Theirs, LineDim)
	for _, r := range in.Rows {
		st := LinePlain
		switch {
		case r.Bits:
			st = LineBits
		case r.Differs:
			st = LineWarn
		}
		if r.Theirs == r.Ours && !r.Differs {
			add(r.Label, r.Ours+"  (both)", st)
			continue
		}
		add(r.Label, "theirs "+r.Theirs, st)
		add("", "ours   "+r.Ours, st)
	}
	if in.Why != "" {
		add("our choice", in.Why, LineDim)
	}
	if in.Summary != "" {
		add("", in.Summary, LineDim)
	}
	return sec
}

// compareMark is the NoColor mark under the bits another parser read.
const compareMark = '*'

// theirsLine marks, under the bit row, the bits another parser read for the
// selected field (HexBitsInput.Theirs).
func (h *hexBits) theirsLine(first, count int) string {
	t := h.in.Theme
	s := h.in.Theirs
	row := []rune(strings.Repeat(" ", h.prefix+count*bitsPerGroup))
	copy(row, []rune(h.label("theirs")))
	for bit := s.Start; bit < s.End(); bit++ {
		if c := h.markCol(bit, first, count); c >= 0 && c < len(row) {
			row[c] = compareMark
		}
	}
	line := strings.TrimRight(string(row), " ")
	return t.paint(t.Dim, line[:min(len(line), h.prefix)]) + t.paint(t.SelectedValue, line[min(len(line), h.prefix):])
}
