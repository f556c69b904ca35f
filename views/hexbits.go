package views

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dembug/dembug/engine/bitio"
)

// SpanKind says what a decoded piece of the bit stream is.
type SpanKind uint8

const (
	SpanHeader SpanKind = iota // message or entity header bits, not a field
	SpanPath                   // a field's path (which field is being updated)
	SpanValue                  // a field's value
)

func (k SpanKind) String() string {
	switch k {
	case SpanHeader:
		return "header"
	case SpanPath:
		return "path"
	case SpanValue:
		return "value"
	}
	return fmt.Sprintf("SpanKind(%d)", uint8(k))
}

// Span is one decoded piece of the stream: a field's path bits or value bits,
// or a header. Its bits (bitio.Span: Start, Bits, End, String) are offsets
// into HexBitsInput.Data, counted LSB-first within each byte (bit 0 is the
// lowest bit of Data[0]).
type Span struct {
	bitio.Span
	Kind  SpanKind
	Field int // index of the field the span belongs to; -1 for headers
}

// HexBitsInput is everything HexBits needs; HexBits keeps no state.
type HexBitsInput struct {
	// Data is the slice of the message being shown. Row offsets in the hex
	// dump and every offset label are positions within Data.
	Data []byte
	// BaseBit is the bit offset of Data[0] within the whole message. It is
	// only shown as extra context ("msg 0x…") next to the selection summary.
	BaseBit uint
	// Spans are sorted by Start and do not overlap. Bits outside Data are
	// ignored.
	Spans []Span
	// Selected indexes Spans: the selected field's value span, or -1. Path
	// spans of the same Field are highlighted in their own colour.
	Selected int
	// Width and Height bound the output in cells. Height counts every line,
	// hex rows and the bit section together; Height <= 0 means unbounded,
	// Width <= 0 means 80.
	Width, Height int
	Theme         Theme
	// Theirs, when set, is the bit range another parser read for the
	// selected field (dembug --compare): the bit section marks it on a
	// line of its own under ours.
	Theirs *Span
	// Words, when set, name the pieces in the selection's summary in place
	// of "field" and header, path and value: a string table's reads are
	// index, key and value reads of an entry.
	Words *SpanWords
}

// SpanWords are the words the selection's summary names spans by.
type SpanWords struct {
	Piece string    // what Span.Field counts ("field")
	Kinds [3]string // SpanHeader, SpanPath and SpanValue ("header", "path", "value")
}

// role is what a byte or bit is drawn as.
type role uint8

const (
	roleNone role = iota
	roleHeader
	roleNeighbourA
	roleNeighbourB
	rolePath
	roleValue
	rolePlain
	roleDim
	roleTitle
	roleOffset
	roleOffsetEmphasis
)

func (t Theme) roleText(r role, s string) string {
	switch r {
	case roleHeader:
		return t.paint(t.Header, s)
	case roleNeighbourA:
		return t.paint(t.NeighbourA, s)
	case roleNeighbourB:
		return t.paint(t.NeighbourB, s)
	case rolePath:
		return t.paint(t.SelectedPath, s)
	case roleValue:
		return t.paint(t.SelectedValue, s)
	case roleNone, roleDim:
		return t.paint(t.Dim, s)
	case roleTitle:
		return t.paint(t.Title, s)
	case roleOffset:
		return t.paint(t.Offset, s)
	case roleOffsetEmphasis:
		return t.paint(t.OffsetEmphasis, s)
	}
	return s
}

// painter joins text pieces, styling runs of the same role in one go so the
// output has one escape sequence per run rather than per character.
type painter struct {
	t   Theme
	out strings.Builder
	run strings.Builder
	cur role
}

func (p *painter) put(r role, s string) {
	if r != p.cur {
		p.flush()
		p.cur = r
	}
	p.run.WriteString(s)
}

func (p *painter) flush() {
	if p.run.Len() > 0 {
		p.out.WriteString(p.t.roleText(p.cur, p.run.String()))
		p.run.Reset()
	}
}

func (p *painter) String() string {
	p.flush()
	return p.out.String()
}

// NoColor markers.
const (
	markValueOpen  = '['
	markValueClose = ']'
	markPathOpen   = '{'
	markPathClose  = '}'
	markRow        = '>'
	markValueBit   = '^'
	markPathBit    = '~'
	markNeighbourA = '-'
	markNeighbourB = '='
	markHeaderBit  = '.'
)

