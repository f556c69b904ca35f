package ui

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/views"
)

// Options configure a Model.
type Options struct {
	// NoColor draws with views.NoColorTheme: no colour, textual markers
	// (NO_COLOR terminals and golden tests).
	NoColor bool
	// IndexBudget is how long one step of the index pass may run before
	// the screen is refreshed (default 40ms).
	IndexBudget time.Duration
	// Aliases decode names decoder choice does not know as known ones
	// (--as, or the inference applied with I).
	Aliases schema.Aliases
}

// Sel is the selection the root model owns and every pane reads:
// command, message (position in the packet), update and field, each -1
// when nothing at that level is selected.
type Sel struct {
	Cmd, Msg, Upd, Field int
}

var noSel = Sel{-1, -1, -1, -1}

// tlRow is one visible timeline row.
type tlRow struct {
	kind          views.RowKind
	cmd, msg, upd int32
}

type expKey struct{ cmd, msg int32 }

// Messages from commands. Every result carries the generation of the
// request; results of superseded requests are dropped.
type (
	indexMsg struct {
		gen uint64
		ch  *indexChunk
	}
	detailMsg struct {
		gen uint64
		det *Detail
		err error
	}
	panicMsg struct{ text string }
)

type promptKind int

const (
	promptNone promptKind = iota
	promptTick
	promptSearch
	promptFilter
	promptEntity
)

var promptLabels = map[promptKind]string{
	promptTick: "go to tick", promptSearch: "search fields and classes", promptFilter: "filter updates by field or class", promptEntity: "entity index",
}

// Model is the root model: it owns the index, the selection and the
// loaded message detail; panes are drawn from them by package views.
type Model struct {
	opts  Options
	theme views.Theme
	keys  KeyMap

	path string
	data []byte
	ix   *Index
	in   *indexer
	dec  *liveDecoder
	gen  uint64 // index pass generation

	w, h         int
	focus        pane
	lastA, lastB pane
	showHelp     bool
	prompt       promptKind
	input        string

	// Timeline.
	rows       []tlRow
	cursor     int
	tlTop      int
	userExp    map[expKey]bool
	autoExp    map[expKey]bool
	filter     *matcher
	filterText string
	filterUpd  []bool
	filterCmd  []bool
	lastSearch string

	// Selection and the message it needs.
	sel       Sel
	detail    *Detail
	detailGen uint64
	loading   bool
	loadKey   [2]int
	loadErr   string

	// Per-pane scrolling and toggles.
	inspScroll, entScroll, schScroll int
	before                           bool

	prefetched bool

	// Diagnostics: the decoder picker, the what-if shown (for one message)
	// and the one running; the captured message what-ifs re-decode.
	picker     *picker
	wi         *whatIf
	wiGen      uint64
	wiPending  bool
	cases      *caseCache
	wiRowKey   [4]int // the selection wiRowSel was derived from
	wiRowSel   int    // selected row of the diff
	wiPairsFor *whatIf
	wiPairsUpd int
	wiPairs    []diffPair

	note    string
	noteErr bool
	spin    int
	fatal   string

	cache viewCache

	// What the names decoder choice does not know behave as (infer.go).
	inference *inference
}

// viewCache keeps derived pane data for the current selection.
type viewCache struct {
	fieldsKey [2]any
	fields    []views.FieldRow
	spansKey  [2]any
	spans     []views.Span
	valueSpan []int
	header    int
	entKey    [3]any
	entRows   []views.EntityRow
	entAt     map[fieldpath.Path]int
	inspKey   [5]any
	insp      []views.InspectorSection
}

// New returns the root model for a file's bytes.
func New(path string, data []byte, opts Options) *Model {
	if opts.IndexBudget <= 0 {
		opts.IndexBudget = 40 * time.Millisecond
	}
	m := &Model{
		opts: opts, keys: DefaultKeyMap(), path: path, data: data,
		ix:      &Index{Path: path, Size: len(data)},
		in:      newIndexer(data, opts.Aliases),
		dec:     newLiveDecoder(data, opts.Aliases),
		gen:     1,
		userExp: map[expKey]bool{}, autoExp: map[expKey]bool{},
		sel:   noSel,
		lastA: paneTimeline, lastB: paneInspector,
		cases: &caseCache{aliases: opts.Aliases},
	}
	m.theme = views.DefaultTheme()
	if opts.NoColor {
		m.theme = views.NoColorTheme()
	}
	return m
}

// safe runs f, turning a panic into a message instead of a crash.
func safe(f func() tea.Msg) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if p := recover(); p != nil {
				msg = panicMsg{fmt.Sprint(p)}
			}
		}()
		return f()
	}
}

// Init starts the index pass.
func (m *Model) Init() tea.Cmd {
	if m.opts.NoColor {
		return m.indexCmd()
	}
	return tea.Batch(m.indexCmd(), tea.RequestBackgroundColor)
}

func (m *Model) indexCmd() tea.Cmd {
	gen, in, budget := m.gen, m.in, m.opts.IndexBudget
	return safe(func() tea.Msg { return indexMsg{gen, in.step(budget)} })
}

// Update handles one message. A panic becomes an error on the status line.
func (m *Model) Update(msg tea.Msg) (res tea.Model, cmd tea.Cmd) {
	defer func() {
		if p := recover(); p != nil {
			m.fatal = fmt.Sprintf("internal error: %v", p)
			res, cmd = m, nil
		}
	}()
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.follow()
	case tea.BackgroundColorMsg:
		if !m.opts.NoColor {
			m.theme = views.ThemeFor(msg.IsDark())
		}
	case indexMsg:
		return m, m.onIndex(msg)
	case detailMsg:
		m.onDetail(msg)
	case whatIfMsg:
		m.onWhatIf(msg)
	case inferMsg:
		m.onInfer(msg)
	case panicMsg:
		m.fatal = "internal error: " + msg.text
		m.loading, m.wiPending = false, false
	case tea.MouseWheelMsg:
		return m, m.onWheel(msg)
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	}
	return m, nil
}

func (m *Model) onIndex(msg indexMsg) tea.Cmd {
	if msg.gen != m.gen || msg.ch == nil {
		return nil
	}
	first := len(m.ix.Commands) == 0
	m.ix.append(msg.ch)
	m.spin++
	if m.filter != nil {
		m.applyFilter()
	}
	m.rebuild()
	if first && len(m.rows) > 0 && m.sel == noSel {
		m.cursor = 0
		m.selFromRow()
	}
	m.follow()
	var next tea.Cmd
	if !m.ix.Done {
		next = m.indexCmd()
	} else {
		if m.ix.Err != nil {
			m.setNote("decoding stopped: "+m.ix.Err.Text, true)
		}
		next = m.inferCmd()
	}
	if !m.prefetched && len(m.ix.Updates) > 0 {
		// Warm the decoder with the first packet-entities message, the
		// one n goes to first and the slowest to reach from cold.
		m.prefetched = true
		r := m.ix.Updates[0]
		dec, gen, inner := m.dec, m.detailGen, m.ix.Msg(int(r.Cmd), int(r.Msg)).Index
		next = tea.Batch(next, safe(func() tea.Msg {
			_, _ = dec.Load(gen, int(r.Cmd), int(r.Msg), inner)
			return nil
		}))
	}
	return next
}

