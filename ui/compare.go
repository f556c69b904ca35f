package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/compare"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// comparison is a parser's trace set beside our decode (--compare): the
// debugger opens at the first difference, and its field shows theirs beside
// ours in the inspector and their bit range in the bitstream.
type comparison struct {
	res    *compare.Result
	diffs  []compare.Difference // every difference (res.All), or the first
	cur    int                  // the one shown
	ref    session.Ref          // its place, once found
	placed bool
}

// diff is the difference shown.
func (c *comparison) diff() *compare.Difference { return &c.diffs[c.cur] }

func newComparison(res *compare.Result) *comparison {
	if res == nil || res.First == nil {
		return nil
	}
	c := &comparison{res: res, diffs: res.All, ref: session.None}
	if len(c.diffs) == 0 {
		c.diffs = []compare.Difference{*res.First}
	}
	return c
}

// stepDifference shows the next (dir 1) or previous (-1) difference.
func (m *Model) stepDifference(dir int) tea.Cmd {
	c := m.cmp
	switch {
	case c == nil:
		m.setNote("no comparison: open a replay with --compare THEIRS.jsonl", true)
		return nil
	case !c.placed:
		m.setNote("compare: the index has not reached the first difference yet", false)
		return nil
	}
	next := c.cur + dir
	if next < 0 || next >= len(c.diffs) {
		m.setNote(fmt.Sprintf("compare: no %s difference (%d of %d)", map[bool]string{true: "later", false: "earlier"}[dir > 0], c.cur+1, len(c.diffs)), false)
		return nil
	}
	ref, st := m.locate(&c.diffs[next])
	if st != locFound {
		m.setNote("compare: that difference is not in the index yet", false)
		return nil
	}
	c.cur, c.ref = next, ref
	d := c.diff()
	m.setNote(fmt.Sprintf("compare: difference %d of %d at tick %d, entity %d %s: %s", c.cur+1, len(c.diffs), d.Tick, d.Entity, d.Field, d.What), false)
	return m.reveal(ref)
}

// placeComparison selects the first difference once the index pass has
// reached it.
func (m *Model) placeComparison() tea.Cmd {
	c := m.cmp
	if c == nil || c.placed {
		return nil
	}
	ref, st := m.locate(c.diff())
	if st == locWait {
		return nil
	}
	c.placed = true
	// Why nearly every read parts, when it is the ticks, says more than
	// where the first difference is.
	hint := c.res.TickHint()
	var cmd tea.Cmd
	switch {
	case st == locAbsent && hint == "":
		m.setNote("compare: the first difference is at no update of this decode", true)
	case st == locFound:
		c.ref = ref
		if d := c.diff(); hint == "" {
			m.setNote(fmt.Sprintf("compare: first difference at tick %d, entity %d %s: %s (%d in all; c next)",
				d.Tick, d.Entity, d.Field, d.What, c.total()), false)
		}
		cmd = m.reveal(ref)
	}
	if hint != "" {
		m.setNote("compare: "+hint, true)
	}
	return cmd
}

func (c *comparison) total() int {
	n := 0
	for _, k := range c.res.Counts {
		n += k
	}
	return n
}

type locState int

const (
	locFound  locState = iota
	locWait            // the index pass has not reached it yet
	locAbsent          // the decode has no such place
)

// locate finds the update (and field) of a difference: ours where we made
// the read, else the first update of the entity at their tick.
func (m *Model) locate(d *compare.Difference) (session.Ref, locState) {
	if o := d.Ours; o != nil {
		// A command is whole in the index once a later one is there.
		if !m.ix.Done && int(o.Command) >= len(m.ix.Commands)-1 {
			return session.None, locWait
		}
		if at := session.EntitiesRef(int(o.Command), int(o.Message)); m.ix.Update(at.Cmd, at.Msg, o.Update) != nil {
			return session.Ref{Cmd: at.Cmd, Msg: at.Msg, Upd: o.Update, Field: o.Field}, locFound
		}
		return session.None, locAbsent
	}
	if i := m.ix.CommandAtTick(int32(d.Tick)); i >= 0 {
		for ; i < len(m.ix.Commands) && int64(m.ix.Commands[i].Tick) == d.Tick; i++ {
			for j, msg := range m.ix.Commands[i].Msgs() {
				if msg.PE == nil {
					continue
				}
				for k := range msg.PE.Updates {
					if int32(msg.PE.Updates[k].Entity) == d.Entity {
						return session.Ref{Cmd: i, Msg: j, Upd: k, Field: -1}, locFound
					}
				}
			}
		}
	}
	if !m.ix.Done && (len(m.ix.Commands) == 0 || int64(m.ix.Commands[len(m.ix.Commands)-1].Tick) <= d.Tick) {
		return session.None, locWait
	}
	return session.None, locAbsent
}

