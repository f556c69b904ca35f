package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// A selected svc_CreateStringTable or svc_UpdateStringTable is re-read bit
// by bit (session.WalkStringTable, off the loop): the fields pane lists
// every read of every entry, the bitstream shows the entry data with the
// selected entry's reads, and the inspector explains the selected read
// with the entry before and after. Until the walk arrives, the message
// shows as its wire tree.

// walkState is the string-table walk of the selected message.
type walkState struct {
	key     [2]int // command + 1 and message position of w (or of the walk on its way)
	loading bool
	w       *session.TableWalk
	err     string
	rows    []walkRow
	sel     int
	classes map[string]string // instancebaseline keys to class names, once read
}

// walkRow is one read: entry e of the walk, its part p.
type walkRow struct{ e, p int }

type walkResult struct {
	key [2]int
	w   *session.TableWalk
	err error
}

// ensureWalk requests the walk of msg, the selected message, when it is a
// string-table message not yet walked or on its way.
func (m *Model) ensureWalk(msg *session.Message) tea.Cmd {
	if msg == nil || msg.Name != "svc_CreateStringTable" && msg.Name != "svc_UpdateStringTable" {
		return nil
	}
	key := m.walkKey()
	if m.walk.key == key && (m.walk.loading || m.walk.w != nil || m.walk.err != "") {
		return nil
	}
	c := m.ix.Cmd(m.sel.Cmd)
	if c == nil {
		return nil
	}
	m.jobs.start(jobWalk)
	m.walk.key, m.walk.loading, m.walk.w, m.walk.err, m.walk.rows, m.walk.sel = key, true, nil, "", nil, 0
	file, cmd, pos := m.file, *c, m.sel.Msg
	return m.run(jobWalk, func() any {
		w, err := file.WalkStringTable(cmd, pos)
		return walkResult{key, w, err}
	})
}

func (m *Model) onWalk(msg walkResult) {
	m.walk.loading = false
	if msg.err != nil {
		m.walk.err = msg.err.Error()
		return
	}
	m.walk.w, m.walk.rows, m.walk.sel = msg.w, nil, 0
	for e := range msg.w.Entries {
		for p := range msg.w.Entries[e].Parts {
			m.walk.rows = append(m.walk.rows, walkRow{e, p})
		}
	}
	if msg.w.Table == "instancebaseline" && m.walk.classes == nil {
		m.walk.classes = m.file.BaselineClasses(m.ix)
	}
}

// walkKey is walkState.key for the selected message.
func (m *Model) walkKey() [2]int { return [2]int{m.sel.Cmd + 1, m.sel.Msg} }

// walkHere is the walk of the selected message, when it has arrived.
func (m *Model) walkHere() *session.TableWalk {
	if m.walk.w == nil || m.sel.Upd >= 0 || m.walk.key != m.walkKey() {
		return nil
	}
	return m.walk.w
}

// walkMove moves the selection through the walk's reads; false when no
// walk is shown.
func (m *Model) walkMove(delta int) bool {
	if m.walkHere() == nil {
		return false
	}
	if n := len(m.walk.rows); n > 0 {
		if s := clamp(m.walk.sel+delta, 0, n-1); s != m.walk.sel {
			m.walk.sel = s
			m.inspScroll = 0
		}
	}
	return true
}

func (m *Model) walkPart() (*session.EntryWalk, *session.TablePart, bool) {
	w := m.walkHere()
	if w == nil || m.walk.sel < 0 || m.walk.sel >= len(m.walk.rows) {
		return nil, nil, false
	}
	r := m.walk.rows[m.walk.sel]
	e := &w.Entries[r.e]
	return e, &e.Parts[r.p], true
}

// walkFields draws the fields pane: one row per read.
func (m *Model) walkFields(w, h int) (string, string, bool) {
	tw := m.walkHere()
	if tw == nil {
		return "", "", false
	}
	rows := make([]views.FieldRow, 0, len(m.walk.rows))
	for _, r := range m.walk.rows {
		e := &tw.Entries[r.e]
		p := &e.Parts[r.p]
		group, enc := p.Kind.Encoding(&tw.Settings)
		row := views.FieldRow{Path: fmt.Sprintf("#%d", e.Index), Name: p.Kind.String(), Type: group, Decoder: enc,
			Offset: views.Offset(p.Start), Bits: p.Bits, Value: e.Brief(p)}
		if e.Index < 0 {
			row.Path = "#?"
		}
		rows = append(rows, row)
	}
	title := fmt.Sprintf("String table · %s · %s, bit by bit", tw.Table, views.Count(len(tw.Entries), "entry|entries"))
	if tw.Err != nil {
		title += " · stops"
	}
	return title, views.FieldTable(views.FieldTableInput{Rows: rows, Selected: m.walk.sel, Empty: "no entries", Width: w, Height: h, Theme: m.theme,
		Titles: &walkTitles}), true
}

// walkTitles head the walk's columns: each row is one read of an entry,
// not an entity's field.
var walkTitles = [7]string{"entry", "read", "part", "encoding", "offset", "bits", "value"}

// walkWords name the walk's reads in the bitstream's summary: the n-th
// read of the entry, an index, key or value read.
var walkWords = views.SpanWords{Piece: "read", Kinds: [3]string{"index", "key", "value"}}