func (m *Model) onDetail(msg detailMsg) {
	if msg.gen != m.detailGen {
		return // superseded
	}
	m.loading = false
	if msg.err != nil {
		if msg.err != errStale {
			m.loadErr = msg.err.Error()
		}
		return
	}
	m.loadErr = ""
	m.detail = msg.det
}

// --- selection -----------------------------------------------------------

func (m *Model) expanded(k expKey) bool { return m.userExp[k] || m.autoExp[k] }

// rebuild lists the visible timeline rows and puts the cursor back on the
// selection.
func (m *Model) rebuild() {
	ix := m.ix
	rows := m.rows[:0]
	for ci := range ix.Commands {
		if m.filter != nil && !m.filterCmd[ci] {
			continue
		}
		c := &ix.Commands[ci]
		rows = append(rows, tlRow{views.RowCommand, int32(ci), -1, -1})
		if !m.expanded(expKey{int32(ci), -1}) {
			continue
		}
		for mi := range c.Msgs {
			pe := c.Msgs[mi].PE
			if m.filter != nil && (pe == nil || !m.anyFiltered(pe.First, len(pe.Updates))) {
				continue
			}
			rows = append(rows, tlRow{views.RowMessage, int32(ci), int32(mi), -1})
			if pe == nil || !m.expanded(expKey{int32(ci), int32(mi)}) {
				continue
			}
			for ui := range pe.Updates {
				if m.filter != nil && !m.filterUpd[pe.First+ui] {
					continue
				}
				rows = append(rows, tlRow{views.RowUpdate, int32(ci), int32(mi), int32(ui)})
			}
		}
	}
	if ix.Err != nil {
		rows = append(rows, tlRow{views.RowError, -1, -1, -1})
	} else if ix.EndNote != "" && m.filter == nil {
		rows = append(rows, tlRow{views.RowNote, -1, -1, -1})
	}
	m.rows = rows
	m.cursor = m.rowOf(m.sel)
}

// isEnd reports whether a row is the one after the last command: where
// decoding stopped, or a note about how the file ends.
func isEnd(k views.RowKind) bool { return k == views.RowError || k == views.RowNote }

func (m *Model) anyFiltered(first, n int) bool {
	for k := first; k < first+n && k < len(m.filterUpd); k++ {
		if m.filterUpd[k] {
			return true
		}
	}
	return false
}

// rowOf finds the row showing s (or its nearest visible ancestor).
func (m *Model) rowOf(s Sel) int {
	if s.Cmd == -2 {
		for i, r := range m.rows {
			if isEnd(r.kind) {
				return i
			}
		}
	}
	best := -1
	lo := sort.Search(len(m.rows), func(i int) bool { return m.rows[i].cmd >= int32(s.Cmd) })
	for i := lo; i < len(m.rows) && m.rows[i].cmd == int32(s.Cmd); i++ {
		r := m.rows[i]
		switch {
		case r.msg == -1:
			best = i
		case r.msg == int32(s.Msg) && r.upd == -1:
			best = i
		case r.msg == int32(s.Msg) && r.upd == int32(s.Upd):
			return i
		}
	}
	if best < 0 && len(m.rows) > 0 {
		best = min(max(0, lo), len(m.rows)-1)
	}
	return best
}

// selFromRow makes the cursor row the selection.
func (m *Model) selFromRow() tea.Cmd {
	if m.cursor < 0 || m.cursor >= len(m.rows) {
		return nil
	}
	r := m.rows[m.cursor]
	if isEnd(r.kind) {
		m.setSel(Sel{-2, -1, -1, -1})
		return nil
	}
	s := Sel{int(r.cmd), int(r.msg), int(r.upd), -1}
	if s.Upd >= 0 {
		if s.Cmd == m.sel.Cmd && s.Msg == m.sel.Msg && s.Upd == m.sel.Upd {
			s.Field = m.sel.Field
		} else if u := m.ix.Update(s.Cmd, s.Msg, s.Upd); u != nil && u.Fields > 0 {
			s.Field = 0
		}
	}
	m.setSel(s)
	return m.ensureDetail()
}

func (m *Model) setSel(s Sel) {
	if s.Cmd != m.sel.Cmd || s.Msg != m.sel.Msg || s.Upd != m.sel.Upd {
		m.entScroll, m.schScroll = 0, 0
	}
	if (m.wi != nil || m.wiPending) && (s.Cmd != m.sel.Cmd || s.Msg != m.sel.Msg) {
		m.leaveWhatIf() // a what-if belongs to one message
	}
	if s != m.sel {
		m.inspScroll = 0
	}
	m.sel = s
}

// reveal selects s, expanding its packet and message in the timeline.
func (m *Model) reveal(s Sel) tea.Cmd {
	m.autoExp = map[expKey]bool{}
	if s.Cmd >= 0 {
		m.autoExp[expKey{int32(s.Cmd), -1}] = true
		if s.Msg >= 0 {
			m.autoExp[expKey{int32(s.Cmd), int32(s.Msg)}] = true
		}
	}
	if m.filter != nil && s.Upd >= 0 {
		if k := m.ix.FlatOf(s.Cmd, s.Msg, s.Upd); k < 0 || !m.filterUpd[k] {
			m.clearFilter()
			m.setNote("filter cleared to show the target", false)
		}
	}
	m.setSel(s)
	m.rebuild()
	m.follow()
	return m.ensureDetail()
}

// jump selects update k of the flat update list: its first field, or
// under a filter the first field the filter matches.
func (m *Model) jump(k int) tea.Cmd {
	r := m.ix.Updates[k]
	s := Sel{int(r.Cmd), int(r.Msg), int(r.Upd), -1}
	if u := m.ix.Update(s.Cmd, s.Msg, s.Upd); u != nil && u.Fields > 0 {
		s.Field = 0
		if m.filter != nil {
			s.Field = m.firstMatch(m.filter, r)
		}
	}
	return m.reveal(s)
}

// firstMatch is the first field of update r whose name mt matches, or 0.
func (m *Model) firstMatch(mt *matcher, r UpdateRef) int {
	for fi, id := range m.ix.FieldNames(r) {
		if mt.fieldName(id) {
			return fi
		}
	}
	return 0
}

