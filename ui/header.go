package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// headerLine shows one re-read header value with its place.
func headerLine(label, text string, h session.HeaderPart) views.InspectorLine {
	return views.InspectorLine{Label: label, Text: fmt.Sprintf("%s  (%s, %s)", text, views.Offset(h.Start), views.Size(h.Len))}
}

// ExplainHeader re-reads an update's header bit by bit (session.ReadHeader):
// the index delta (a ubitvar), the two command bits, and for a create the
// class id (its width from max_classes), the 17-bit serial and the spawn
// group varint; for an update of a message with PVS bits, those two bits.
func ExplainHeader(data []byte, rec *provenance.Message, ui int, classBits uint, maxClasses int32) views.InspectorSection {
	u := &rec.Updates[ui]
	prev := int32(-1)
	if ui > 0 {
		prev = rec.Updates[ui-1].Index
	}
	var l []views.InspectorLine
	read := uint(0)
	for _, h := range session.ReadHeader(data, rec, ui, classBits) {
		read += h.Len
		v := h.Value
		switch h.Name {
		case "index delta":
			l = append(l, headerLine("index", fmt.Sprintf("delta %d as a ubitvar: %d + %d + 1 = entity #%d", v, prev, v, prev+int32(v)+1), h))
			l = append(l, ubitvarLines(data, h.Start)...)
		case "command":
			what := map[uint64]string{0: "update", 1: "leave", 2: "create", 3: "leave and delete"}[v]
			l = append(l, headerLine("command", fmt.Sprintf("%d: leave bit %d, create/delete bit %d → %s", v, v&1, v>>1, what), h))
		case "class id":
			l = append(l, headerLine("class id", fmt.Sprintf("%d = %s, in %d bits: max_classes %d → floor(log2 %d) + 1", v, u.Class, classBits, maxClasses, maxClasses), h))
		case "serial":
			l = append(l, headerLine("serial", fmt.Sprintf("%d, in 17 bits", v), h))
		case "spawn group":
			l = append(l, headerLine("spawn group", fmt.Sprintf("%d, a varint", v), h))
		case "pvs":
			text := fmt.Sprintf("%02b: fields follow", v)
			if v&1 != 0 {
				text = fmt.Sprintf("%02b: the update carries no fields", v)
			}
			l = append(l, headerLine("PVS bits", text, h))
		}
	}
	if read != u.HeaderBits {
		l = append(l, views.InspectorLine{Label: "note", Text: fmt.Sprintf("the decode read %s of header here", views.Size(u.HeaderBits)), Style: views.LineWarn})
	}
	return views.InspectorSection{Title: "Header, bit by bit", Lines: l}
}

// ExplainDeletions re-reads the deletion list that ends a delta message
// (session.ReadDeletions): a ubitvar count, then each index as a ubitvar
// delta from the one before (from −1).
func ExplainDeletions(data []byte, rec *provenance.Message) (views.InspectorSection, bool) {
	const maxShown = 64
	parts := session.ReadDeletions(data, rec, maxShown)
	if len(parts) == 0 {
		return views.InspectorSection{}, false
	}
	l := []views.InspectorLine{headerLine("count", fmt.Sprintf("%d, a ubitvar", parts[0].Value), parts[0])}
	prev := int64(-1)
	for _, h := range parts[1:] {
		idx := int64(h.Value)
		l = append(l, headerLine("delete", fmt.Sprintf("delta %d: %d + %d = entity #%d", idx-prev, prev, idx-prev, idx), h))
		prev = idx
	}
	if n := parts[0].Value; n > maxShown {
		l = append(l, views.InspectorLine{Text: fmt.Sprintf("… %d more", n-maxShown), Style: views.LineDim})
	}
	return views.InspectorSection{Title: "Deletion list", Lines: l}, true
}

// tableSections lists the entries a selected svc_CreateStringTable or
// svc_UpdateStringTable wrote (an instance baseline's key is a class id:
// its class is named).
func (m *Model) tableSections() []views.InspectorSection {
	if secs, ok := m.walkSections(); ok {
		return secs
	}
	msg := m.ix.Msg(m.sel.Cmd, m.sel.Msg)
	if msg == nil || (msg.Name != "svc_CreateStringTable" && msg.Name != "svc_UpdateStringTable") {
		return nil
	}
	if !m.cache.tableKey.is(m.sel.Message()) {
		return nil // derive has not read it yet
	}
	return m.cache.table
}

