package ui

import (
	"fmt"
	"sort"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/views"
)

// wireFieldSection explains the wire tree's selected field in full: the
// fields pane cuts a long value (a game directory with the game and build
// read from it, max_classes with the class-id width) to its column.
func (m *Model) wireFieldSection() (views.InspectorSection, bool) {
	if _, ok := m.wireShown(); !ok || m.wireSel < 0 || m.wireSel >= len(m.cache.wire) {
		return views.InspectorSection{}, false
	}
	l := m.cache.wire[m.wireSel]
	name := l.Name
	if name == "" {
		name = "(not modelled)"
	}
	return views.InspectorSection{Title: "Wire field", Lines: []views.InspectorLine{
		{Label: "field", Text: fmt.Sprintf("#%d %s, wire type %s", l.Field, name, l.Type)},
		{Label: "at", Text: fmt.Sprintf("body byte %d (0x%x), %s with its tag", l.Offset, l.Offset, views.Count(l.Len, "byte"))},
		{Label: "value", Text: l.Value},
	}}, true
}

// fileHeaderSection explains the 16 bytes before command #0: the magic
// and the two offsets, with the commands they point at.
func (m *Model) fileHeaderSection() views.InspectorSection {
	const title = "File header · its first 16 bytes"
	var lines []views.InspectorLine
	magic, h, ok := container.ReadHeader(m.file.Bytes())
	if !ok {
		return views.InspectorSection{Title: title, Lines: lines}
	}
	lines = append(lines, views.InspectorLine{Label: "magic", Text: fmt.Sprintf("%q (0x0, 8 bytes)", magic)})
	at := func(label string, off int32, pos int) {
		text := fmt.Sprintf("byte %d (int32 at 0x%x)", off, pos)
		if off == 0 {
			text += ": none"
		} else if i := m.cmdAt(int(off)); i >= 0 {
			text += fmt.Sprintf(": command #%d %s", i, m.ix.Commands[i].Kind)
		} else {
			text += ": no command starts there"
		}
		lines = append(lines, views.InspectorLine{Label: label, Text: text})
	}
	at("file info", h.FileInfoOffset, container.FileInfoAt)
	at("spawn groups", h.SpawnGroupsOffset, container.SpawnGroupsAt)
	return views.InspectorSection{Title: title, Lines: lines}
}

// cmdAt returns the index of the command starting at byte off, or -1.
func (m *Model) cmdAt(off int) int {
	cs := m.ix.Commands
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Offset >= off })
	if i < len(cs) && cs[i].Offset == off {
		return i
	}
	return -1
}

// schemaLine counts the serializers and distinct fields of the file's
// schema, for DEM_SendTables (nothing until the index pass has read it).
func (m *Model) schemaLine() (views.InspectorLine, bool) {
	s := m.schema
	if s == nil {
		return views.InspectorLine{}, false
	}
	return views.InspectorLine{Label: "schema", Text: fmt.Sprintf("%s, %s (a field nested in many classes counts once)",
		views.Count(len(s.Serializers), "serializer"), views.Count(len(s.AllFields()), "distinct field"))}, true
}