// flatPos is the flat index of the selected update, or where the next one
// would be (as a half position: the index of the first update after the
// selection, minus a half, expressed as (k, exact)).
func (m *Model) flatPos() (k int, exact bool) {
	if m.sel.Upd >= 0 {
		if f := m.ix.FlatOf(m.sel.Cmd, m.sel.Msg, m.sel.Upd); f >= 0 {
			return f, true
		}
	}
	if m.sel.Cmd == -2 {
		return len(m.ix.Updates), false
	}
	c, msg := int32(m.sel.Cmd), int32(m.sel.Msg)
	k = sort.Search(len(m.ix.Updates), func(i int) bool {
		u := m.ix.Updates[i]
		return u.Cmd > c || (u.Cmd == c && msg >= 0 && u.Msg >= msg)
	})
	return k, false
}

func (m *Model) stepUpdate(dir int) tea.Cmd {
	n := len(m.ix.Updates)
	if n == 0 {
		m.setNote("no entity update yet", false)
		return nil
	}
	k, exact := m.flatPos()
	if dir > 0 && exact {
		k++
	}
	if dir < 0 {
		k--
	}
	for k >= 0 && k < n && m.filter != nil && !m.filterUpd[k] {
		k += dir
	}
	if k < 0 || k >= n {
		if dir > 0 {
			m.setNote("last entity update", false)
		} else {
			m.setNote("first entity update", false)
		}
		return nil
	}
	return m.jump(k)
}

func (m *Model) stepPacket(dir int) tea.Cmd {
	c := m.sel.Cmd
	if c == -2 {
		c = len(m.ix.Commands)
	}
	for i := c + dir; i >= 0 && i < len(m.ix.Commands); i += dir {
		if m.ix.Commands[i].Kind.HasPackets() && (m.filter == nil || m.filterCmd[i]) {
			return m.reveal(Sel{i, -1, -1, -1})
		}
	}
	m.setNote("no more packets", false)
	return nil
}

func (m *Model) gotoTick(t int) tea.Cmd {
	for k, r := range m.ix.Updates {
		if m.ix.Commands[r.Cmd].Tick >= int32(t) {
			return m.jump(k)
		}
	}
	for i, c := range m.ix.Commands {
		if c.Tick >= int32(t) {
			return m.reveal(Sel{i, -1, -1, -1})
		}
	}
	m.setNote(fmt.Sprintf("no command at or after tick %d", t), true)
	return nil
}

func (m *Model) gotoEntity(e int) tea.Cmd {
	n := len(m.ix.Updates)
	k, exact := m.flatPos()
	if !exact {
		k--
	}
	for i := 1; i <= n; i++ {
		j := ((k+i)%n + n) % n
		r := m.ix.Updates[j]
		if u := m.ix.Update(int(r.Cmd), int(r.Msg), int(r.Upd)); u != nil && u.Entity == int32(e) {
			return m.jump(j)
		}
	}
	m.setNote(fmt.Sprintf("entity %d is never updated", e), true)
	return nil
}

func (m *Model) doSearch(q string) tea.Cmd {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil
	}
	m.lastSearch = q
	mt := newMatcher(m.ix, q)
	n := len(m.ix.Updates)
	k, exact := m.flatPos()
	if !exact {
		k--
	}
	for i := 1; i <= n; i++ {
		j := ((k+i)%n + n) % n
		r := m.ix.Updates[j]
		if !mt.update(m.ix, r) {
			continue
		}
		cmd := m.jump(j)
		if m.sel.Field >= 0 {
			m.sel.Field = m.firstMatch(mt, r)
		}
		total := 0
		for _, rr := range m.ix.Updates {
			if mt.update(m.ix, rr) {
				total++
			}
		}
		m.setNote(fmt.Sprintf("%q: %d matching updates", q, total), false)
		return cmd
	}
	m.setNote(fmt.Sprintf("no field or class matches %q", q), true)
	return nil
}

func (m *Model) applyFilter() {
	n := len(m.ix.Updates)
	m.filterUpd = make([]bool, n)
	m.filterCmd = make([]bool, len(m.ix.Commands))
	for k, r := range m.ix.Updates {
		if m.filter.update(m.ix, r) {
			m.filterUpd[k] = true
			m.filterCmd[r.Cmd] = true
		}
	}
}

func (m *Model) setFilter(q string) tea.Cmd {
	q = strings.TrimSpace(q)
	if q == "" {
		m.clearFilter()
		m.rebuild()
		m.follow()
		m.setNote("filter cleared", false)
		return nil
	}
	m.filter, m.filterText = newMatcher(m.ix, q), q
	m.applyFilter()
	count := 0
	for _, b := range m.filterUpd {
		if b {
			count++
		}
	}
	if count == 0 {
		m.clearFilter()
		m.setNote(fmt.Sprintf("no update touches a field or class matching %q", q), true)
		return nil
	}
	m.setNote(fmt.Sprintf("filter %q: %d updates", q, count), false)
	if k := m.ix.FlatOf(m.sel.Cmd, m.sel.Msg, m.sel.Upd); k >= 0 && m.filterUpd[k] {
		m.rebuild()
		m.follow()
		return nil
	}
	for k, b := range m.filterUpd {
		if b {
			return m.jump(k)
		}
	}
	return nil
}

func (m *Model) clearFilter() {
	m.filter, m.filterText, m.filterUpd, m.filterCmd = nil, "", nil, nil
}

// ensureDetail requests the decode of the selected packet-entities
// message unless it is loaded or on its way.
func (m *Model) ensureDetail() tea.Cmd {
	msg := m.ix.Msg(m.sel.Cmd, m.sel.Msg)
	if msg == nil || msg.PE == nil {
		return nil
	}
	key := [2]int{m.sel.Cmd, m.sel.Msg}
	if m.detail != nil && m.detail.Cmd == key[0] && m.detail.Msg == key[1] {
		return nil
	}
	if m.loading && m.loadKey == key {
		return nil
	}
	m.detailGen++
	gen := m.detailGen
	m.dec.latest.Store(gen)
	m.loading, m.loadKey, m.loadErr = true, key, ""
	dec, inner := m.dec, msg.Index
	return safe(func() tea.Msg {
		det, err := dec.Load(gen, key[0], key[1], inner)
		return detailMsg{gen, det, err}
	})
}

// cur returns the loaded detail when it is the selected message's.
func (m *Model) cur() *Detail {
	if m.detail != nil && m.detail.Cmd == m.sel.Cmd && m.detail.Msg == m.sel.Msg {
		return m.detail
	}
	return nil
}

// curFields returns the selected update's recorded fields.
func (m *Model) curFields() []provenance.Field {
	d := m.cur()
	if d == nil || m.sel.Upd < 0 || m.sel.Upd >= len(d.Rec.Updates) {
		return nil
	}
	return d.Rec.UpdateFields(m.sel.Upd)
}

func (m *Model) moveField(delta int) {
	if wi := m.wiHere(); wi != nil {
		m.moveDiffRow(wi, delta)
		return
	}
	fs := m.curFields()
	if len(fs) == 0 {
		return
	}
	f := m.sel.Field + delta
	f = clamp(f, 0, len(fs)-1)
	if f != m.sel.Field {
		m.sel.Field = f
		m.inspScroll = 0
	}
}