// bitsPerGroup is the width of one byte in the bit row: 8 bits and a space.
const bitsPerGroup = 9

// hexBits is the resolved layout of one HexBits call.
type hexBits struct {
	in     HexBitsInput
	nbits  uint
	roles  []role // per span, with the selection applied
	sel    int    // -1 when nothing is selected
	value  Span   // the selected span (valid when sel >= 0)
	path   []Span // path spans of the selected field
	bpr    int    // bytes per hex row
	offW   int    // hex digits in the row offset
	prefix int    // columns before the first hex digit / first bit
}

// HexBits renders the hex dump of in.Data with decoded spans coloured, and,
// when a span is selected, a bit row showing the bytes around it bit by bit
// in reading order (least significant bit first) with a ruler marking the
// selection.
func HexBits(in HexBitsInput) string {
	h := newHexBits(in)
	if len(in.Data) == 0 {
		return h.gutter(0, false) + " " + in.Theme.paint(in.Theme.Dim, "(no data)")
	}

	rows := (len(in.Data) + h.bpr - 1) / h.bpr
	var bitLines []string
	hexRows := rows
	if h.sel >= 0 {
		want := 5
		if in.Theirs != nil {
			want = 6
		}
		if in.Height > 0 {
			want = min(want, in.Height-1)
		}
		bitLines = h.bitSection(want)
	}
	if in.Height > 0 {
		hexRows = min(rows, max(1, in.Height-len(bitLines)))
	}
	top := h.scrollTop(rows, hexRows)

	lines := make([]string, 0, hexRows+len(bitLines))
	for r := top; r < top+hexRows; r++ {
		lines = append(lines, h.hexRow(r))
	}
	lines = append(lines, bitLines...)
	return strings.Join(lines, "\n")
}

func newHexBits(in HexBitsInput) *hexBits {
	h := &hexBits{in: in, nbits: uint(len(in.Data)) * 8, sel: -1}
	if in.Selected >= 0 && in.Selected < len(in.Spans) {
		h.sel = in.Selected
		h.value = in.Spans[h.sel]
	}

	// Alternate the two neighbour shades each time the field changes, so
	// adjacent fields always differ whatever order paths and values come in.
	h.roles = make([]role, len(in.Spans))
	shade, prev := roleNeighbourB, -2
	for i, s := range in.Spans {
		switch {
		case i == h.sel:
			h.roles[i] = roleValue
		case h.sel >= 0 && h.value.Field >= 0 && s.Field == h.value.Field && s.Kind == SpanPath:
			h.roles[i] = rolePath
			h.path = append(h.path, s)
		case s.Kind == SpanHeader || s.Field < 0:
			h.roles[i] = roleHeader
		default:
			if s.Field != prev {
				shade = roleNeighbourA + roleNeighbourB - shade
				prev = s.Field
			}
			h.roles[i] = shade
		}
	}

	width := in.Width
	if width <= 0 {
		width = 80
	}
	// Row: "0x" offset, row marker, then per byte a separator and two hex
	// digits, a closing separator, a space and |ascii|.
	for _, bpr := range []int{16, 8, 4} {
		h.bpr = bpr
		h.offW = offsetDigits(len(in.Data), bpr)
		if h.offW+7+4*bpr <= width {
			break
		}
	}
	h.prefix = h.offW + 4
	return h
}

// offsetDigits is the number of hex digits needed for the last row offset,
// at least 4.
func offsetDigits(n, bpr int) int {
	last := 0
	if n > 0 {
		last = (n - 1) / bpr * bpr
	}
	return max(4, len(fmt.Sprintf("%x", last)))
}

// spansIn returns the indices of spans overlapping bits [lo, hi).
func (h *hexBits) spansIn(lo, hi uint) (first, end int) {
	spans := h.in.Spans
	first = sort.Search(len(spans), func(i int) bool { return spans[i].End() > lo })
	end = first
	for end < len(spans) && spans[end].Start < hi {
		end++
	}
	return first, end
}

// bitRole is the role of a single bit.
func (h *hexBits) bitRole(bit uint) role {
	i, j := h.spansIn(bit, bit+1)
	for ; i < j; i++ {
		if s := h.in.Spans[i]; s.Bits > 0 && bit >= s.Start {
			return h.roles[i]
		}
	}
	return roleNone
}

