package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/compare"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
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
	// Compare is a parser's trace compared with our decode (--compare):
	// the debugger opens at its first difference.
	Compare *compare.Result
	// StartTick, with HasStartTick, is where the debugger opens: the
	// first entity update at or after it, once the index reaches it
	// (--tick).
	StartTick    int32
	HasStartTick bool
}

// tlRow is one visible timeline row.
type tlRow struct {
	kind          views.RowKind
	cmd, msg, upd int32
}

type expKey struct{ cmd, msg int32 }

// detailResult is the selected message's live decode (jobDetail).
type detailResult struct {
	det *session.Detail
	err error
}

// panicMsg is a panic in work off the loop (safe).
type panicMsg struct{ text string }

type promptKind int

const (
	promptNone promptKind = iota
	promptTick
	promptSearch
	promptFilter
	promptEntity
	promptCut // the file to write the marked window to (cut.go)
)

var promptLabels = map[promptKind]string{
	promptTick: "go to tick", promptSearch: "search fields, classes or an event name", promptFilter: "filter by field, class or event name", promptEntity: "entity index",
}

// Model is the root model: it owns the index, the selection and the
// loaded message detail; panes are drawn from them by package views.
type Model struct {
	opts  Options
	theme views.Theme
	keys  KeyMap

	path string
	file *session.File // the open file: whatever decodes it again is asked of it
	ix   *session.Index
	in   *session.Indexer
	// schema is the file's schema as far as the index pass has read it,
	// taken in Update from each chunk (session.Indexer.SchemaSeen): the
	// screen never asks the pass, which runs on a goroutine of its own.
	schema *schema.Schema
	// chunks bring the index pass's results; stopIndex ends it early.
	chunks    <-chan *session.Chunk
	stopIndex func()
	dec       *session.LiveDecoder
	jobs      jobs // the stamps of work off the loop (jobs.go)

	w, h         int
	focus        pane
	lastA, lastB pane
	showHelp     bool
	helpTop      int // the help's first line shown (it scrolls where it does not fit)
	prompt       promptKind
	input        string

	// Timeline.
	rows        rowList
	cursor      int
	tlTop       int
	userExp     map[expKey]bool
	autoExp     map[expKey]bool
	filter      *session.Matcher
	filterText  string
	filterUpd   []bool
	filterField []uint16 // per update, the field the filter found
	filterCmd   []bool
	lastSearch  string

	// Selection and the message it needs.
	sel     session.Ref // what every pane reads; session.None for nothing
	detail  *session.Detail
	loading bool
	loadKey session.Ref
	loadErr string

	// Per-pane scrolling and toggles.
	inspScroll, entScroll, schScroll int
	headerFirst                      bool // H: the inspector starts with the update's header (and a create's baseline)
	opsFirst                         bool // o: the inspector starts with the update's field-path op stream
	opTable                          bool // O: the inspector starts with every field-path op (optable.go)
	parsersFirst                     bool // p: the inspector starts with how the public parsers read the file
	before                           bool

	prefetched bool
	// restore is where the selection was when I reopened the file under
	// other aliases: selected again once the index reaches it.
	restore *session.Ref
	// decodingNote is the note I set while the file decodes anew; it
	// gives way to the result when the index pass ends.
	decodingNote string
	startedAt    bool // went to Options.StartTick (startat.go)
	// parsers is the file's forecast of the public parsers (p), asked of
	// the file the first time p is pressed; parsersAsked says it was.
	parsers      []session.ParserForecast
	parsersAsked bool
	keyframed    bool

	// Background work (background.go): the grading pass, and the search
	// or filter scan running.
	grader *session.Grader
	scan   *scanJob
	// gradeWaiting: the grading pass waits for a decode the user asked
	// for (the two would share the machine's cores).
	gradeWaiting bool
	lastKey      time.Time

	// Diagnostics: the decoder picker, the what-if shown (for one message)
	// and the one running; the captured message what-ifs re-decode.
	picker     *picker
	wi         *whatIf
	wiPending  bool
	wiRowKey   session.Ref // the selection wiRowSel was derived from
	wiRowSel   int         // selected row of the diff
	wiPairsFor *whatIf
	wiPairsUpd int
	wiPairs    []session.Pair

	note    string
	noteErr bool
	spin    int
	fatal   string

	cache     viewCache
	wireTitle string // the wire tree's title, with the cache's wire
	wireSel   int    // the wire tree's selected row
	wireBody  []byte // the body the wire tree shows

	stTree *sendTablesTree // DEM_SendTables' schema tree (wiresendtables.go)

	walk walkState // a string-table message's bit walk (strwalk.go)

	// The count of a search's matches, running after it found one.
	count *countJob

	// The suspect of the first misaligned message as check names it.
	suspect *suspectFound

	// The grouped list of anomalies (L) when open, and what is muted.
	list *anomList
	mute diagnose.Tally

	// What the names decoder choice does not know behave as (infer.go).
	inference *inference

	// A parser's trace beside our decode (compare.go).
	cmp *comparison

	// Where the jumps came from, for ctrl+o and ctrl+i (jumplist.go), and
	// the entity e last went to.
	jumps      jumpList
	lastEntity int

	// The command line a what-if was promoted to (P, promote.go) and how
	// many values it changed.
	promoted string

	// The tick window marked for a cut and the cut written (cut.go).
	cut cutState
}