// --- input ---------------------------------------------------------------

func (m *Model) setNote(s string, isErr bool) { m.note, m.noteErr = s, isErr }

func (m *Model) layout() layout {
	return computeLayout(m.w, max(0, m.h-1), m.focus, m.lastA, m.lastB)
}

// tlHeight is the number of timeline rows shown.
func (m *Model) tlHeight() int {
	l := m.layout()
	if l.visible[paneTimeline] {
		return max(1, l.rects[paneTimeline].h-3)
	}
	return max(1, m.h-4)
}

// follow scrolls the timeline so the cursor stays in view.
func (m *Model) follow() {
	h := m.tlHeight()
	if m.cursor < m.tlTop {
		m.tlTop = m.cursor
	} else if m.cursor >= m.tlTop+h {
		m.tlTop = m.cursor - h + 1
	}
	m.tlTop = max(0, min(m.tlTop, len(m.rows)-h))
}

func (m *Model) moveCursor(to int) tea.Cmd {
	if len(m.rows) == 0 {
		return nil
	}
	to = clamp(to, 0, len(m.rows)-1)
	if to == m.cursor {
		return nil
	}
	m.cursor = to
	m.follow()
	return m.selFromRow()
}

func (m *Model) pageSize(p pane) int {
	l := m.layout()
	if l.visible[p] {
		return max(1, l.rects[p].h-3)
	}
	return 10
}

func (m *Model) cycleFocus(dir int) {
	m.focus = pane((int(m.focus) + dir + int(numPanes)) % int(numPanes))
	if groupA(m.focus) {
		m.lastA = m.focus
	}
	if groupB(m.focus) {
		m.lastB = m.focus
	}
	m.follow()
}

func (m *Model) toggleRow() tea.Cmd {
	if m.cursor < 0 || m.cursor >= len(m.rows) {
		return nil
	}
	r := m.rows[m.cursor]
	if r.kind == views.RowUpdate || isEnd(r.kind) {
		return nil
	}
	k := expKey{r.cmd, r.msg}
	if m.expanded(k) {
		delete(m.userExp, k)
		delete(m.autoExp, k)
	} else {
		m.userExp[k] = true
	}
	m.rebuild()
	m.follow()
	return nil
}

func (m *Model) expandable(r tlRow) bool {
	switch r.kind {
	case views.RowCommand:
		return len(m.ix.Commands[r.cmd].Msgs) > 0
	case views.RowMessage:
		pe := m.ix.Commands[r.cmd].Msgs[r.msg].PE
		return pe != nil && len(pe.Updates) > 0
	}
	return false
}

func (m *Model) timelineLeft() tea.Cmd {
	if m.cursor < 0 || m.cursor >= len(m.rows) {
		return nil
	}
	r := m.rows[m.cursor]
	if r.kind != views.RowUpdate && !isEnd(r.kind) && m.expanded(expKey{r.cmd, r.msg}) {
		return m.toggleRow()
	}
	// Go to the parent row.
	for i := m.cursor - 1; i >= 0; i-- {
		p := m.rows[i]
		if (r.kind == views.RowUpdate && p.kind == views.RowMessage) || (r.kind == views.RowMessage && p.kind == views.RowCommand) {
			return m.moveCursor(i)
		}
	}
	return nil
}

func (m *Model) timelineRight() tea.Cmd {
	if m.cursor < 0 || m.cursor >= len(m.rows) {
		return nil
	}
	r := m.rows[m.cursor]
	if !m.expandable(r) {
		if r.kind == views.RowUpdate {
			m.focus, m.lastA = paneFields, paneFields
		}
		return nil
	}
	if !m.expanded(expKey{r.cmd, r.msg}) {
		return m.toggleRow()
	}
	return m.moveCursor(m.cursor + 1)
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	m.note, m.noteErr = "", false
	k := m.keys
	if msg.String() == "ctrl+c" {
		return tea.Quit
	}
	if m.prompt != promptNone {
		return m.onPromptKey(msg)
	}
	if m.picker != nil {
		return m.onPickerKey(msg)
	}
	if m.showHelp {
		switch {
		case key.Matches(msg, k.Quit):
			return tea.Quit
		case key.Matches(msg, k.Help, k.Back):
			m.showHelp = false
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
	case key.Matches(msg, k.Back):
		if m.wi != nil || m.wiPending {
			m.leaveWhatIf()
			m.setNote("left the what-if", false)
		} else if m.filter != nil {
			m.clearFilter()
			m.rebuild()
			m.follow()
			m.setNote("filter cleared", false)
		}
	case key.Matches(msg, k.NextPane):
		m.cycleFocus(1)
	case key.Matches(msg, k.PrevPane):
		m.cycleFocus(-1)
	case key.Matches(msg, k.NextUpdate):
		return m.stepUpdate(1)
	case key.Matches(msg, k.PrevUpdate):
		return m.stepUpdate(-1)
	case key.Matches(msg, k.NextPacket):
		return m.stepPacket(1)
	case key.Matches(msg, k.PrevPacket):
		return m.stepPacket(-1)
	case key.Matches(msg, k.GotoTick):
		m.prompt, m.input = promptTick, ""
	case key.Matches(msg, k.Search):
		m.prompt, m.input = promptSearch, m.lastSearch
	case key.Matches(msg, k.Filter):
		m.prompt, m.input = promptFilter, m.filterText
	case key.Matches(msg, k.Ent):
		m.prompt, m.input = promptEntity, ""
	case key.Matches(msg, k.Before):
		m.before = !m.before
	case key.Matches(msg, k.NextAnomaly):
		return m.stepAnomaly(1)
	case key.Matches(msg, k.PrevAnomaly):
		return m.stepAnomaly(-1)
	case key.Matches(msg, k.ApplyInferred):
		return m.applyInferred()
	case key.Matches(msg, k.WhatIf):
		m.openPicker()
	case key.Matches(msg, k.Toggle):
		if wi := m.wiHere(); wi != nil {
			wi.showOrig = !wi.showOrig
			m.setNote("showing the "+wi.sideName()+" decode", false)
		} else {
			m.setNote("no what-if here: d on a field starts one", false)
		}
	case key.Matches(msg, k.Expand):
		if m.focus == paneTimeline {
			return m.toggleRow()
		}
	default:
		return m.move(msg)
	}
	return nil
}

// move handles the movement keys for the focused pane.
func (m *Model) move(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	page := m.pageSize(m.focus)
	delta := 0
	switch {
	case key.Matches(msg, k.Up):
		delta = -1
	case key.Matches(msg, k.Down):
		delta = 1
	case key.Matches(msg, k.PageUp):
		delta = -page
	case key.Matches(msg, k.PageDown):
		delta = page
	case key.Matches(msg, k.Home):
		delta = -1 << 30
	case key.Matches(msg, k.End):
		delta = 1 << 30
	case key.Matches(msg, k.Left):
		if m.focus == paneTimeline {
			return m.timelineLeft()
		}
		m.moveField(-1)
		return nil
	case key.Matches(msg, k.Right):
		if m.focus == paneTimeline {
			return m.timelineRight()
		}
		m.moveField(1)
		return nil
	default:
		return nil
	}
	return m.scrollPane(m.focus, delta)
}

// scrollPane moves the cursor or scroll position of pane p by delta.
func (m *Model) scrollPane(p pane, delta int) tea.Cmd {
	switch p {
	case paneTimeline:
		if delta <= -1<<30 || delta >= 1<<30 {
			return m.moveCursor(clamp(delta, -1, len(m.rows)))
		}
		return m.moveCursor(m.cursor + delta)
	case paneFields, paneBits:
		m.moveField(clamp(delta, -1<<20, 1<<20))
	case paneInspector:
		m.inspScroll = clamp(m.inspScroll+delta, 0, 1<<20)
	case paneEntity:
		m.entScroll = clamp(m.entScroll+delta, -1<<20, 1<<20)
	case paneSchema:
		m.schScroll = clamp(m.schScroll+delta, -1<<20, 1<<20)
	}
	return nil
}

func (m *Model) onWheel(msg tea.MouseWheelMsg) tea.Cmd {
	mouse := msg.Mouse()
	delta := 0
	switch mouse.Button {
	case tea.MouseWheelUp:
		delta = -3
	case tea.MouseWheelDown:
		delta = 3
	default:
		return nil
	}
	l := m.layout()
	for p := pane(0); p < numPanes; p++ {
		if !l.visible[p] || !l.rects[p].contains(mouse.X, mouse.Y) {
			continue
		}
		if p == paneTimeline {
			h := m.tlHeight()
			m.tlTop = clamp(m.tlTop+delta, 0, max(0, len(m.rows)-h))
			return nil
		}
		if p == paneFields || p == paneBits {
			delta /= 3
		}
		return m.scrollPane(p, delta)
	}
	return nil
}

func (m *Model) onPromptKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.prompt = promptNone
		return nil
	case "enter":
		kind, text := m.prompt, m.input
		m.prompt = promptNone
		switch kind {
		case promptTick, promptEntity:
			n, err := strconv.Atoi(strings.TrimSpace(text))
			if err != nil {
				m.setNote(fmt.Sprintf("%q is not a number", text), true)
				return nil
			}
			if kind == promptTick {
				return m.gotoTick(n)
			}
			return m.gotoEntity(n)
		case promptSearch:
			return m.doSearch(text)
		case promptFilter:
			return m.setFilter(text)
		}
		return nil
	case "backspace":
		if r := []rune(m.input); len(r) > 0 {
			m.input = string(r[:len(r)-1])
		}
		return nil
	case "ctrl+u":
		m.input = ""
		return nil
	}
	if msg.Text != "" {
		m.input += msg.Text
	}
	return nil
}

