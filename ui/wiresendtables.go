package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// sendTablesTree is DEM_SendTables' wire tree: the schema it carries as
// serializers (collapsed) and, under one enter opens, its fields with
// their symbols resolved. The schema is scanned when the command is
// selected (derive), a serializer's fields read when it is opened: the
// first frame, and a selection of the command, never read every field of
// a 1,600-serializer schema.
type sendTablesTree struct {
	st   *session.SendTables
	open map[int]bool // serializers opened
	// rowSer is the serializer of each row (-1: none), and rowField the
	// field of a field row (-1 for a serializer's row).
	rowSer, rowField []int
}

// sendTablesRows replaces DEM_SendTables' one data row with the schema's
// tree; any other command keeps its rows. Called by deriveWire when the
// selection changes, so the opened serializers start closed.
func (m *Model) sendTablesRows(c *session.Command, msg *session.Message, body []byte, rows []session.WireRow) []session.WireRow {
	m.stTree = nil
	if msg != nil || c.Kind != container.SendTables {
		return rows
	}
	st, err := session.ParseSendTables(body)
	if st == nil || len(st.Serializers) == 0 {
		if err != nil {
			m.cache.wireNote = "schema: " + err.Error()
		}
		return rows
	}
	if err != nil {
		m.cache.wireNote = "schema: " + err.Error()
	}
	m.stTree = &sendTablesTree{st: st, open: map[int]bool{}}
	return m.stTree.rows()
}

// rows lays the tree out: the data field, then each serializer, an opened
// one followed by its fields.
func (t *sendTablesTree) rows() []session.WireRow {
	st := t.st
	t.rowSer, t.rowField = t.rowSer[:0], t.rowField[:0]
	out := []session.WireRow{{Field: 1, Name: "data", Type: "bytes", Offset: st.DataOffset, Len: st.DataLen,
		Value: fmt.Sprintf("a varint size (%d), then CSVCMsg_FlattenedSerializer at body byte %d: %s, %s, %s; enter on a serializer lists its fields",
			st.Size, st.Start, views.Count(len(st.Serializers), "serializer"), views.Count(st.NumFields(), "field"), views.Count(len(st.Symbols), "symbol"))}}
	t.rowSer, t.rowField = append(t.rowSer, -1), append(t.rowField, -1)
	for i, s := range st.Serializers {
		mark := "▸"
		if t.open[i] {
			mark = "▾"
		}
		out = append(out, session.WireRow{Depth: 1, Field: 1, Name: s.Name, Type: "bytes", Offset: s.Offset, Len: s.Len,
			Value: fmt.Sprintf("%s version %d · %s · serializers[%d]", mark, s.Version, views.Count(len(s.Fields), "field"), i)})
		t.rowSer, t.rowField = append(t.rowSer, i), append(t.rowField, -1)
		if !t.open[i] {
			continue
		}
		for k, fi := range s.Fields {
			f, ok := st.Field(fi)
			row := session.WireRow{Depth: 2, Field: 3, Name: f.VarName, Type: "bytes", Offset: f.Offset, Len: f.Len}
			if !ok {
				row.Value = fmt.Sprintf("field %d: no such field (the schema has %d)", fi, st.NumFields())
			} else {
				row.Value = fmt.Sprintf("%s · its field %d, fields[%d]", stFieldText(f), k, fi)
			}
			out = append(out, row)
			t.rowSer, t.rowField = append(t.rowSer, i), append(t.rowField, int(fi))
		}
	}
	return out
}

// stFieldText spells a field with its symbols resolved (its name is the
// row's): type, encoder, bit count, range, flags, the serializer it nests
// and its send node.
func stFieldText(f session.STField) string {
	parts := []string{f.VarType}
	if f.Encoder != "" {
		parts = append(parts, "encoder "+f.Encoder)
	} else {
		parts = append(parts, "no encoder")
	}
	if f.BitCountSet {
		parts = append(parts, views.Count(int(f.BitCount), "bit"))
	}
	if f.LowSet || f.HighSet {
		parts = append(parts, fmt.Sprintf("range %v … %v", f.Low, f.High))
	}
	if f.FlagsSet {
		parts = append(parts, fmt.Sprintf("flags %d = %s", f.EncodeFlags, session.FlagNames(uint32(f.EncodeFlags))))
	}
	if f.FieldSerializer != "" {
		s := "serializer " + f.FieldSerializer
		if f.FieldSerVerSet {
			s += fmt.Sprintf(" version %d", f.FieldSerializerVersion)
		}
		parts = append(parts, s)
	}
	if f.Polymorphic > 0 {
		parts = append(parts, views.Count(f.Polymorphic, "polymorphic type"))
	}
	if f.SendNode != "" {
		parts = append(parts, "send node "+f.SendNode)
	}
	return strings.Join(parts, " · ")
}

// sendTablesOpen opens or closes the selected row's serializer (enter; →
// opens only), keeping the selection on its row.
func (m *Model) sendTablesOpen(l views.WireLine, right bool) (tea.Cmd, bool) {
	t := m.stTree
	if t == nil || m.wireSel >= len(t.rowSer) || t.rowSer[m.wireSel] < 0 {
		return nil, false
	}
	i := t.rowSer[m.wireSel]
	if right && t.open[i] {
		return nil, false // → on an open serializer moves on
	}
	t.open[i] = !t.open[i]
	rows := t.rows()
	m.cache.wire = m.cache.wire[:0]
	for _, r := range rows {
		m.cache.wire = append(m.cache.wire, views.WireLine{Depth: r.Depth, Field: r.Field, Name: r.Name, Type: r.Type, Offset: r.Offset, Len: r.Len, Value: r.Value})
	}
	for k, s := range t.rowSer {
		if s == i && t.rowField[k] < 0 {
			m.wireSel = k
			break
		}
	}
	m.cache.inspKey.drop()
	return nil, true
}
