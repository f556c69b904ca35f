package ui

// pane names one of the six panes.
type pane int

const (
	paneTimeline pane = iota
	paneFields
	paneBits
	paneInspector
	paneEntity
	paneSchema
	numPanes
)

var paneNames = [numPanes]string{"Timeline", "Fields", "Bitstream", "Inspector", "Entity", "Schema"}

func (p pane) String() string { return paneNames[p] }

// rect is a pane's place on the screen, in cells.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// layout places the visible panes.
type layout struct {
	tier    string // full, medium, compact, tiny
	rects   [numPanes]rect
	visible [numPanes]bool
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// groupA panes share the left slot in small layouts; groupB the right.
func groupA(p pane) bool { return p == paneTimeline || p == paneFields }
func groupB(p pane) bool { return p == paneInspector || p == paneEntity || p == paneSchema }

// computeLayout fits the panes into w×h cells (the status line excluded):
//
//   - full (≥150×40): all six panes — the timeline down the left; fields
//     and inspector on top; the bitstream below the fields; entity and
//     schema stacked below the inspector.
//   - medium (≥100×28): the timeline down the left; fields beside one of
//     inspector/entity/schema (the focused or last focused); the bitstream
//     below them.
//   - compact (≥60×16): timeline or fields beside inspector, entity or
//     schema; the bitstream below when there is room. tab shows the others.
//   - tiny: the focused pane alone.
func computeLayout(w, h int, focus, lastA, lastB pane) layout {
	var l layout
	set := func(p pane, x, y, pw, ph int) {
		if pw >= 4 && ph >= 3 {
			l.rects[p], l.visible[p] = rect{x, y, pw, ph}, true
		}
	}
	a, b := lastA, lastB
	if groupA(focus) {
		a = focus
	}
	if groupB(focus) {
		b = focus
	}
	switch {
	case w >= 150 && h >= 40:
		l.tier = "full"
		inW := clamp(w*29/100, 44, 64)
		tlW := clamp(w-78-inW, 30, 48)
		mid := w - tlW - inW
		topH := h * 11 / 20
		botH := h - topH
		entH := (botH + 1) / 2
		set(paneTimeline, 0, 0, tlW, h)
		set(paneFields, tlW, 0, mid, topH)
		set(paneInspector, tlW+mid, 0, inW, topH)
		set(paneBits, tlW, topH, mid, botH)
		set(paneEntity, tlW+mid, topH, inW, entH)
		set(paneSchema, tlW+mid, topH+entH, inW, botH-entH)
	case w >= 100 && h >= 28:
		l.tier = "medium"
		tlW := clamp(w/4, 28, 40)
		botH := clamp(h*2/5, 9, 16)
		topH := h - botH
		bW := clamp((w-tlW)*2/5, 34, 56)
		set(paneTimeline, 0, 0, tlW, h)
		set(paneFields, tlW, 0, w-tlW-bW, topH)
		set(b, w-bW, 0, bW, topH)
		set(paneBits, tlW, topH, w-tlW, botH)
	case w >= 60 && h >= 16:
		l.tier = "compact"
		botH := 0
		if h >= 20 {
			botH = 9
		}
		topH := h - botH
		aW := w * 11 / 20
		if focus == paneBits && botH == 0 {
			a = paneBits
		}
		set(a, 0, 0, aW, topH)
		set(b, aW, 0, w-aW, topH)
		if botH > 0 {
			set(paneBits, 0, topH, w, botH)
		}
	default:
		l.tier = "tiny"
		set(focus, 0, 0, w, h)
	}
	return l
}