// --- view ----------------------------------------------------------------

// View draws the screen. A panic while drawing shows one error line.
func (m *Model) View() (v tea.View) {
	defer func() {
		if p := recover(); p != nil {
			v = tea.NewView(fmt.Sprintf("dembug: internal error while drawing: %v (q quits)", p))
		}
	}()
	v = tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "dembug · " + filepath.Base(m.path)
	return v
}

// Render is the screen content: exactly the window's size.
func (m *Model) Render() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	bodyH := m.h - 1
	var body string
	if m.showHelp {
		body = views.Box("Keys · ? or esc closes", views.Help(m.keys.HelpGroups(), m.w-2, bodyH-2, m.theme), m.w, bodyH, true, m.theme)
	} else {
		l := m.layout()
		// Place each pane's lines at its rectangle; panes tile the body.
		type seg struct {
			x int
			s string
		}
		grid := make([][]seg, bodyH)
		for p := pane(0); p < numPanes; p++ {
			if !l.visible[p] {
				continue
			}
			r := l.rects[p]
			for i, line := range strings.Split(m.renderPane(p, r), "\n") {
				if y := r.y + i; y >= 0 && y < bodyH && i < r.h {
					grid[y] = append(grid[y], seg{r.x, line})
				}
			}
		}
		parts := make([]string, bodyH)
		for y, segs := range grid {
			sort.Slice(segs, func(a, b int) bool { return segs[a].x < segs[b].x })
			var b strings.Builder
			for _, sg := range segs {
				b.WriteString(sg.s)
			}
			parts[y] = b.String()
		}
		body = views.Block(strings.Join(parts, "\n"), m.w, bodyH)
		if m.picker != nil {
			box, x, y := m.pickerBox(bodyH)
			body = views.Overlay(body, box, x, y)
		}
	}
	return body + "\n" + m.statusLine()
}

func (m *Model) renderPane(p pane, r rect) string {
	iw, ih := r.w-2, r.h-2
	var title, body string
	switch p {
	case paneTimeline:
		title, body = m.timelinePane(iw, ih)
	case paneFields:
		title, body = m.fieldsPane(iw, ih)
	case paneBits:
		title, body = m.bitsPane(iw, ih)
	case paneInspector:
		title, body = m.inspectorPane(iw, ih)
	case paneEntity:
		title, body = m.entityPane(iw, ih)
	case paneSchema:
		title, body = m.schemaPane(iw, ih)
	}
	return views.Box(title, body, r.w, r.h, p == m.focus, m.theme)
}

func (m *Model) timelinePane(w, h int) (string, string) {
	title := "Timeline"
	if m.filter != nil {
		title += fmt.Sprintf(" · filter %q", m.filterText)
	}
	if len(m.rows) > 0 && m.cursor >= 0 {
		title += fmt.Sprintf(" · %d/%d", m.cursor+1, len(m.rows))
	}
	if len(m.rows) == 0 {
		msg := "indexing…"
		if m.ix.Done {
			msg = "(empty file)"
		}
		return title, views.Timeline(views.TimelineInput{Rows: []views.TimelineRow{{Kind: views.RowNote, Text: msg}}, Cursor: -1, Width: w, Height: h, Theme: m.theme})
	}
	n := max(0, h-1)
	top := clamp(m.tlTop, 0, max(0, len(m.rows)-n))
	end := min(len(m.rows), top+n)
	vr := make([]views.TimelineRow, 0, end-top)
	for _, r := range m.rows[top:end] {
		vr = append(vr, m.viewRow(r))
	}
	return title, views.Timeline(views.TimelineInput{Rows: vr, Cursor: m.cursor - top, Width: w, Height: h, Theme: m.theme})
}

