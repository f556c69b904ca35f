package ui

import (
	"fmt"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// headerRead is one value of an update header or a deletion list, re-read
// from the entity data.
type headerRead struct {
	start, bits uint
	label, text string
}

func (h headerRead) line() views.InspectorLine {
	return views.InspectorLine{Label: h.label, Text: fmt.Sprintf("%s  (%s, %s)", h.text, bitio.Offset(h.start), bitio.Size(h.bits))}
}

// ExplainHeader re-reads an update's header bit by bit: the index delta
// (a ubitvar), the two command bits, and for a create the class id (its
// width from max_classes), the 17-bit serial and the spawn group varint;
// for an update of a message with PVS bits, those two bits.
func ExplainHeader(data []byte, rec *provenance.Message, ui int, classBits uint, maxClasses int32) views.InspectorSection {
	u := &rec.Updates[ui]
	prev := int32(-1)
	if ui > 0 {
		prev = rec.Updates[ui-1].Index
	}
	r := bitio.NewReader(data)
	r.Seek(u.Start)
	var reads []headerRead
	read := func(label string, f func() string) {
		at := r.Pos()
		text := f()
		reads = append(reads, headerRead{at, r.Pos() - at, label, text})
	}
	read("index", func() string {
		d := r.UBitVar()
		return fmt.Sprintf("delta %d as a ubitvar: %d + %d + 1 = entity #%d", d, prev, d, prev+int32(d)+1)
	})
	read("command", func() string {
		c := r.Bits(2)
		what := map[uint32]string{0: "update", 1: "leave", 2: "create", 3: "leave and delete"}[c]
		return fmt.Sprintf("%d: leave bit %d, create/delete bit %d → %s", c, c&1, c>>1, what)
	})
	switch {
	case u.Op == provenance.Create && classBits > 0:
		read("class id", func() string {
			return fmt.Sprintf("%d = %s, in %d bits: max_classes %d → floor(log2 %d) + 1", r.Bits(classBits), u.Class, classBits, maxClasses, maxClasses)
		})
		read("serial", func() string { return fmt.Sprintf("%d, in 17 bits", r.Bits(17)) })
		read("spawn group", func() string { return fmt.Sprintf("%d, a varint", r.VarUint32()) })
	case u.Op == provenance.Update && r.Pos()-u.Start < u.HeaderBits:
		read("PVS bits", func() string {
			b := r.Bits(2)
			if b&1 != 0 {
				return fmt.Sprintf("%02b: the update carries no fields", b)
			}
			return fmt.Sprintf("%02b: fields follow", b)
		})
	}
	var l []views.InspectorLine
	for _, h := range reads {
		l = append(l, h.line())
	}
	if r.Pos()-u.Start != u.HeaderBits || r.Overflowed() {
		l = append(l, views.InspectorLine{Label: "note", Text: fmt.Sprintf("the decode read %s of header here", bitio.Size(u.HeaderBits)), Style: views.LineWarn})
	}
	return views.InspectorSection{Title: "Header, bit by bit", Lines: l}
}

// ExplainDeletions re-reads the deletion list that ends a delta message:
// a ubitvar count, then each index as a ubitvar delta from the one before
// (from −1).
func ExplainDeletions(data []byte, rec *provenance.Message) (views.InspectorSection, bool) {
	if rec.DeletionBits == 0 {
		return views.InspectorSection{}, false
	}
	r := bitio.NewReader(data)
	r.Seek(rec.DeletionStart)
	var l []views.InspectorLine
	at := r.Pos()
	n := r.UBitVar()
	l = append(l, headerRead{at, r.Pos() - at, "count", fmt.Sprintf("%d, a ubitvar", n)}.line())
	prev := int32(-1)
	for i := uint32(0); i < n && i < 64 && !r.Overflowed(); i++ {
		at := r.Pos()
		d := r.UBitVar()
		idx := prev + int32(d)
		l = append(l, headerRead{at, r.Pos() - at, "delete", fmt.Sprintf("delta %d: %d + %d = entity #%d", d, prev, d, idx)}.line())
		prev = idx
	}
	if n > 64 {
		l = append(l, views.InspectorLine{Text: fmt.Sprintf("… %d more", n-64), Style: views.LineDim})
	}
	return views.InspectorSection{Title: "Deletion list", Lines: l}, true
}

// tableSections lists the entries a selected svc_CreateStringTable or
// svc_UpdateStringTable wrote (an instance baseline's key is a class id:
// its class is named).
func (m *Model) tableSections() []views.InspectorSection {
	msg := m.ix.Msg(m.sel.Cmd, m.sel.Msg)
	if msg == nil || (msg.Name != "svc_CreateStringTable" && msg.Name != "svc_UpdateStringTable") {
		return nil
	}
	key := [2]int{m.sel.Cmd + 1, m.sel.Msg}
	if m.cache.tableKey == key {
		return m.cache.table
	}
	m.cache.tableKey = key
	ch, err := session.StringTableChange(m.data, m.ix, m.ix.Cmd(m.sel.Cmd), m.sel.Msg)
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
	return m.cache.table
}

// ExplainBaseline lists what a create started from: each field its class's
// instance baseline sets, with its bit offset and length inside the
// baseline, before the create's own fields are applied over it.
func ExplainBaseline(b session.Baseline, class string) views.InspectorSection {
	l := []views.InspectorLine{{Text: fmt.Sprintf("the instancebaseline entry of %s: %s of entity fields without an update header; the create's fields are applied over these", class, bitio.Size(uint(len(b.Data))*8)), Style: views.LineDim}}
	const maxShown = 60
	for i, f := range b.Rec.Fields {
		if i == maxShown {
			l = append(l, views.InspectorLine{Text: fmt.Sprintf("… %d more fields", len(b.Rec.Fields)-maxShown), Style: views.LineDim})
			break
		}
		l = append(l, views.InspectorLine{Label: f.Name, Text: fmt.Sprintf("%s  (%s, %s)", f.Value, bitio.Offset(f.Start), bitio.Size(f.Bits))})
	}
	if b.Err != nil {
		l = append(l, views.InspectorLine{Label: "error", Text: b.Err.Error(), Style: views.LineError})
	}
	return views.InspectorSection{Title: "Baseline", Lines: l}
}
