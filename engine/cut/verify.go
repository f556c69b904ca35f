package cut

import (
	"bytes"
	"fmt"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/stringtable"
	"github.com/dembug/dembug/engine/writer"
)

// checkStart decodes the cut's signon and state packets back and requires
// the string tables and every entity to be the original's before the
// window, values bit for bit.
func (c *cutter) checkStart(f *writer.File) error {
	back, err := replay.Open(f.Bytes())
	if err != nil {
		return fail("the cut's start does not read back: %v", err)
	}
	back.Aliases = c.opt.Aliases
	for i := 0; i < f.Commands(); i++ {
		if _, err := back.Step(); err != nil {
			return fail("the cut's start does not decode back: %v", err)
		}
	}
	if back.Stats.Misaligned > 0 {
		return fail("the cut's full frame misaligns when read back: %v", back.FirstMisaligned)
	}
	if d := diffTables(c.r.Strings.Tables, back.Strings.Tables, c.opt.Drop); d != "" {
		return fail("the cut's string tables differ from the original's before tick %d: %s", c.opt.From, d)
	}
	if n, first := diffEntities(c.r.Entities, back.Entities, c.skipEntity); n > 0 {
		return fail("the cut's full frame does not give the original's entities before tick %d (%d differ): %s", c.opt.From, n, first)
	}
	return nil
}

// checkEnd decodes the whole cut and compares its entities at the end with
// the original's at the window's end. A difference is state from before
// the window that the full frame could not express: it is named in a note.
func (c *cutter) checkEnd() error {
	back, err := replay.Open(c.res.Data)
	if err != nil {
		return fail("the cut does not read back: %v", err)
	}
	back.Aliases = c.opt.Aliases
	err = back.Run(nil)
	if c.res.Ended == nil && c.res.Stopped == nil {
		if err != nil {
			return fail("the cut does not decode: %v", err)
		}
		if back.FirstMisaligned != nil {
			return fail("the cut misaligns where the original does not: %v", back.FirstMisaligned)
		}
	}
	if n, first := diffEntities(c.r.Entities, back.Entities, c.skipEntity); n > 0 {
		differ := fmt.Sprintf("%d entities differ", n)
		if n == 1 {
			differ = "1 entity differs"
		}
		c.res.Notes = append(c.res.Notes, fmt.Sprintf(
			"state from before tick %d that a full frame cannot express: at the window's end (tick %d) %s from the original's; the first: %s",
			c.opt.From, c.res.Last, differ, first))
	}
	return nil
}

// diffTables compares string tables entry by entry; "" when equal.
func diffTables(want, got []*stringtable.Table, d *Drop) string {
	if len(want) != len(got) {
		return fmt.Sprintf("%d tables, the original %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if (w == nil) != (g == nil) || w == nil {
			if (w == nil) != (g == nil) {
				return fmt.Sprintf("table %d present in one only", i)
			}
			continue
		}
		if w.Name != g.Name || w.Len()-d.dropped(i) != g.Len() {
			return fmt.Sprintf("table %d: %s with %d entries, the original %s with %d", i, g.Name, g.Len(), w.Name, w.Len())
		}
		diff := ""
		w.Each(func(e stringtable.Entry) {
			if diff != "" || d.entry(i, e.Index) {
				return
			}
			o, ok := g.Get(e.Index)
			if !ok || o.Key != e.Key || (o.Value == nil) != (e.Value == nil) || !bytes.Equal(o.Value, e.Value) {
				diff = fmt.Sprintf("%s entry %d (%q)", w.Name, e.Index, e.Key)
			}
		})
		if diff != "" {
			return diff
		}
	}
	return ""
}

// diffEntities counts the entities that differ between two tables (class,
// serial, view, or any value entity.Walk shows, floats by bits) and
// describes the first.
func diffEntities(want, got *entity.Table, skip func(i int) bool) (n int, first string) {
	note := func(s string) {
		n++
		if first == "" {
			first = s
		}
	}
	var wv, gv []named
	for i := range want.Entities {
		if skip(i) {
			continue // left out or reduced on purpose (Options.Drop)
		}
		w, g := live(want.Entities[i]), live(got.Entities[i])
		switch {
		case w == nil && g == nil:
			continue
		case w == nil:
			note(fmt.Sprintf("entity %d (%s) is in the cut only", i, g.Class.Name))
			continue
		case g == nil:
			note(fmt.Sprintf("entity %d (%s) is missing from the cut", i, w.Class.Name))
			continue
		case w.Class.Name != g.Class.Name || w.Serial != g.Serial || w.Active != g.Active:
			note(fmt.Sprintf("entity %d is %s serial %d in view %v in the cut, %s serial %d in view %v in the original",
				i, g.Class.Name, g.Serial, g.Active, w.Class.Name, w.Serial, w.Active))
			continue
		}
		wv, gv = values(w, wv[:0]), values(g, gv[:0])
		if d := diffValues(wv, gv); d != "" {
			note(fmt.Sprintf("entity %d (%s) %s", i, w.Class.Name, d))
		}
	}
	return n, first
}

func live(e *entity.Entity) *entity.Entity {
	if e == nil || e.Class == nil {
		return nil
	}
	return e
}

type named struct {
	name string
	v    decoder.Value
}

func values(e *entity.Entity, out []named) []named {
	entity.Walk(e.Class.Serializer, e.State, func(name string, _ *schema.Field, v decoder.Value) {
		out = append(out, named{name, v})
	})
	return out
}

func diffValues(want, got []named) string {
	for i := 0; i < min(len(want), len(got)); i++ {
		w, g := want[i], got[i]
		if w.name != g.name {
			return fmt.Sprintf("has %s where the original has %s", g.name, w.name)
		}
		if !w.v.Equal(g.v) {
			return fmt.Sprintf("%s is %s in the cut, %s in the original", w.name, g.v.AppendJSON(nil), w.v.AppendJSON(nil))
		}
	}
	switch {
	case len(got) > len(want):
		return fmt.Sprintf("has %s, which the original has not", got[len(want)].name)
	case len(want) > len(got):
		return fmt.Sprintf("lacks %s", want[len(got)].name)
	}
	return ""
}