func (m *Model) viewRow(r tlRow) views.TimelineRow {
	ix := m.ix
	switch r.kind {
	case views.RowCommand:
		c := &ix.Commands[r.cmd]
		return views.TimelineRow{
			Kind: views.RowCommand, Expandable: len(c.Msgs) > 0, Expanded: m.expanded(expKey{r.cmd, -1}),
			Err: c.Err != "", Index: c.Index, Tick: c.Tick, Name: c.Kind.String(), Size: c.Size, Zip: c.Compressed, Sev: c.Sev,
		}
	case views.RowMessage:
		msg := &ix.Commands[r.cmd].Msgs[r.msg]
		row := views.TimelineRow{Kind: views.RowMessage, Index: msg.Index, Name: msg.Name, Size: msg.Size}
		if msg.PE != nil {
			row.Expandable = len(msg.PE.Updates) > 0
			row.Expanded = m.expanded(expKey{r.cmd, r.msg})
			row.Err = msg.PE.Err != ""
			row.Sev = msg.PE.Sev
			row.Name = fmt.Sprintf("%s (%d)", msg.Name, len(msg.PE.Updates))
		}
		return row
	case views.RowUpdate:
		u := ix.Update(int(r.cmd), int(r.msg), int(r.upd))
		return views.TimelineRow{
			Kind: views.RowUpdate, Index: int(u.Entity), Name: u.Class, Op: u.Op.String(),
			Fields: u.Fields, Bits: u.Bits(), Err: u.Err != "", Sev: u.Sev,
		}
	case views.RowError:
		e := ix.Err
		return views.TimelineRow{Kind: views.RowError, Text: fmt.Sprintf("stopped at byte %d (command #%d): %s", e.Offset, e.Command, e.Text)}
	case views.RowNote:
		return views.TimelineRow{Kind: views.RowNote, Text: ix.EndNote}
	}
	return views.TimelineRow{Kind: views.RowNote}
}

// fieldsEmpty says why there are no fields to show.
func (m *Model) fieldsEmpty() string {
	s := m.sel
	switch {
	case s.Cmd == -2 && m.ix.Err != nil:
		return "decoding stopped here: see the inspector"
	case s.Cmd == -2:
		return m.ix.EndNote
	case s.Cmd < 0:
		return "n steps to the first entity update"
	}
	msg := m.ix.Msg(s.Cmd, s.Msg)
	if msg == nil {
		c := m.ix.Cmd(s.Cmd)
		if c == nil {
			return ""
		}
		return views.ShortKind(c.Kind.String()) + ": n steps to the next entity update"
	}
	if msg.PE == nil {
		return msg.Name + " is not a packet-entities message"
	}
	if m.loadErr != "" {
		return "cannot decode: " + m.loadErr
	}
	if m.cur() == nil {
		return "decoding…"
	}
	if s.Upd < 0 {
		return fmt.Sprintf("%d updates: → expands, n steps into them", len(msg.PE.Updates))
	}
	u := m.ix.Update(s.Cmd, s.Msg, s.Upd)
	switch {
	case u == nil:
		return ""
	case u.Skipped:
		return "no fields: the PVS bits skip this update"
	case u.Op == provenance.Leave || u.Op == provenance.Delete:
		return u.Op.String() + ": no fields"
	}
	return "no fields"
}

func (m *Model) fieldsPane(w, h int) (string, string) {
	title := "Fields"
	d := m.cur()
	if d != nil && m.sel.Upd >= 0 && m.sel.Upd < len(d.Rec.Updates) {
		u := &d.Rec.Updates[m.sel.Upd]
		if wi := m.wiHere(); wi != nil {
			row, pairs := m.wiRow(wi)
			title = fmt.Sprintf("What-if · entity #%d %s · showing the %s decode (x)", u.Index, u.Class, wi.sideName())
			return title, views.DiffTable(views.DiffTableInput{
				Rows: wi.diffRows(m.sel.Upd, pairs), Selected: row, Original: wi.showOrig,
				Empty: m.fieldsEmpty(), Width: w, Height: h, Theme: m.theme,
			})
		}
		title = fmt.Sprintf("Fields · entity #%d %s %s · %d fields", u.Index, u.Class, u.Op, u.NumFields)
		if n := countAnomalous(&d.Report, u.FirstField, u.NumFields); n > 0 {
			if more := fmt.Sprintf(" · %d anomalous", n); views.Width(title+more) <= w-3 {
				title += more
			}
		}
		key := [2]any{d, m.sel.Upd}
		if m.cache.fieldsKey != key {
			m.cache.fieldsKey, m.cache.fields = key, fieldRows(d.Rec.UpdateFields(m.sel.Upd), &d.Report, u.FirstField)
		}
		return title, views.FieldTable(views.FieldTableInput{
			Rows: m.cache.fields, Selected: m.sel.Field, Empty: m.fieldsEmpty(), Width: w, Height: h, Theme: m.theme,
		})
	}
	return title, views.FieldTable(views.FieldTableInput{Selected: -1, Empty: m.fieldsEmpty(), Width: w, Height: h, Theme: m.theme})
}

// countAnomalous counts the fields in [first, first+n) with any anomaly.
func countAnomalous(rep *diagnose.Report, first, n int) int {
	c := 0
	for i := first; i < first+n && i < len(rep.Anomalies); i++ {
		if len(rep.Anomalies[i]) > 0 {
			c++
		}
	}
	return c
}

func (m *Model) bitsPane(w, h int) (string, string) {
	sh, ok := m.shown()
	if !ok {
		return "Bitstream", m.theme.Dim.Render(" select a packet-entities message or update")
	}
	title := fmt.Sprintf("Bitstream · entity data, %s", bitio.Size(uint(len(sh.data))*8))
	if sh.whatIf {
		title = fmt.Sprintf("Bitstream · what-if decode, %s", bitio.Size(uint(len(sh.data))*8))
	}
	in := views.HexBitsInput{Data: sh.data, Selected: -1, Width: w, Height: h, Theme: m.theme}
	if sh.upd >= 0 && sh.upd < len(sh.rec.Updates) {
		key := [2]any{sh.rec, sh.upd}
		if m.cache.spansKey != key {
			m.cache.spansKey = key
			m.cache.spans, m.cache.valueSpan, m.cache.header = updateSpans(sh.rec, sh.upd)
		}
		in.Spans = m.cache.spans
		in.Selected = m.cache.header
		if f := sh.field; f >= 0 && f < len(m.cache.valueSpan) {
			in.Selected = m.cache.valueSpan[f]
		}
	}
	return title, views.HexBits(in)
}

