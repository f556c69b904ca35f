package cut

import (
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/stringtable"
	"github.com/dembug/dembug/engine/writer"
)

// Drop names what a cut leaves out of what it would write: the candidates
// of dembug shrink. A cut with a Drop (even an empty one) also describes
// what it could leave out (Result.Elements).
type Drop struct {
	// Commands are window commands by their place in the window (0 is its
	// first command).
	Commands map[int]bool
	// Messages are inner messages of the window's packets.
	Messages map[MessageRef]bool
	// Entities are entities the full frame does not create.
	Entities map[int32]bool
	// Fields are fields of a full-frame create left at the class
	// baseline's value.
	Fields map[FieldRef]bool
	// Entries are string-table entries left out of the tables as they
	// stand when the window starts.
	Entries map[EntryRef]bool
}

// EntryRef is the entry at Index of string table Table (its id).
type EntryRef struct {
	Table int
	Index int32
}

// MessageRef is inner message Message (its place in the packet) of window
// command Command.
type MessageRef struct{ Command, Message int }

// FieldRef is the Field-th value (in field-path order) that entity
// Entity's create writes over its class baseline.
type FieldRef struct {
	Entity int32
	Field  int
}

// Elements are what a cut could leave out.
type Elements struct {
	Window []WindowCommand // every command of the window, dropped or not
	Frame  []FrameEntity   // every entity the full frame would create
	// Entries are every entry of the string tables as they stand, Keys
	// their keys, and Tables the tables' names by id.
	Entries []EntryRef
	Keys    []string
	Tables  []string
	// Touches are the window's entity messages that update, leave or
	// delete an entity of the full frame (one the window had not created
	// first): while such a message is kept, a cut without the entity
	// does not decode.
	Touches []Touch
}

// Touch is message Message of the window touching entity Entity.
type Touch struct {
	Entity  int32
	Message MessageRef
}

// WindowCommand is one command of the window: its kind, tick, size and,
// for a packet, its inner messages' types.
type WindowCommand struct {
	Kind     container.Kind
	Tick     int32
	Bytes    int
	Messages []uint32
}

// FrameEntity is one entity of the full frame: its index, class and
// Fields, the values its create writes over the class baseline.
type FrameEntity struct {
	Index   int32
	Class   string
	ClassID int32
	Fields  int
}

func (d *Drop) command(i int) bool { return d != nil && d.Commands[i] }

func (d *Drop) entity(i int32) bool { return d != nil && d.Entities[i] }

// reduced says the cut does not hold entity i as the original has it.
func (d *Drop) reduced(i int32) bool {
	if d == nil {
		return false
	}
	if d.Entities[i] {
		return true
	}
	for f := range d.Fields {
		if f.Entity == i {
			return true
		}
	}
	return false
}

// keepFields leaves out of ch the values of entity index d drops.
func (d *Drop) keepFields(index int32, ch writer.Changes) writer.Changes {
	if d == nil || len(d.Fields) == 0 {
		return ch
	}
	for i, p := range ch.Paths() {
		if d.Fields[FieldRef{index, i}] {
			delete(ch, p)
		}
	}
	return ch
}

// describe records window command i (when the cut describes itself) and
// says whether it is dropped.
func (c *cutter) describe(cmd *container.Command) (dropped bool) {
	i := c.windowIndex
	c.windowIndex++
	d := c.opt.Drop
	if d == nil {
		return false
	}
	wc := WindowCommand{Kind: cmd.Kind, Tick: cmd.Tick, Bytes: cmd.End() - cmd.BodyOffset}
	if inner, ok := packetMessages(cmd); ok {
		for _, m := range inner {
			wc.Messages = append(wc.Messages, m.Type)
		}
	}
	c.elements().Window = append(c.elements().Window, wc)
	return d.command(i)
}

func (c *cutter) elements() *Elements {
	if c.res.Elements == nil {
		c.res.Elements = &Elements{}
	}
	return c.res.Elements
}