// tableResult is a string-table message's entries, read off the loop.
type tableResult struct {
	key session.Ref // the message
	ch  *session.TableChange
	err error
}

// deriveTable starts reading the selected string-table message's entries,
// off the loop, when the selection moved to another one (derive); the
// inspector lists them when they arrive (onTable).
func (m *Model) deriveTable() tea.Cmd {
	msg := m.ix.Msg(m.sel.Cmd, m.sel.Msg)
	if msg == nil || (msg.Name != "svc_CreateStringTable" && msg.Name != "svc_UpdateStringTable") {
		return nil
	}
	key := m.sel.Message()
	if m.cache.tableKey.is(key) {
		return nil
	}
	m.cache.tableKey.set(key)
	m.cache.table = nil
	m.jobs.start(jobTable)
	// The index as it stands: Update goes on appending to m.ix meanwhile.
	file, ix, c := m.file, *m.ix, *m.ix.Cmd(key.Cmd)
	return m.run(jobTable, func() any {
		ch, err := file.StringTableChange(&ix, &c, key.Msg)
		return tableResult{key, ch, err}
	})
}

// onTable lists a string-table message's entries for the inspector.
func (m *Model) onTable(r tableResult) {
	if !m.cache.tableKey.is(r.key) {
		return
	}
	ch, err := r.ch, r.err
	var l []views.InspectorLine
	if ch != nil {
		what := "created"
		if ch.ID >= 0 {
			what = fmt.Sprintf("updated (table %d in creation order)", ch.ID)
		}
		if ch.Compressed {
			what += ", entry data snappy-compressed"
		}
		l = append(l, views.InspectorLine{Label: "table", Text: ch.Table + " " + what},
			views.InspectorLine{Label: "settings", Text: ch.Settings, Style: views.LineDim})
		if ch.Table == "instancebaseline" {
			l = append(l, views.InspectorLine{Label: "keys", Text: "class ids; each value is the class's baseline: entity fields without an update header, that creates start from", Style: views.LineDim})
		}
		const maxShown = 200
		for i, e := range ch.Entries {
			if i == maxShown {
				l = append(l, views.InspectorLine{Text: fmt.Sprintf("… %d more entries", len(ch.Entries)-maxShown), Style: views.LineDim})
				break
			}
			text := fmt.Sprintf("%q", e.Key)
			if e.Key == "" {
				text = "(key kept)"
			}
			if e.Class != "" {
				text += " = " + e.Class
			}
			if e.HasValue {
				text += fmt.Sprintf(", %d bytes", e.Value)
			}
			l = append(l, views.InspectorLine{Label: fmt.Sprintf("#%d", e.Index), Text: text})
		}
	}
	if err != nil {
		l = append(l, views.InspectorLine{Label: "error", Text: err.Error(), Style: views.LineError})
	}
	m.cache.table = []views.InspectorSection{{Title: "String-table entries", Lines: l}}
}

// ExplainBaseline lists what a create started from: each field its class's
// instance baseline sets, with its bit offset and length inside the
// baseline, before the create's own fields are applied over it.
func ExplainBaseline(b session.Baseline, class string) views.InspectorSection {
	l := []views.InspectorLine{{Text: fmt.Sprintf("the instancebaseline entry of %s: %s of entity fields without an update header; the create's fields are applied over these", class, views.Size(uint(len(b.Data))*8)), Style: views.LineDim}}
	const maxShown = 60
	for i, f := range b.Rec.Fields {
		if i == maxShown {
			l = append(l, views.InspectorLine{Text: fmt.Sprintf("… %d more fields", len(b.Rec.Fields)-maxShown), Style: views.LineDim})
			break
		}
		l = append(l, views.InspectorLine{Label: f.Name, Text: fmt.Sprintf("%s  (%s, %s)", f.Value.TextAs(f.Decoder), views.Offset(f.Start), views.Size(f.Bits))})
	}
	if b.Err != nil {
		l = append(l, views.InspectorLine{Label: "error", Text: b.Err.Error(), Style: views.LineError})
	}
	return views.InspectorSection{Title: "Baseline", Lines: l}
}