func (m *Model) inspectorPane(w, h int) (string, string) {
	var secs []views.InspectorSection
	title := "Inspector"
	d := m.cur()
	switch {
	case m.sel.Cmd == -2 && m.ix.Err != nil:
		e := m.ix.Err
		secs = []views.InspectorSection{{Title: "Decoding stopped", Lines: []views.InspectorLine{
			{Label: "byte", Text: fmt.Sprint(e.Offset)},
			{Label: "command", Text: fmt.Sprintf("#%d", e.Command)},
			{Label: "error", Text: e.Text, Style: views.LineError},
			{Label: "", Text: "Everything before this point decoded; the timeline ends here.", Style: views.LineDim},
		}}}
	case d != nil && m.sel.Upd >= 0 && m.sel.Upd < len(d.Rec.Updates):
		sh, _ := m.shown()
		wi := m.wiHere()
		var side any
		if wi != nil {
			side = wi.showOrig
		}
		key := [5]any{d, m.sel.Upd, sh.field, wi, [2]any{side, m.inference}}
		if m.cache.inspKey != key {
			m.cache.inspKey = key
			var out []views.InspectorSection
			if wi != nil {
				_, pairs := m.wiRow(wi)
				out = append(out, wi.section(m.sel.Upd, pairs))
			}
			switch {
			case sh.upd < 0:
				out = append(out, views.InspectorSection{Title: "Update", Lines: []views.InspectorLine{
					{Text: "This decode has no such update: it stopped or went astray earlier.", Style: views.LineDim}}})
			case sh.field >= 0 && sh.field < sh.rec.Updates[sh.upd].NumFields:
				in := ExplainInput{Rec: sh.rec, Data: sh.data, Update: sh.upd, Field: sh.field, Report: sh.rep}
				if f := &sh.rec.UpdateFields(sh.upd)[sh.field]; sh.whatIf && wi.w.Decoder != nil && f.Decoder == wi.w.Decoder {
					in.Override = wi.label
				}
				out = append(out, Explain(in)...)
			case wi != nil && m.sel.Field >= 0:
				out = append(out, views.InspectorSection{Title: "Field", Lines: []views.InspectorLine{
					{Text: "The " + wi.sideName() + " decode did not read this field.", Style: views.LineDim}}})
			default:
				out = append(out, ExplainUpdate(sh.rec, sh.upd, sh.rep)...)
			}
			if sh.rep != nil && sh.rep.Misaligned && wi == nil {
				// What inference found is the first thing to read at a
				// message that misaligns after a patch.
				if l := m.inferenceLines(true); len(l) > 0 {
					sec := views.InspectorSection{Title: "Unknown names", Lines: l}
					if inf := m.inference; inf != nil && (inf.checked != nil || inf.running) {
						out = append([]views.InspectorSection{sec}, out...)
					} else {
						out = append(out, sec)
					}
				}
			}
			m.cache.insp = out
		}
		secs = m.cache.insp
		if sh.upd >= 0 && sh.field >= 0 && sh.field < sh.rec.Updates[sh.upd].NumFields {
			title = "Inspector · " + sh.rec.UpdateFields(sh.upd)[sh.field].Name
		}
		if wi != nil {
			title = "Inspector · " + wi.sideName() + strings.TrimPrefix(title, "Inspector")
		}
	case m.sel.Cmd == -2:
		secs = []views.InspectorSection{{Title: "End of file", Lines: []views.InspectorLine{
			{Label: "note", Text: m.ix.EndNote},
			{Label: "", Text: "Every command up to here decoded.", Style: views.LineDim},
		}}}
	default:
		secs = m.summary()
	}
	return title, views.Inspector(views.InspectorInput{Sections: secs, Scroll: m.inspScroll, Width: w, Height: h, Theme: m.theme})
}

// peAnomalyLines sums up a message's anomalies from the index.
func (m *Model) peAnomalyLines(pe *PEInfo) []views.InspectorLine {
	strong, weak := 0, 0
	for u := range pe.Updates {
		for fi := range pe.Updates[u].Fields {
			switch pe.FieldSev(u, fi) {
			case views.SevStrong:
				strong++
			case views.SevWeak:
				weak++
			}
		}
	}
	var l []views.InspectorLine
	if strong+weak > 0 {
		st := views.LineWarn
		if strong > 0 {
			st = views.LineError
		}
		l = append(l, views.InspectorLine{Label: "anomalies", Text: fmt.Sprintf("%d fields strongly anomalous (!), %d weakly (?); a steps to them", strong, weak), Style: st})
	}
	if pe.Problem != "" {
		l = append(l, views.InspectorLine{Label: "problem", Text: pe.Problem, Style: views.LineError})
	}
	if pe.SuspectUpd >= 0 && int(pe.SuspectUpd) < len(pe.Updates) {
		u := &pe.Updates[pe.SuspectUpd]
		where := fmt.Sprintf("update #%d (entity #%d %s)", pe.SuspectUpd, u.Entity, u.Class)
		if pe.SuspectField >= 0 {
			if ids := pe.names[u.names : int(u.names)+u.Fields]; int(pe.SuspectField) < len(ids) {
				where = m.ix.Names[ids[pe.SuspectField]] + " in " + where
			}
		}
		l = append(l, views.InspectorLine{Label: "suspect", Text: where + ": " + pe.SuspectWhy, Style: views.LineMath})
	}
	if pe.Err != "" {
		l = append(l, m.inferenceLines(true)...)
	}
	return l
}

// summary describes the selected command or message.
func (m *Model) summary() []views.InspectorSection {
	c := m.ix.Cmd(m.sel.Cmd)
	if c == nil {
		lines := []views.InspectorLine{
			{Label: "file", Text: m.path},
			{Label: "size", Text: fmt.Sprintf("%d bytes", len(m.data))},
		}
		lines = append(lines, m.inferenceLines(false)...)
		return []views.InspectorSection{{Title: "Replay", Lines: lines}}
	}
	tick := "signon (-1)"
	if c.Tick >= 0 {
		tick = fmt.Sprint(c.Tick)
	}
	comp := "no"
	if c.Compressed {
		comp = "snappy"
	}
	lines := []views.InspectorLine{
		{Label: "command", Text: fmt.Sprintf("#%d %s", c.Index, c.Kind)},
		{Label: "tick", Text: tick},
		{Label: "at", Text: fmt.Sprintf("byte %d (0x%x)", c.Offset, c.Offset)},
		{Label: "size", Text: fmt.Sprintf("%d bytes, compressed: %s", c.Size, comp)},
	}
	if len(c.Msgs) > 0 {
		lines = append(lines, views.InspectorLine{Label: "messages", Text: fmt.Sprint(len(c.Msgs))})
	}
	if c.NumUpdates > 0 {
		lines = append(lines, views.InspectorLine{Label: "updates", Text: fmt.Sprint(c.NumUpdates)})
	}
	if c.Err != "" {
		lines = append(lines, views.InspectorLine{Label: "error", Text: c.Err, Style: views.LineError})
	}
	if c.Kind == container.SendTables {
		lines = append(lines, m.inferenceLines(false)...) // the schema's unknown names
	} else if a := m.opts.Aliases; !a.Empty() {
		lines = append(lines, views.InspectorLine{Label: "aliases", Text: strings.Join(a.Flags(), " "), Style: views.LineMath})
	}
	secs := []views.InspectorSection{{Title: "Command", Lines: lines}}
	if msg := m.ix.Msg(m.sel.Cmd, m.sel.Msg); msg != nil {
		ml := []views.InspectorLine{
			{Label: "message", Text: fmt.Sprintf("#%d %s (type %d)", msg.Index, msg.Name, msg.Type)},
			{Label: "at", Text: "packet bit " + bitio.Offset(msg.Bit)},
			{Label: "size", Text: fmt.Sprintf("%d bytes", msg.Size)},
		}
		if pe := msg.PE; pe != nil {
			kind := "full"
			if pe.Delta {
				kind = "delta"
			}
			ml = append(ml,
				views.InspectorLine{Label: "entities", Text: fmt.Sprintf("%d updates, %s frame, %s of entity data, decoding ended at %s", len(pe.Updates), kind, bitio.Size(pe.DataBits), bitio.Offset(pe.EndBit))})
			if pe.Skipped {
				ml = append(ml, views.InspectorLine{Label: "note", Text: "a repeated full frame: not applied", Style: views.LineDim})
			}
			if pe.Err != "" {
				ml = append(ml, views.InspectorLine{Label: "error", Text: pe.Err, Style: views.LineError})
			}
			ml = append(ml, m.peAnomalyLines(pe)...)
		}
		secs = append(secs, views.InspectorSection{Title: "Message", Lines: ml})
	}
	return secs
}