// byteRole is the role a whole byte is drawn with: the selected value if any
// of its bits belongs to it, else the selected path, else the span covering
// most of its bits.
func (h *hexBits) byteRole(b int) role {
	lo := uint(b) * 8
	i, j := h.spansIn(lo, lo+8)
	best, bestBits := roleNone, uint(0)
	for ; i < j; i++ {
		s := h.in.Spans[i]
		n := min(s.End(), lo+8) - max(s.Start, lo)
		if s.Bits == 0 || n == 0 {
			continue
		}
		r := h.roles[i]
		if r == roleValue || r == rolePath {
			if best != roleValue {
				best, bestBits = r, 8
			}
			continue
		}
		if best != roleValue && best != rolePath && n > bestBits {
			best, bestBits = r, n
		}
	}
	return best
}

// selectedBytes is the byte range [lo, hi] touched by span s (a zero-length
// span touches the byte it starts in).
func selectedBytes(s Span) (lo, hi int) {
	lo = int(s.Start / 8)
	hi = lo
	if s.Bits > 0 {
		hi = int((s.End() - 1) / 8)
	}
	return lo, hi
}

// rowSelected reports whether hex row r holds bits of the selected field.
func (h *hexBits) rowSelected(r int) bool {
	if h.sel < 0 {
		return false
	}
	rlo, rhi := r*h.bpr, (r+1)*h.bpr-1
	for _, s := range append([]Span{h.value}, h.path...) {
		lo, hi := selectedBytes(s)
		if lo <= rhi && hi >= rlo {
			return true
		}
	}
	return false
}

// scrollTop picks the first visible hex row: the selected value centred when
// possible (with its path too if both fit), the top when nothing is selected.
func (h *hexBits) scrollTop(rows, visible int) int {
	if h.sel < 0 || visible >= rows {
		return 0
	}
	lo, hi := selectedBytes(h.value)
	r0, r1 := lo/h.bpr, hi/h.bpr
	for _, p := range h.path {
		plo, phi := selectedBytes(p)
		u0, u1 := min(r0, plo/h.bpr), max(r1, phi/h.bpr)
		if u1-u0+1 <= visible {
			r0, r1 = u0, u1
		}
	}
	top := r0
	if n := r1 - r0 + 1; n < visible {
		top = r0 - (visible-n)/2
	}
	return max(0, min(top, rows-visible))
}

// gutter is the row offset and the selected-row marker.
func (h *hexBits) gutter(off int, selected bool) string {
	t := h.in.Theme
	s := fmt.Sprintf("0x%0*x", h.offW, off)
	if selected {
		return t.paint(t.OffsetEmphasis, s) + t.paint(t.OffsetEmphasis, string(markRow))
	}
	return t.paint(t.Offset, s) + " "
}

func openMark(r role) rune {
	switch r {
	case roleValue:
		return markValueOpen
	case rolePath:
		return markPathOpen
	}
	return 0
}

func closeMark(r role) rune {
	switch r {
	case roleValue:
		return markValueClose
	case rolePath:
		return markPathClose
	}
	return 0
}

// separator is the column between two bytes of a hex row. In NoColor mode it
// carries the bracket markers; in colour it continues a band of one role.
func (h *hexBits) separator(p *painter, prev, cur role) {
	if !h.in.Theme.NoColor {
		if prev == cur {
			p.put(cur, " ") // one run per band; selected bands stay unbroken
		} else {
			p.put(rolePlain, " ")
		}
		return
	}
	c := ' '
	switch {
	case prev == cur:
	case prev == roleValue:
		c = markValueClose
	case openMark(cur) != 0:
		c = openMark(cur)
	case closeMark(prev) != 0:
		c = closeMark(prev)
	}
	p.put(rolePlain, string(c))
}

func (h *hexBits) hexRow(r int) string {
	data := h.in.Data
	p := &painter{t: h.in.Theme}
	p.put(rolePlain, h.gutter(r*h.bpr, h.rowSelected(r)))

	ap := &painter{t: h.in.Theme}
	prev := rolePlain // row edges and cells past the data are unstyled
	for i := range h.bpr {
		b := r*h.bpr + i
		if b >= len(data) {
			h.separator(p, prev, rolePlain)
			prev = rolePlain
			p.put(rolePlain, "  ")
			continue
		}
		cur := h.byteRole(b)
		h.separator(p, prev, cur)
		p.put(cur, fmt.Sprintf("%02x", data[b]))
		prev = cur

		c := data[b]
		if c < 0x20 || c > 0x7e {
			c = '.'
		}
		if cur == roleValue || cur == rolePath {
			ap.put(cur, string(rune(c)))
		} else {
			ap.put(rolePlain, string(rune(c)))
		}
	}
	h.separator(p, prev, rolePlain)
	p.put(rolePlain, " |"+ap.String()+"|")
	return p.String()
}