// packetMessages are a packet command's inner messages.
func packetMessages(cmd *container.Command) ([]messages.Inner, bool) {
	if cmd.Kind != container.Packet && cmd.Kind != container.SignonPacket {
		return nil, false
	}
	data := cmd.Body
	if !cmd.Broadcast {
		var err error
		if data, err = messages.PacketData(cmd.Body); err != nil {
			return nil, false
		}
	}
	inner, _, err := messages.SplitInner(data, nil, nil)
	if err != nil {
		return nil, false
	}
	return inner, true
}

// keepMessages writes window command i without the messages Drop names;
// false when it drops none of them (the command is written as it is).
func (c *cutter) keepMessages(out *writer.File, cmd *container.Command, i int) bool {
	d := c.opt.Drop
	if d == nil || len(d.Messages) == 0 {
		return false
	}
	inner, ok := packetMessages(cmd)
	if !ok {
		return false
	}
	var kept []writer.Inner
	for j, m := range inner {
		if !d.Messages[MessageRef{i, j}] {
			kept = append(kept, writer.Inner{Type: m.Type, Body: m.Body})
		}
	}
	if len(kept) == len(inner) {
		return false
	}
	body := writer.PacketBody(writer.Packet(kept...))
	if !cmd.Broadcast {
		body = replaceBytes(cmd.Body, 3, writer.Packet(kept...))
	}
	c.command(out, cmd.Kind, cmd.Tick, body)
	return true
}

// frameEntity records entity e of the full frame (when the cut describes
// itself) with the values its create writes.
func (c *cutter) frameEntity(e *entity.Entity, fields int) {
	if c.opt.Drop == nil {
		return
	}
	c.elements().Frame = append(c.elements().Frame, FrameEntity{Index: e.Index, Class: e.Class.Name, ClassID: e.Class.ID, Fields: fields})
}

// skipEntity says whether the comparisons of a cut with drops pass over
// entity i: one it leaves out or holds reduced.
func (c *cutter) skipEntity(i int) bool { return c.opt.Drop.reduced(int32(i)) }

// keepEntries are table ti's entries without those Drop names, in index
// order; recorded when the cut describes itself.
func (c *cutter) keepEntries(ti int, t *stringtable.Table) []stringtable.Entry {
	all := sortedEntries(t)
	if c.opt.Drop == nil {
		return all
	}
	el := c.elements()
	for len(el.Tables) <= ti {
		el.Tables = append(el.Tables, "")
	}
	el.Tables[ti] = t.Name
	for _, e := range all {
		el.Entries = append(el.Entries, EntryRef{ti, e.Index})
		el.Keys = append(el.Keys, e.Key)
	}
	return c.opt.Drop.entries(ti, all)
}

// entries are es without those of table ti d drops.
func (d *Drop) entries(ti int, es []stringtable.Entry) []stringtable.Entry {
	if d == nil || len(d.Entries) == 0 {
		return es
	}
	out := es[:0:0]
	for _, e := range es {
		if !d.Entries[EntryRef{ti, e.Index}] {
			out = append(out, e)
		}
	}
	return out
}

func (d *Drop) entry(ti int, index int32) bool { return d != nil && d.Entries[EntryRef{ti, index}] }

// dropped counts the entries of table ti d drops.
func (d *Drop) dropped(ti int) int {
	if d == nil {
		return 0
	}
	n := 0
	for e := range d.Entries {
		if e.Table == ti {
			n++
		}
	}
	return n
}

// watchWindow has the window's decode record its entity messages, when
// the cut describes itself, to list the entities they touch.
func (c *cutter) watchWindow() {
	if c.opt.Drop == nil {
		return
	}
	created := map[int32]bool{}
	r := c.r
	r.Hooks.Record = func(replay.Location) *provenance.Message { return &provenance.Message{} }
	r.Hooks.Entities = func(loc replay.Location, _ *messages.PacketEntities, _ entity.Result, rec *provenance.Message) {
		if rec == nil {
			return
		}
		ref := MessageRef{Command: c.windowIndex, Message: loc.Message}
		seen := map[int32]bool{}
		for _, u := range rec.Updates {
			if u.Op == provenance.Create {
				created[u.Index] = true
				continue
			}
			if !created[u.Index] && !seen[u.Index] {
				seen[u.Index] = true
				c.elements().Touches = append(c.elements().Touches, Touch{u.Index, ref})
			}
		}
	}
}
