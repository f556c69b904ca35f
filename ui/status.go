package ui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// locationShort is location in fewer cells, for a status line that cannot
// hold the whole breadcrumb beside its keys: the message's name goes (the
// timeline shows it) and counts are spelt n/of.
func (m *Model) locationShort() string {
	s := m.sel
	c := m.ix.Cmd(s.Cmd)
	if s.IsEnd() || c == nil {
		return m.location()
	}
	parts := []string{tickWord(c.Tick), fmt.Sprintf("#%d", c.Index)}
	if msg := m.ix.Msg(s.Cmd, s.Msg); msg != nil && msg.PE != nil && s.Upd >= 0 {
		parts = append(parts, fmt.Sprintf("upd %d/%d", s.Upd, len(msg.PE.Updates)))
		if u := m.ix.Update(s.Cmd, s.Msg, s.Upd); u != nil && s.Field >= 0 {
			parts = append(parts, fmt.Sprintf("field %d/%d", s.Field, u.Fields()))
		}
	} else if msg != nil {
		parts = append(parts, msg.Name)
	}
	if wi := m.wiHere(); wi != nil {
		parts = append(parts, "what-if")
	}
	return strings.Join(parts, " › ")
}

// tickWord is where a command stands in time: "tick N", or "signon"
// before the first tick.
func tickWord(tick int32) string {
	if tick < 0 {
		return "signon"
	}
	return fmt.Sprintf("tick %d", tick)
}

// aliasesTitle names the aliases in force (--as, or applied with I) and
// the seed's reading (--decoders seed) for a title: " · --as A=B --as
// C=D", or "" without any.
func (m *Model) aliasesTitle() string {
	a := m.file.Aliases()
	if a.Empty() && !a.Seed {
		return ""
	}
	fl := a.Flags()
	sort.Strings(fl)
	if a.Seed {
		fl = append([]string{"--decoders seed"}, fl...)
	}
	return " · " + strings.Join(fl, " ")
}

// aliasesStatus is the status line's word on the aliases in force: their
// flags on a wide terminal, how many on a narrow one; and the seed's
// reading when it is the one decoding.
func (m *Model) aliasesStatus(wide bool) string {
	a := m.file.Aliases()
	if a.Empty() && !a.Seed {
		return ""
	}
	if fl := m.aliasesTitle(); (wide && len(fl) < 60) || len(fl) < 32 {
		return strings.TrimPrefix(fl, " · ") + " · "
	}
	seed := ""
	if a.Seed {
		seed = "seed reading · "
	}
	return seed + fmt.Sprintf("--as ×%d · ", len(a.Types)+len(a.Encoders))
}

// noMatchNote is what a search or filter that found no update says: that
// nothing in the file has the name; that the classes of the file's
// entities hold it but no update writes it (its value is the instance
// baseline's, or the default); or that only classes the file has no
// entity of declare it.
func (m *Model) noMatchNote(q string, mt *session.Matcher, nothing string) string {
	d, holding := session.SchemaMatch(m.schema, mt, m.ix.Classes)
	switch {
	case d.Field == "":
		return nothing
	case holding == 0 && d.Serializers == 1:
		return fmt.Sprintf("%s: declared by %s, but no entity of this file has it", d.Field, d.Serializer)
	case holding == 0:
		return fmt.Sprintf("%s: declared by %s and %d more serializers, but no entity of this file has it", d.Field, d.Serializer, d.Serializers-1)
	}
	verb := "hold"
	if holding == 1 {
		verb = "holds"
	}
	return fmt.Sprintf("%s: only baselines set it, no update writes it (%s of this file %s it; H on a create shows the baseline)", d.Field, views.Count(holding, "class|classes"), verb)
}
