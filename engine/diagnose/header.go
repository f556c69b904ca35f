package diagnose

import (
	"errors"
	"fmt"
	mbits "math/bits"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/provenance"
)

// The entity data's update headers rest on assumptions a game update can
// break without touching a field: the two PVS bits of an update (the
// message's has_pvs_vis_bits), the class id's width (from svc_ServerInfo's
// max_classes), a deletion list at the end of a delta message (Dota's, not
// CS2's or Deadlock's), and the message's delta flag (a full frame creates
// before it updates). When a message breaks in a header, Assumptions says
// which assumption the bits contradict and decodes the message again under
// each alternative, the way the field search tries decoders.

// Assumption is one header assumption checked against a misaligned
// message.
type Assumption struct {
	// Broken names the assumption the bits contradict, in words ("a full
	// frame updates entity 12 before creating it"); empty when the message
	// broke in a field, not a header.
	Broken string
	// Tried are the alternatives decoded, each with whether the message
	// then aligns.
	Tried []Alternative
}

// Alternative is one other header assumption and what it gives.
type Alternative struct {
	Name    string // "no PVS bits", "class ids 9 bits wide", …
	Aligned bool
	Updates int    // updates decoded under it
	Err     string // where it breaks, when it does
}

// Aligning are the alternatives under which the message aligns.
func (a *Assumption) Aligning() []string {
	var out []string
	for _, t := range a.Tried {
		if t.Aligned {
			out = append(out, t.Name)
		}
	}
	return out
}

// HeaderBreak says which header assumption a message's failure
// contradicts, or "" when it broke in a field's value or path.
func HeaderBreak(c *Case) string {
	err := c.Record.Err
	if err == nil {
		return ""
	}
	msg := err.Error()
	ee := &entity.Error{Update: -1, Entity: -1}
	if errors.As(err, &ee) {
		msg = ee.Err.Error()
	}
	t := c.Before
	var he *entity.HeaderError
	if errors.As(err, &he) {
		switch he.Fault {
		case entity.NoSuchEntity:
			if !c.Msg.IsDelta {
				return fmt.Sprintf("a full frame creates every entity before updating it, but update %d updates entity %d, which no create made (%s)", ee.Update, ee.Entity, msg)
			}
			return fmt.Sprintf("an update names an entity that exists, but update %d updates entity %d, which does not (%s)", ee.Update, ee.Entity, msg)
		case entity.UnknownClass:
			return fmt.Sprintf("class ids are %d bits wide (from max_classes), but update %d creates with a class id no class has (%s)", t.ClassIDBits, ee.Update, msg)
		case entity.BadDeletions:
			return "a delta message ends with a deletion list, but " + msg
		case entity.BadHeader:
			return fmt.Sprintf("update %d's header reads an index delta and command bits that make sense, but %s", ee.Update, msg)
		}
	}
	// Bits left over, or read past the end, after the last update: the
	// deletion list (or its absence) is the header-level suspect.
	if c.Record.Problem == provenance.Unread || c.Record.Problem == provenance.OverRead {
		if c.Msg.IsDelta {
			if entity.HasDeletionList(t.Game) {
				return "a delta message ends with a deletion list, but the message does not end after it: " + msg
			}
			return "a delta message ends with its last update (no deletion list), but " + msg
		}
	}
	return ""
}

// Assumptions checks a misaligned message's header assumptions: what the
// bits contradict, and which alternatives make it align. It is nil when
// the message broke in a field (the field search's case) and no
// alternative aligns it either.
func Assumptions(c *Case) *Assumption {
	a := &Assumption{Broken: HeaderBreak(c)}
	pvs := c.Msg.HasPVSVisBits > 0
	try := func(name string, edit func(t *entity.Table, pvs *int32, delta *bool)) {
		t := c.Before.Snapshot()
		m := c.Msg
		edit(t, &m.HasPVSVisBits, &m.IsDelta)
		res := t.Apply(&m, nil)
		alt := Alternative{Name: name, Aligned: !res.Misaligned && res.Err == nil && !res.Skipped, Updates: res.Updates}
		if res.Err != nil {
			alt.Err = res.Err.Error()
		}
		a.Tried = append(a.Tried, alt)
	}
	if pvs {
		try("no PVS bits in update headers (has_pvs_vis_bits asks for two)", func(_ *entity.Table, p *int32, _ *bool) { *p = 0 })
	} else {
		try("two PVS bits in each update header (has_pvs_vis_bits is absent)", func(_ *entity.Table, p *int32, _ *bool) { *p = 1 })
	}
	bits := c.Before.ClassIDBits
	try(fmt.Sprintf("class ids %d bits wide, one more", bits+1), func(t *entity.Table, _ *int32, _ *bool) { t.ClassIDBits = bits + 1 })
	if bits > 1 {
		try(fmt.Sprintf("class ids %d bits wide, one fewer", bits-1), func(t *entity.Table, _ *int32, _ *bool) { t.ClassIDBits = bits - 1 })
	}
	// The width the classes DEM_ClassInfo lists need, where max_classes
	// gives another.
	if n := len(c.Before.Classes); n > 0 {
		if w := uint(mbits.Len32(uint32(n))); w+1 < bits || w > bits+1 {
			try(fmt.Sprintf("class ids %d bits wide, as the %d classes of DEM_ClassInfo need", w, n), func(t *entity.Table, _ *int32, _ *bool) { t.ClassIDBits = w })
		}
	}
	if c.Msg.IsDelta {
		if entity.HasDeletionList(c.Before.Game) {
			try("no deletion list after the updates", func(t *entity.Table, _ *int32, _ *bool) { t.Game = game.CS2 })
		} else {
			try("a deletion list after the updates", func(t *entity.Table, _ *int32, _ *bool) { t.Game = game.Dota2 })
		}
	}
	try(fmt.Sprintf("the message is a %s, not a %s", frameKind(!c.Msg.IsDelta), frameKind(c.Msg.IsDelta)),
		func(_ *entity.Table, _ *int32, d *bool) { *d = !*d })
	if a.Broken == "" && len(a.Aligning()) == 0 {
		return nil
	}
	return a
}

func frameKind(delta bool) string {
	if delta {
		return "delta"
	}
	return "full frame"
}
