package ui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
)

// promoteResult is how many values the promotion changed, counted off the
// loop, with the promotion's line (command and note) it completes.
type promoteResult struct {
	line           string
	changed, total int
	err            error
}

// preferredAs are the known types tried first when a decoder is spelt as
// an alias: plain names read best on a command line.
var preferredAs = []string{"float32", "int32", "uint32", "int64", "uint64", "bool", "int16", "uint16", "int8", "uint8",
	"Vector", "QAngle", "CUtlString", "CHandle", "GameTime_t"}

// promoteWhatIf (P) turns the what-if's decoder, for every field of the
// field's type, into an --as alias, decodes the whole file again under it,
// and counts the values the two readings differ in.
func (m *Model) promoteWhatIf() tea.Cmd {
	wi, d := m.wiHere(), m.cur()
	if wi == nil || d == nil {
		m.setNote("no what-if here: d on a field starts one, then P decodes the whole file that way", true)
		return nil
	}
	if wi.Change.Decoder == nil {
		m.setNote("a bit edit cannot become an --as: only a what-if with another decoder can", true)
		return nil
	}
	f := m.promoteField(wi, d)
	s := m.schema
	if f == nil || f.Schema == nil || s == nil {
		m.setNote("the what-if's field has no schema entry to alias", true)
		return nil
	}
	typ := session.BaseType(f)
	as, ok := aliasFor(f.Schema, typ, wi.Change.Decoder.Label(), m.file.Aliases(), s)
	if !ok {
		m.setNote(fmt.Sprintf("no --as %s=KNOWN reads %s as %s: the what-if stays in this message", typ, f.Name, wi.Change.Decoder.Label()), true)
		return nil
	}
	old := m.file.Aliases()
	aliases := old.With(schema.KindType, typ, as)
	flags := aliases.Flags()
	slices.Sort(flags)
	line := fmt.Sprintf("dembug %s %s", filepath.Base(m.path), strings.Join(flags, " "))
	widened := ""
	if wi.Change.Type == "" {
		widened = fmt.Sprintf(" (an --as applies to every %s field, not only this one)", typ)
	}
	m.reopen(m.file.WithAliases(aliases))
	line += widened
	m.promoted = line + " · counting the values that change…"
	m.setNote("promoted: "+m.promoted, false)
	file := m.file
	ctx := m.jobs.context(jobFile) // done when the file is reopened again: a later P stops this count
	count := m.run(jobFile, func() any {
		c, n, err := file.ValueChanges(ctx, old, aliases)
		return promoteResult{line: line, changed: c, total: n, err: err}
	})
	return tea.Batch(m.indexCmd(), count)
}

// onPromote reports the count of changed values.
func (m *Model) onPromote(msg promoteResult) {
	m.promoted = fmt.Sprintf("%s · %d of %d values change", msg.line, msg.changed, msg.total)
	if msg.err != nil {
		m.promoted += " (the decode stopped: " + msg.err.Error() + ")"
	}
	m.setNote("promoted: "+m.promoted, false)
}

// promoteField is the field the what-if changes: its one read, or the
// selected field when it changes a schema field or a type.
func (m *Model) promoteField(wi *whatIf, d *session.Detail) *provenance.Field {
	if o := wi.Change.Occurrence; o >= 0 && o < len(d.Rec.Fields) {
		return &d.Rec.Fields[o]
	}
	for i := range d.Rec.Fields {
		f := &d.Rec.Fields[i]
		if (wi.Change.Field != nil && f.Schema == wi.Change.Field) || (wi.Change.Type != "" && session.BaseType(f) == wi.Change.Type) {
			return f
		}
	}
	fs := m.curFields()
	if m.sel.Field >= 0 && m.sel.Field < len(fs) {
		return &fs[m.sel.Field]
	}
	return nil
}

// aliasFor is the known type that, aliased from typ, gives the field the
// decoder labelled label, trying the plain names first.
func aliasFor(sf *schema.Field, typ, label string, a schema.Aliases, s *schema.Schema) (string, bool) {
	known := schema.KnownTypes(s.Game)
	try := append([]string(nil), preferredAs...)
	for _, k := range known {
		if !slices.Contains(try, k) {
			try = append(try, k)
		}
	}
	for _, k := range try {
		if !slices.Contains(known, k) || k == typ {
			continue
		}
		u := schema.Under([]*schema.Field{sf}, a.With(schema.KindType, typ, k), s.Game)[0]
		dec := u.Decoder
		if u.Model == schema.VariableArray {
			dec = u.Elem
		}
		if dec != nil && dec.Label() == label {
			return k, true
		}
	}
	return "", false
}