// bitWindow picks the bytes shown in the bit row: the selected value (and its
// path when it fits), centred with neighbouring bytes for context.
func (h *hexBits) bitWindow() (first, count int) {
	width := h.in.Width
	if width <= 0 {
		width = 80
	}
	capacity := max(1, (width-h.prefix+1)/bitsPerGroup)
	lo, hi := selectedBytes(h.value)
	for _, p := range h.path {
		plo, phi := selectedBytes(p)
		if u0, u1 := min(lo, plo), max(hi, phi); u1-u0+1 <= capacity {
			lo, hi = u0, u1
		}
	}
	n := len(h.in.Data)
	count = min(capacity, n)
	first = lo
	if span := hi - lo + 1; span < count {
		first = lo - (count-span)/2
	}
	first = max(0, min(first, n-count))
	return first, count
}

// bitSection renders up to want lines about the selection: a title rule, a
// byte header, the bit row, the marker ruler and offset labels. When fewer
// lines fit, the least essential go first.
func (h *hexBits) bitSection(want int) []string {
	if want <= 0 {
		return nil
	}
	first, count := h.bitWindow()
	const (
		lineTitle = iota
		lineBytes
		lineBits
		lineMarks
		lineLabels
		lineTheirs
	)
	order := []int{lineBits, lineMarks, lineLabels, lineBytes, lineTitle}
	if h.in.Theirs != nil {
		order = []int{lineBits, lineMarks, lineTheirs, lineLabels, lineBytes, lineTitle}
	}
	keep := map[int]bool{}
	for _, l := range order[:min(want, len(order))] {
		keep[l] = true
	}
	var out []string
	if keep[lineTitle] {
		out = append(out, h.titleLine())
	}
	if keep[lineBytes] {
		out = append(out, h.bytesLine(first, count))
	}
	if keep[lineBits] {
		out = append(out, h.bitsLine(first, count))
	}
	if keep[lineMarks] {
		out = append(out, h.marksLine(first, count))
	}
	if keep[lineTheirs] {
		out = append(out, h.theirsLine(first, count))
	}
	if keep[lineLabels] {
		out = append(out, h.labelsLine(first, count))
	}
	return out
}

func (h *hexBits) width() int {
	if h.in.Width <= 0 {
		return 80
	}
	return h.in.Width
}

// titleLine summarises the selection between horizontal rules.
func (h *hexBits) titleLine() string {
	t := h.in.Theme
	v := h.value
	var b strings.Builder
	piece, kind := "field", func(k SpanKind) string { return k.String() }
	if w := h.in.Words; w != nil {
		piece = w.Piece
		kind = func(k SpanKind) string {
			if int(k) < len(w.Kinds) {
				return w.Kinds[k]
			}
			return k.String()
		}
	}
	if v.Field >= 0 {
		fmt.Fprintf(&b, "%s %d · ", piece, v.Field)
	}
	fmt.Fprintf(&b, "%s %s", kind(v.Kind), v.Span)
	for _, p := range h.path {
		fmt.Fprintf(&b, " · %s %s", kind(SpanPath), p.Span)
	}
	if h.in.BaseBit != 0 {
		fmt.Fprintf(&b, " · msg %s", bitio.Offset(h.in.BaseBit+v.Start))
	}
	if s := h.in.Theirs; s != nil {
		fmt.Fprintf(&b, " · theirs %s", s.Span)
	}
	b.WriteString(" · bits LSB first")

	text := []rune(" " + b.String() + " ")
	lead := "──"
	w := h.width()
	if len(text) > w-len([]rune(lead)) {
		text = text[:max(0, w-len([]rune(lead)))]
	}
	fill := max(0, w-len([]rune(lead))-len(text))
	return t.paint(t.Dim, lead) + t.paint(t.Title, string(text)) + t.paint(t.Dim, strings.Repeat("─", fill))
}