func (m *Model) entityPane(w, h int) (string, string) {
	when := "after"
	if m.before {
		when = "before"
	}
	d, upd, field, whatIf := m.paneDetail()
	if whatIf {
		when = "what-if, " + when
	}
	title := "Entity · " + when + " (b toggles)"
	if d == nil || upd < 0 || upd >= len(d.Snaps) {
		return title, views.Entity(views.EntityInput{Width: w, Height: h, Theme: m.theme, Empty: "select an entity update", Selected: -1})
	}
	snap := &d.Snaps[upd]
	u := &d.Rec.Updates[upd]
	if snap.After == nil {
		return title, views.Entity(views.EntityInput{Width: w, Height: h, Theme: m.theme, Selected: -1,
			Empty: fmt.Sprintf("#%d %s: no state after this %s", u.Index, u.Class, u.Op)})
	}
	key := [3]any{d, upd, m.before}
	if m.cache.entKey != key {
		state := snap.After
		if m.before {
			state = d.Before(upd)
		}
		written := map[fieldpath.Path]bool{}
		for _, f := range d.Rec.UpdateFields(upd) {
			written[normPath(f.Path)] = true
		}
		m.cache.entKey = key
		m.cache.entRows, m.cache.entAt = entityRows(snap.Ser, state, written)
	}
	sel := -1
	if fs := d.Rec.UpdateFields(upd); field >= 0 && field < len(fs) {
		if i, ok := m.cache.entAt[normPath(fs[field].Path)]; ok {
			sel = i
		}
	}
	return title, views.Entity(views.EntityInput{
		Header: fmt.Sprintf("#%d %s serial %d", u.Index, u.Class, snap.Serial),
		Before: m.before, Rows: m.cache.entRows, Selected: sel, Scroll: m.entScroll,
		Width: w, Height: h, Theme: m.theme,
	})
}

func (m *Model) schemaPane(w, h int) (string, string) {
	d, upd, field, _ := m.paneDetail()
	if d == nil || upd < 0 || upd >= len(d.Snaps) || d.Snaps[upd].Ser == nil {
		return "Schema", views.Schema(views.SchemaInput{Width: w, Height: h, Theme: m.theme, Empty: "select an entity update"})
	}
	snap := &d.Snaps[upd]
	var sel *fieldpath.Path
	if fs := d.Rec.UpdateFields(upd); field >= 0 && field < len(fs) {
		p := fs[field].Path
		sel = &p
	}
	rows := schemaRows(snap.Ser, snap.After, sel)
	header := fmt.Sprintf("%s · %d fields (%d with nested)", snap.Ser.Name, len(snap.Ser.Fields), countFields(snap.Ser, 0))
	return "Schema · " + snap.Ser.Name, views.Schema(views.SchemaInput{
		Header: header, Rows: rows, Scroll: m.schScroll, Width: w, Height: h, Theme: m.theme,
	})
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// location spells the selection for the status line.
func (m *Model) location() string {
	s := m.sel
	if s.Cmd == -2 && m.ix.Err != nil {
		return "where decoding stopped"
	}
	if s.Cmd == -2 {
		return "end of file"
	}
	c := m.ix.Cmd(s.Cmd)
	if c == nil {
		return ""
	}
	var parts []string
	tick := "signon"
	if c.Tick >= 0 {
		tick = fmt.Sprintf("tick %d", c.Tick)
	}
	parts = append(parts, tick, fmt.Sprintf("#%d %s", c.Index, views.ShortKind(c.Kind.String())))
	if msg := m.ix.Msg(s.Cmd, s.Msg); msg != nil {
		parts = append(parts, msg.Name)
		if msg.PE != nil && s.Upd >= 0 {
			parts = append(parts, fmt.Sprintf("update #%d of %d", s.Upd, len(msg.PE.Updates)))
			if u := m.ix.Update(s.Cmd, s.Msg, s.Upd); u != nil && s.Field >= 0 {
				parts = append(parts, fmt.Sprintf("field #%d of %d", s.Field, u.Fields))
			}
		}
	}
	if wi := m.wiHere(); wi != nil {
		parts = append(parts, "what-if ("+wi.sideName()+" shown)")
	}
	return strings.Join(parts, " › ")
}

func (m *Model) statusLine() string {
	t := m.theme
	if m.prompt != promptNone {
		left := promptLabels[m.prompt] + ": " + m.input + "█"
		return views.StatusBar(left, "enter ok · esc cancel", m.w, t)
	}
	right := "n next · tab pane · / search · ? keys · q quit"
	switch {
	case m.picker != nil:
		right = "↑↓ choose · enter try · s scope · esc cancel"
	case m.wiHere() != nil:
		right = "x original/what-if · esc leaves the what-if · ? keys"
	case m.wiPending:
		right = "running the what-if… · esc cancels · ? keys"
	}
	if !m.ix.Done {
		pct := 0
		if m.ix.Size > 0 {
			pct = m.ix.Pos * 100 / m.ix.Size
		}
		right = fmt.Sprintf("%s indexing %d%% · ", spinner[m.spin%len(spinner)], pct) + right
	} else if m.loading {
		right = "decoding… · " + right
	}
	left := m.location()
	switch {
	case m.fatal != "":
		left = "✗ " + m.fatal
	case m.note != "":
		left = m.note
		if m.noteErr {
			left = "✗ " + left
		}
	}
	if m.w < 100 {
		right = "? keys"
		if m.picker != nil {
			right = "enter try · esc"
		} else if m.wiHere() != nil {
			right = "x · esc"
		}
		if !m.ix.Done {
			right = "indexing…"
		}
	}
	return views.StatusBar(left, right, m.w, t)
}