// walkBits draws the entry data with the selected entry's reads: index
// reads as header, key reads as path, value reads as value.
func (m *Model) walkBits(w, h int) (string, string, bool) {
	tw := m.walkHere()
	if tw == nil {
		return "", "", false
	}
	in := views.HexBitsInput{Data: tw.Data, Selected: -1, Width: w, Height: h, Theme: m.theme, Words: &walkWords}
	if e, sel, ok := m.walkPart(); ok {
		for i := range e.Parts {
			p := &e.Parts[i]
			if p.Bits == 0 {
				continue
			}
			kind := views.SpanHeader // index reads
			switch group, _ := p.Kind.Encoding(&tw.Settings); group {
			case "key":
				kind = views.SpanPath
			case "value":
				kind = views.SpanValue
			}
			if p == sel {
				in.Selected = len(in.Spans)
			}
			in.Spans = append(in.Spans, views.BitSpan(p.Start, p.Bits, kind, i))
		}
	}
	what := "entry data"
	if tw.Compressed {
		what = "entry data, decompressed"
	}
	return fmt.Sprintf("Bitstream · %s %s, %s", tw.Table, what, views.Size(uint(len(tw.Data))*8)), views.HexBits(in), true
}

// walkSections explains the selected read and its entry, then lists the
// entries the message wrote (their keys as the file has them).
func (m *Model) walkSections() ([]views.InspectorSection, bool) {
	tw := m.walkHere()
	if tw == nil {
		if m.walk.key == m.walkKey() && m.walk.err != "" && m.sel.Upd < 0 {
			return []views.InspectorSection{{Title: "String table, bit by bit", Lines: []views.InspectorLine{{Label: "error", Text: m.walk.err, Style: views.LineError}}}}, true
		}
		return nil, false
	}
	// The selected read's entry comes first while the fields pane has the
	// focus, after the list of entries otherwise.
	var first, last []views.InspectorSection
	if e, sel, ok := m.walkPart(); ok {
		if m.focus == paneFields {
			first = append(first, m.entrySection(tw, e, sel))
		} else {
			last = append(last, m.entrySection(tw, e, sel))
		}
	}
	what := "created"
	if tw.ID >= 0 {
		what = fmt.Sprintf("updated (table %d in creation order)", tw.ID)
	}
	if tw.Compressed {
		what += ", entry data snappy-compressed"
	}
	s := &tw.Settings
	l := []views.InspectorLine{
		{Label: "table", Text: tw.Table + " " + what},
		{Label: "settings", Text: fmt.Sprintf("user data: fixed %v, %d bits; flags %d; varint bit counts %v", s.UserDataFixed, s.UserDataSizeBits, s.Flags, s.VarintBitCounts), Style: views.LineDim},
	}
	const maxShown = 200
	for i, e := range tw.Entries {
		if i == maxShown {
			l = append(l, views.InspectorLine{Text: fmt.Sprintf("… %d more entries", len(tw.Entries)-maxShown), Style: views.LineDim})
			break
		}
		l = append(l, views.InspectorLine{Label: fmt.Sprintf("#%d", e.Index), Text: m.entryText(tw, e.After)})
	}
	if tw.Err != nil {
		l = append(l, views.InspectorLine{Label: "error", Text: tw.Err.Error(), Style: views.LineError})
	}
	secs := append(first, views.InspectorSection{Title: "String-table entries", Lines: l})
	return append(secs, last...), true
}

// entryText shows an entry: key (with the class an instance baseline's key
// names) and value.
func (m *Model) entryText(tw *session.TableWalk, e session.StringEntry) string {
	text := fmt.Sprintf("%q", e.Key)
	if c := m.walk.classes[e.Key]; c != "" && tw.Table == "instancebaseline" {
		text += " = " + c
	}
	if e.Value == nil {
		return text + ", no value"
	}
	return text + fmt.Sprintf(", %s: %s", views.Count(len(e.Value), "byte"), e.ValueHex(24))
}

// entrySection walks the selected read's entry: each read with its bits
// and what it means, the selected one marked, then the entry before and
// after.
func (m *Model) entrySection(tw *session.TableWalk, e *session.EntryWalk, sel *session.TablePart) views.InspectorSection {
	before := "never written"
	if e.Existed {
		before = m.entryText(tw, e.Before)
	}
	l := []views.InspectorLine{
		{Label: "before", Text: before, Style: views.LineDim},
		{Label: "after", Text: m.entryText(tw, e.After)},
	}
	for i := range e.Parts {
		p := &e.Parts[i]
		label := p.Kind.String()
		if p == sel {
			label = "▸ " + label
		}
		l = append(l, views.InspectorLine{Label: label, Text: fmt.Sprintf("%s  (%s, %s)", e.Explain(p, &tw.Settings), views.Offset(p.Start), views.Size(p.Bits)), Style: partStyle(p, sel)})
		if p.Kind == session.PartSize && tw.Settings.VarintBitCounts {
			l = append(l, ubitvarLines(tw.Data, p.Start)...) // the size's ubitvar taken apart
		}
	}
	title := fmt.Sprintf("Entry %d of %d · index %d, bit by bit", e.Ordinal+1, len(tw.Entries), e.Index)
	return views.InspectorSection{Title: title, Lines: l}
}

func partStyle(p, sel *session.TablePart) views.LineStyle {
	if p == sel {
		return views.LineMath
	}
	return views.LinePlain
}