// atDifference reports whether the selection shows the difference: its
// field, or its update when the read has no field of the message (a
// baseline read, or one only theirs made).
func (m *Model) atDifference() bool {
	c := m.cmp
	if c == nil || !c.placed || c.ref == session.None {
		return false
	}
	s := m.sel
	if s.Cmd != c.ref.Cmd || s.Msg != c.ref.Msg || s.Upd != c.ref.Upd {
		return false
	}
	return c.ref.Field < 0 || s.Field == c.ref.Field
}

// compareSection is the inspector's section for the difference.
func (m *Model) compareSection() views.InspectorSection {
	c := m.cmp
	d := c.diff()
	o, t := d.Ours, d.Theirs
	ob, tb := d.ReadBits(64)
	in := views.CompareInput{
		Title: c.title(), What: string(d.What), Sentence: d.Sentence(),
		Where:  fmt.Sprintf("tick %d, entity %d %s, %s", d.Tick, d.Entity, d.Class, d.Field),
		Theirs: "their trace",
		Summary: fmt.Sprintf("%d reads compared, %d equal; %d differences (%d missing from theirs, %d extra)",
			c.res.Compared, c.res.Equal, c.total(), c.res.Missing, c.res.Extra),
	}
	if h := c.res.TickHint(); h != "" {
		in.Summary += ". " + strings.ToUpper(h[:1]) + h[1:]
	}
	if t != nil {
		in.Theirs = fmt.Sprintf("line %d of their trace", t.Line)
	}
	pick := func(r *compare.Read, f func(r *compare.Read) string) string {
		if r == nil {
			return "—"
		}
		return f(r)
	}
	row := func(label string, f func(r *compare.Read) string, differs bool) {
		in.Rows = append(in.Rows, views.CompareRow{Label: label, Theirs: pick(t, f), Ours: pick(o, f), Differs: differs})
	}
	row("decoder", func(r *compare.Read) string { return notGiven(r.Decoder) }, false)
	row("bit offset", func(r *compare.Read) string {
		return given(r.Offset, func(v int64) string { return views.Offset(uint(v)) })
	}, d.What == compare.Offset)
	row("bits", func(r *compare.Read) string { return given(r.Bits, func(v int64) string { return fmt.Sprint(v) }) }, d.What == compare.Bits)
	row("value", func(r *compare.Read) string { return string(r.Value) }, d.What == compare.Value)
	in.Rows = append(in.Rows, views.CompareRow{Label: "read", Theirs: orDash(tb), Ours: orDash(ob), Bits: true})
	if o != nil && o.Why != "" {
		in.Why = o.Decoder + ": " + o.Why
	}
	return views.CompareSection(in)
}

// given formats v, or says a trace left it out (a negative number).
func given(v int64, f func(int64) string) string {
	if v < 0 {
		return "(not given)"
	}
	return f(v)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// theirsSpan is their bit range when the selection shows the difference's
// field and their trace gives it.
func (m *Model) theirsSpan() *views.Span {
	if !m.atDifference() || m.cmp.ref.Field < 0 || m.wiHere() != nil {
		return nil
	}
	t := m.cmp.diff().Theirs
	if t == nil || t.Offset < 0 || t.Bits < 0 || t.Baseline {
		return nil
	}
	s := views.BitSpan(uint(t.Offset), uint(t.Bits), views.SpanValue, -1)
	return &s
}

func notGiven(s string) string {
	if s == "" {
		return "(not given)"
	}
	return s
}

func (c *comparison) title() string {
	if c.cur == 0 {
		return "Compare · first difference"
	}
	return fmt.Sprintf("Compare · difference %d of %d", c.cur+1, len(c.diffs))
}