// label pads a line label to the bit-section prefix width.
func (h *hexBits) label(s string) string {
	return fmt.Sprintf("%-*s", h.prefix, s)
}

// bytesLine names each byte of the bit row: offset and hex value.
func (h *hexBits) bytesLine(first, count int) string {
	t := h.in.Theme
	var b strings.Builder
	b.WriteString(t.paint(t.Dim, h.label("byte")))
	for i := range count {
		idx := first + i
		cell := fmt.Sprintf("0x%x %02x", idx, h.in.Data[idx])
		if len(cell) > bitsPerGroup-1 {
			cell = fmt.Sprintf("0x%x", idx)
		}
		if len(cell) > bitsPerGroup-1 {
			cell = cell[len(cell)-(bitsPerGroup-1):]
		}
		if i < count-1 {
			cell = fmt.Sprintf("%-*s", bitsPerGroup, cell)
		}
		r := roleOffset
		if h.byteRole(idx) == roleValue {
			r = roleOffsetEmphasis
		}
		b.WriteString(t.roleText(r, cell))
	}
	return b.String()
}

// bitsLine shows every bit of the window in reading order, LSB first, each
// coloured by the span it belongs to.
func (h *hexBits) bitsLine(first, count int) string {
	p := &painter{t: h.in.Theme}
	p.put(roleDim, h.label("bits"))
	for i := range count {
		if i > 0 {
			p.put(rolePlain, " ")
		}
		by := h.in.Data[first+i]
		for j := range 8 {
			bit := uint(first+i)*8 + uint(j)
			p.put(h.bitRole(bit), string(rune('0'+(by>>j)&1)))
		}
	}
	return p.String()
}

// markCol is the column of bit (absolute) in the bit row, or -1 if the bit is
// outside the window.
func (h *hexBits) markCol(bit uint, first, count int) int {
	b := int(bit / 8)
	if b < first || b >= first+count {
		return -1
	}
	return h.prefix + (b-first)*bitsPerGroup + int(bit%8)
}

// marksLine puts ^ under the selected value's bits and ~ under its path's.
// Without colour, other fields get - and = alternately and headers '.', so
// every boundary stays visible.
func (h *hexBits) marksLine(first, count int) string {
	p := &painter{t: h.in.Theme}
	p.put(rolePlain, strings.Repeat(" ", h.prefix))
	for i := range count {
		if i > 0 {
			p.put(rolePlain, " ")
		}
		for j := range 8 {
			r := h.bitRole(uint(first+i)*8 + uint(j))
			switch r {
			case roleValue:
				p.put(r, string(markValueBit))
			case rolePath:
				p.put(r, string(markPathBit))
			default:
				c := ' '
				if h.in.Theme.NoColor {
					switch r {
					case roleNeighbourA:
						c = markNeighbourA
					case roleNeighbourB:
						c = markNeighbourB
					case roleHeader:
						c = markHeaderBit
					}
				}
				p.put(rolePlain, string(c))
			}
		}
	}
	return strings.TrimRight(p.String(), " ")
}

// labelsLine names the first and last bit of the selected value under their
// carets, or both together when they would collide or the end is off-screen.
func (h *hexBits) labelsLine(first, count int) string {
	t := h.in.Theme
	v := h.value
	w := h.width()
	start := bitio.Offset(v.Start)
	startCol := h.markCol(v.Start, first, count)
	if startCol < 0 {
		startCol = h.prefix
	}
	labels := []string{start}
	cols := []int{startCol}
	if v.Bits > 1 {
		end := bitio.Offset(v.End() - 1)
		endCol := h.markCol(v.End()-1, first, count)
		if endCol >= 0 && endCol > startCol+len(start) && endCol+len(end) <= w {
			labels, cols = append(labels, end), append(cols, endCol)
		} else {
			labels[0] = start + ".." + end
		}
	}
	// Keep a label that would run off the right edge inside the width.
	if last := len(labels) - 1; cols[last]+len(labels[last]) > w {
		cols[last] = max(0, w-len(labels[last]))
	}
	var b strings.Builder
	at := 0
	for i, l := range labels {
		b.WriteString(strings.Repeat(" ", max(0, cols[i]-at)))
		b.WriteString(t.paint(t.OffsetEmphasis, l))
		at = max(at, cols[i]) + len(l)
	}
	return b.String()
}