// viewCache keeps derived pane data for the current selection.
type viewCache struct {
	fieldsKey memo[fieldsKey]
	fields    []views.FieldRow
	spansKey  memo[spansKey]
	spans     []views.Span
	valueSpan []int
	header    int
	entKey    memo[entKey]
	entRows   []views.EntityRow
	entAt     map[session.Path]int
	schKey    memo[schKey]
	schRows   []views.SchemaRow
	schHeader string
	inspKey   memo[inspKey]
	insp      []views.InspectorSection // the selected field's or update's (inspKey)
	// inspTitle and secs are the inspector's title and every section it
	// shows, derived after each Update (deriveInspector).
	inspTitle string
	secs      []views.InspectorSection
	wireKey   memo[session.Ref] // the message (Msg -1: the command body)
	wire      []views.WireLine
	wireNote  string
	tableKey  memo[session.Ref] // the string-table message
	table     []views.InspectorSection
	// framingKey: the packet command whose packet data and inner
	// messages' headers packet holds (framing.go).
	framingKey memo[int]
	packet     session.PacketLayout
	packetErr  string
}

// New returns the root model for a file's bytes.
func New(path string, data []byte, opts Options) *Model {
	if opts.IndexBudget <= 0 {
		opts.IndexBudget = 40 * time.Millisecond
	}
	return newModel(path, session.OpenFile(data, opts.Aliases), opts)
}

// newModel is the root model for an open file (opts.Aliases are the
// file's).
func newModel(path string, file *session.File, opts Options) *Model {
	m := &Model{
		opts: opts, keys: DefaultKeyMap(), path: path, file: file,
		ix:      &session.Index{Path: path, Size: len(file.Bytes())},
		in:      file.Indexer(),
		dec:     file.LiveDecoder(),
		userExp: map[expKey]bool{}, autoExp: map[expKey]bool{},
		sel:   session.None,
		lastA: paneTimeline, lastB: paneInspector,
		cmp: newComparison(opts.Compare),

		lastEntity: -1,
	}
	if c := opts.Compare; c != nil && c.Same() {
		m.setNote(fmt.Sprintf("compare: no difference in %d reads", c.Compared), false)
	}
	m.sayBuiltIn()
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

// indexCmd takes the next chunk of the index pass, which runs on its own
// goroutine (started here the first time) and never waits for the screen.
func (m *Model) indexCmd() tea.Cmd {
	if m.chunks == nil {
		// The first screen after a short step; then longer ones, as each
		// chunk redraws the screen, which costs the pass CPU.
		m.chunks, m.stopIndex = m.in.Run(m.opts.IndexBudget, 5*m.opts.IndexBudget)
	}
	chunks := m.chunks
	return m.run(jobFile, func() any {
		if ch, ok := <-chunks; ok {
			return ch
		}
		return nil
	})
}

// Update handles one message. A panic becomes an error on the status line.
func (m *Model) Update(msg tea.Msg) (res tea.Model, cmd tea.Cmd) {
	defer func() {
		if p := recover(); p != nil {
			m.fatal = fmt.Sprintf("internal error: %v", p)
			res, cmd = m, nil
		}
	}()
	defer func() { // what the panes show, for View to read (derive.go)
		if c := m.derive(); c != nil {
			cmd = tea.Batch(cmd, c)
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
	case done:
		return m, m.onDone(msg) // done.go
	case panicMsg:
		m.fatal = "internal error: " + msg.text
		m.loading, m.wiPending = false, false
	case tea.MouseWheelMsg:
		return m, m.onWheel(msg)
	case tea.MouseClickMsg:
		return m, m.onClick(msg)
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	}
	return m, nil
}

func (m *Model) onIndex(ch *session.Chunk) tea.Cmd {
	had := len(m.ix.Commands)
	m.ix.Append(ch)
	if m.schema == nil || m.ix.Done {
		m.schema = m.in.SchemaSeen(m.ix)
	}
	if m.ix.Keyframes != nil && !m.keyframed {
		m.keyframed = true
		m.dec.UseKeyframes(m.ix.Keyframes)
	}
	m.spin++
	m.appendRows(had)
	if had == 0 && m.rows.Len() > 0 && m.sel == session.None {
		m.cursor = 0
		m.selFromRow()
	}
	m.follow()
	var next tea.Cmd
	if !m.ix.Done {
		next = m.indexCmd()
	} else {
		if m.decodingNote != "" && m.note == m.decodingNote {
			m.setNote(strings.Replace(m.decodingNote, "decoding with", "decoded with", 1)+m.valuesLeftNote(), false)
		}
		m.decodingNote = ""
		if m.ix.Err != nil {
			m.setNote("decoding stopped: "+m.ix.Err.Error(), true)
		}
		next = tea.Batch(m.inferCmd(), m.gradeCmd(), m.locateCmd())
	}
	if c := m.placeComparison(); c != nil {
		next = tea.Batch(next, c)
	}
	if c := m.startAt(); c != nil {
		next = tea.Batch(next, c)
	}
	if r := m.restore; r != nil && (r.Cmd < len(m.ix.Commands) || m.ix.Done) {
		// Back where I was pressed; that load is the one to make, so
		// no prefetch competes with it.
		m.restore, m.prefetched = nil, true
		if r.Cmd < len(m.ix.Commands) {
			next = tea.Batch(next, m.reveal(*r))
		}
	}
	if !m.prefetched && m.ix.NumUpdates() > 0 {
		// Warm the decoder with the first packet-entities message, the
		// one n goes to first and the slowest to reach from cold.
		m.prefetched = true
		r := m.ix.Ref(0)
		dec, n := m.dec, m.jobs.now(jobDetail).n
		next = tea.Batch(next, m.run(jobDetail, func() any {
			_, _ = dec.Load(n, r)
			return nil
		}))
	}
	return next
}

func (m *Model) onDetail(msg detailResult) {
	m.loading = false
	if msg.err != nil {
		if msg.err != session.ErrStale {
			m.loadErr = msg.err.Error()
		}
		return
	}
	m.loadErr = ""
	m.detail = msg.det
}
