package ui

import (
	"encoding/hex"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/stringtable"
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
		m.walk.classes = session.BaselineClasses(m.file.Bytes(), m.ix)
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

func (m *Model) walkPart() (*stringtable.EntryWalk, *stringtable.Part, bool) {
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
		group, enc := partEncoding(p.Kind, &tw.Settings)
		row := views.FieldRow{Path: fmt.Sprintf("#%d", e.Index), Name: p.Kind.String(), Type: group, Decoder: enc,
			Offset: bitio.Offset(p.Start), Bits: p.Bits, Value: partValue(e, p)}
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
			switch group, _ := partEncoding(p.Kind, &tw.Settings); group {
			case "key":
				kind = views.SpanPath
			case "value":
				kind = views.SpanValue
			}
			if p == sel {
				in.Selected = len(in.Spans)
			}
			in.Spans = append(in.Spans, views.Span{Span: bitio.Span{Start: p.Start, Bits: p.Bits}, Kind: kind, Field: i})
		}
	}
	what := "entry data"
	if tw.Compressed {
		what = "entry data, decompressed"
	}
	return fmt.Sprintf("Bitstream · %s %s, %s", tw.Table, what, bitio.Size(uint(len(tw.Data))*8)), views.HexBits(in), true
}

// partEncoding names a read's group (index, key or value) and how it is
// encoded, per the table's settings.
func partEncoding(k stringtable.PartKind, t *stringtable.Table) (group, enc string) {
	switch k {
	case stringtable.PartIncrement:
		return "index", "bit"
	case stringtable.PartJump:
		return "index", "varuint32"
	case stringtable.PartKeyFlag, stringtable.PartHistoryFlag:
		return "key", "bit"
	case stringtable.PartHistory:
		return "key", "5+5 bits"
	case stringtable.PartKey:
		return "key", "string"
	case stringtable.PartValueFlag, stringtable.PartCompressed:
		return "value", "bit"
	case stringtable.PartSize:
		if t.VarintBitCounts {
			return "value", "ubitvar"
		}
		return "value", "17 bits"
	case stringtable.PartValue:
		if t.UserDataFixed {
			return "value", fmt.Sprintf("%d bits", t.UserDataSizeBits)
		}
		return "value", "bytes"
	}
	return "", ""
}

// partValue is a read's value in a few words.
func partValue(e *stringtable.EntryWalk, p *stringtable.Part) string {
	switch p.Kind {
	case stringtable.PartIncrement:
		if p.V == 1 {
			return fmt.Sprintf("1: %d + 1 = %d", e.Prev, e.Index)
		}
		return "0: a jump follows"
	case stringtable.PartJump:
		return fmt.Sprintf("%d: %d + %d + 2 = %d", p.V, e.Prev, p.V, e.Index)
	case stringtable.PartKeyFlag:
		if p.V == 1 {
			return "1: a key follows"
		}
		return fmt.Sprintf("0: keeps %q", e.Before.Key)
	case stringtable.PartHistoryFlag:
		if p.V == 1 {
			return "1: starts with a recent key's prefix"
		}
		return "0: the whole key follows"
	case stringtable.PartHistory:
		if p.Beyond {
			return fmt.Sprintf("key %d, %d bytes: past the history", p.V, p.Len)
		}
		return fmt.Sprintf("key %d, %d bytes: %q", p.V, p.Len, prefixOf(p.Str, p.Len))
	case stringtable.PartKey:
		return fmt.Sprintf("%q", p.Str)
	case stringtable.PartValueFlag:
		if p.V == 1 {
			return "1: a value follows"
		}
		if e.Before.Value != nil {
			return "0: the value is cleared"
		}
		return "0: no value"
	case stringtable.PartCompressed:
		if p.V == 1 {
			return "1: snappy-compressed"
		}
		return "0: not compressed"
	case stringtable.PartSize:
		return views.Count(int(p.V), "byte")
	case stringtable.PartValue:
		return shortHex(e.After.Value, 16)
	}
	return ""
}

func prefixOf(s string, n int) string { return s[:min(n, len(s))] }

func shortHex(b []byte, max int) string {
	if b == nil {
		return "(none)"
	}
	s := hex.EncodeToString(b[:min(len(b), max)])
	if len(b) > max {
		s += "…"
	}
	return s
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
func (m *Model) entryText(tw *session.TableWalk, e stringtable.Entry) string {
	text := fmt.Sprintf("%q", e.Key)
	if c := m.walk.classes[e.Key]; c != "" && tw.Table == "instancebaseline" {
		text += " = " + c
	}
	if e.Value == nil {
		return text + ", no value"
	}
	return text + fmt.Sprintf(", %s: %s", views.Count(len(e.Value), "byte"), shortHex(e.Value, 24))
}

// entrySection walks the selected read's entry: each read with its bits
// and what it means, the selected one marked, then the entry before and
// after.
func (m *Model) entrySection(tw *session.TableWalk, e *stringtable.EntryWalk, sel *stringtable.Part) views.InspectorSection {
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
		l = append(l, views.InspectorLine{Label: label, Text: fmt.Sprintf("%s  (%s, %s)", partExplain(tw, e, p), bitio.Offset(p.Start), bitio.Size(p.Bits)), Style: partStyle(p, sel)})
		if p.Kind == stringtable.PartSize && tw.Settings.VarintBitCounts {
			l = append(l, ubitvarLines(tw.Data, p.Start)...) // the size's ubitvar taken apart
		}
	}
	title := fmt.Sprintf("Entry %d of %d · index %d, bit by bit", e.Ordinal+1, len(tw.Entries), e.Index)
	return views.InspectorSection{Title: title, Lines: l}
}

func partStyle(p, sel *stringtable.Part) views.LineStyle {
	if p == sel {
		return views.LineMath
	}
	return views.LinePlain
}

// partExplain says what a read means, in a sentence.
func partExplain(tw *session.TableWalk, e *stringtable.EntryWalk, p *stringtable.Part) string {
	switch p.Kind {
	case stringtable.PartIncrement:
		if p.V == 1 {
			return fmt.Sprintf("1: the next index, %d + 1 = %d", e.Prev, e.Index)
		}
		return "0: not the next index; a jump follows"
	case stringtable.PartJump:
		return fmt.Sprintf("v = %d, a varint: previous + v + 2 = %d + %d + 2 = %d", p.V, e.Prev, p.V, e.Index)
	case stringtable.PartKeyFlag:
		if p.V == 1 {
			return "1: a key follows"
		}
		return fmt.Sprintf("0: no key; the entry keeps %q, and that key enters the history", e.Before.Key)
	case stringtable.PartHistoryFlag:
		if p.V == 1 {
			return "1: the key starts with a prefix of one of the last 32 entries' keys"
		}
		return "0: the whole key follows"
	case stringtable.PartHistory:
		if p.Beyond {
			return fmt.Sprintf("position %d (5 bits), length %d (5 bits): past the keys the history holds, so nothing is borrowed (as the public parsers tolerate)", p.V, p.Len)
		}
		return fmt.Sprintf("position %d (5 bits), length %d (5 bits): borrows %q from %q", p.V, p.Len, prefixOf(p.Str, p.Len), p.Str)
	case stringtable.PartKey:
		rest := p.Str[min(int(p.V), len(p.Str)):]
		if p.V > 0 {
			return fmt.Sprintf("%q, zero-terminated: the key is %q + %q = %q", rest, p.Str[:p.V], rest, p.Str)
		}
		return fmt.Sprintf("%q, zero-terminated", p.Str)
	case stringtable.PartValueFlag:
		if p.V == 1 {
			return "1: a value follows"
		}
		if e.Before.Value != nil {
			return fmt.Sprintf("0: no value; the old one (%s) is cleared", views.Count(len(e.Before.Value), "byte"))
		}
		return "0: no value"
	case stringtable.PartCompressed:
		if p.V == 1 {
			return "1: the value is snappy-compressed (the table's flags have bit 1)"
		}
		return "0: the value is stored as is (the table's flags have bit 1, so the bit is there)"
	case stringtable.PartSize:
		if tw.Settings.VarintBitCounts {
			return fmt.Sprintf("%s, a ubitvar (the table uses varint bit counts)", views.Count(int(p.V), "byte"))
		}
		return fmt.Sprintf("%s, in 17 bits (the table does not use varint bit counts)", views.Count(int(p.V), "byte"))
	case stringtable.PartValue:
		if tw.Settings.UserDataFixed {
			return fmt.Sprintf("%d bits, the table's fixed size: %s", tw.Settings.UserDataSizeBits, shortHex(e.After.Value, 24))
		}
		v := shortHex(e.After.Value, 24)
		if int(p.V) != len(e.After.Value) {
			return fmt.Sprintf("%s compressed, %s decompressed: %s", views.Count(int(p.V), "byte"), views.Count(len(e.After.Value), "byte"), v)
		}
		return v
	}
	return strings.TrimSpace(p.Kind.String())
}
