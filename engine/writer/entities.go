package writer

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
)

// Changes maps field paths to values: the fields one entity update sets.
// Indexes beyond a path's Last must be zero, as in the paths PathOf and
// fieldpath.Read make.
type Changes map[fieldpath.Path]decoder.Value

// Set sets the field named name (see PathOf) to v.
func (c Changes) Set(ser *schema.Serializer, name string, v decoder.Value) error {
	p, err := PathOf(ser, name)
	if err != nil {
		return err
	}
	c[p] = v
	return nil
}

// Clone copies the map.
func (c Changes) Clone() Changes {
	out := make(Changes, len(c))
	for p, v := range c {
		out[p] = v
	}
	return out
}

// Paths returns the paths in field order (lexicographic), the order Valve
// writes them and Write encodes them in.
func (c Changes) Paths() []fieldpath.Path {
	out := make([]fieldpath.Path, 0, len(c))
	for p := range c {
		out = append(out, p)
	}
	slices.SortFunc(out, ComparePaths)
	return out
}

// ComparePaths orders paths lexicographically: [1] < [1 0] < [2].
func ComparePaths(a, b fieldpath.Path) int {
	for i := 0; i <= min(a.Last, b.Last); i++ {
		if c := cmp.Compare(a.Idx[i], b.Idx[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(a.Last, b.Last)
}

// PathOf turns a field name, spelled as the engine spells it
// (entity.FieldName), into its path: "m_iHealth",
// "CBodyComponent.m_cellX" (a field behind a pointer; "CBodyComponent"
// alone is the pointer's presence value), "m_iCaptainPlayerIDs.0001" (an
// array element), "m_vecItems" (a variable array's or table's length),
// "m_vecItems.0002.m_iCount" (a field of a table element). Indexes are
// decimal, zero-padded or not. Behind a polymorphic pointer, a name is
// looked up in the base serializer, then in the alternatives in order.
func PathOf(ser *schema.Serializer, name string) (fieldpath.Path, error) {
	var p fieldpath.Path
	p.Last = -1
	fail := func(format string, args ...any) (fieldpath.Path, error) {
		return fieldpath.Path{}, errorf("field %q: %s", name, fmt.Sprintf(format, args...))
	}
	push := func(v int32) bool {
		if p.Last+1 >= fieldpath.MaxDepth {
			return false
		}
		p.Last++
		p.Idx[p.Last] = v
		return true
	}
	index := func(s string) (int32, bool) {
		n, err := strconv.ParseUint(s, 10, 31)
		return int32(n), err == nil
	}
	if ser == nil {
		return fail("no serializer")
	}
	parts := strings.Split(name, ".")
	sers := []*schema.Serializer{ser}
	for i := 0; i < len(parts); i++ {
		idx, f := -1, (*schema.Field)(nil)
		for _, s := range sers {
			if s == nil {
				continue
			}
			if idx = slices.IndexFunc(s.Fields, func(f *schema.Field) bool { return f.Name == parts[i] }); idx >= 0 {
				f = s.Fields[idx]
				break
			}
		}
		if f == nil {
			return fail("no field %q in %s", parts[i], sers[0].Name)
		}
		if !push(int32(idx)) {
			return fail("deeper than %d levels", fieldpath.MaxDepth)
		}
		rest := len(parts) - i - 1
		switch f.Model {
		case schema.Simple:
			if rest > 0 {
				return fail("%s is a simple field; nothing below it", f.Name)
			}
		case schema.FixedArray, schema.VariableArray:
			if rest == 0 {
				if f.Model == schema.FixedArray {
					return fail("fixed array %s needs an element index", f.Name)
				}
				return p, nil // the length
			}
			k, ok := index(parts[i+1])
			if !ok || rest > 1 {
				return fail("%s needs one element index, got %q", f.Name, strings.Join(parts[i+1:], "."))
			}
			push(k)
			return p, nil
		case schema.FixedTable:
			sers = append([]*schema.Serializer{f.Serializer}, f.Polymorphic...)
		case schema.VariableTable:
			if rest == 0 {
				return p, nil // the length
			}
			k, ok := index(parts[i+1])
			if !ok || rest < 2 {
				return fail("%s needs an element index and a field", f.Name)
			}
			if !push(k) {
				return fail("deeper than %d levels", fieldpath.MaxDepth)
			}
			i++
			sers = []*schema.Serializer{f.Serializer}
		}
	}
	return p, nil
}

// prefix is p cut after level i.
func prefix(p fieldpath.Path, i int) fieldpath.Path {
	var q fieldpath.Path
	copy(q.Idx[:i+1], p.Idx[:i+1])
	q.Last = i
	return q
}

// DecoderAt returns the decoder that reads the value at p in an entity of
// serializer ser, walking the serializer tree as the engine does
// (entity.resolve). state supplies the values of polymorphic pointers met
// on the way (nil: base serializers).
func DecoderAt(ser *schema.Serializer, state Changes, p fieldpath.Path) (*decoder.Decoder, error) {
	if p.Last < 0 || p.Last >= fieldpath.MaxDepth {
		return nil, errorf("path %s: bad length", p)
	}
	for i := 0; ; {
		s, err := schema.StepAt(ser, &p, i, func() decoder.Value { return state[prefix(p, i)] })
		if err != nil {
			return nil, errorf("path %s: %v", p, err)
		}
		f := s.Field
		if s.Elem && (f.Model == schema.VariableArray || f.Model == schema.VariableTable) {
			if k := p.Idx[i+1]; k < 0 || k >= entity.MaxArrayLen {
				return nil, errorf("path %s: element %d of %s exceeds %d", p, k, f.Name, entity.MaxArrayLen)
			}
		}
		if s.Ser != nil {
			ser, i = s.Ser, s.Next
			continue
		}
		if s.Dec == nil {
			return nil, errorf("path %s: field %s has no decoder (%s)", p, f.Name, f.Problem)
		}
		return s.Dec, nil
	}
}

// normalize checks the paths of ch and returns them sorted, with indexes
// beyond Last cleared.
func normalize(ch Changes) ([]fieldpath.Path, []decoder.Value, error) {
	paths := make([]fieldpath.Path, 0, len(ch))
	for p := range ch {
		if p.Last < 0 || p.Last >= fieldpath.MaxDepth {
			return nil, nil, errorf("path with %d indexes", p.Last+1)
		}
		for i := p.Last + 1; i < fieldpath.MaxDepth; i++ {
			if p.Idx[i] != 0 {
				return nil, nil, errorf("path %s has index %d set beyond its length", p, i)
			}
		}
		paths = append(paths, p)
	}
	slices.SortFunc(paths, ComparePaths)
	vals := make([]decoder.Value, len(paths))
	for i, p := range paths {
		vals[i] = ch[p]
	}
	return paths, vals, nil
}

// WriteFields writes one update's fields as the engine reads them: the
// field paths (fieldpath.Write), then each value with its field's decoder.
// state is the entity's state before the update (nil for none); the
// returned state has the new values as the reader will decode them
// (quantized floats rounded, and so on). state itself is not modified.
func WriteFields(w *bitio.Writer, ser *schema.Serializer, state Changes, ch Changes) (Changes, error) {
	paths, vals, err := normalize(ch)
	if err != nil {
		return nil, err
	}
	next := state.Clone()
	var values bitio.Writer
	for i, p := range paths {
		d, err := DecoderAt(ser, next, p)
		if err != nil {
			return nil, err
		}
		var one bitio.Writer
		if err := d.Encode(&one, vals[i]); err != nil {
			name, _, _ := entity.FieldName(ser, nil, &p)
			return nil, errorf("%s %s: %w", ser.Name, name, err)
		}
		next[p] = d.Decode(bitio.NewReader(one.Bytes()))
		values.Append(&one)
	}
	if err := fieldpath.Write(w, paths); err != nil {
		return nil, err
	}
	w.Append(&values)
	return next, nil
}

// Entity is the writer's view of one entity: what the reader will hold.
type Entity struct {
	Index  int32
	Class  int32
	Serial uint32
	Active bool
	State  Changes // every path set since creation (baseline included), as decoded
}

// Entities mirrors the engine's entity table (entity.Table) so that it can
// write packet-entities data: classes, baselines and live entities.
type Entities struct {
	Game       game.Game
	ClassBits  uint   // class-id width: floor(log2(max_classes)) + 1
	SpawnGroup uint32 // spawn group handle written in creates

	sers      map[int32]*schema.Serializer
	baselines map[int32]Changes
	live      map[int32]*Entity
}

// NewEntities prepares for the classes of DEM_ClassInfo, whose serializers
// are looked up in s by network name, and svc_ServerInfo's max_classes.
func NewEntities(s *schema.Schema, classes []messages.Class, maxClasses int32) (*Entities, error) {
	e := &Entities{
		Game:      s.Game,
		ClassBits: uint(bits.Len32(uint32(max(maxClasses, 1)))),
		sers:      map[int32]*schema.Serializer{},
		baselines: map[int32]Changes{},
		live:      map[int32]*Entity{},
	}
	for _, c := range classes {
		ser := s.Serializer(c.NetworkName)
		if ser == nil {
			return nil, errorf("class %d %s has no serializer", c.ID, c.NetworkName)
		}
		if c.ID < 0 || uint64(c.ID) >= 1<<e.ClassBits {
			return nil, errorf("class id %d does not fit %d bits (max_classes %d)", c.ID, e.ClassBits, maxClasses)
		}
		e.sers[c.ID] = ser
	}
	return e, nil
}

// Serializer returns a class's serializer.
func (e *Entities) Serializer(class int32) *schema.Serializer { return e.sers[class] }

// SetBaseline encodes a class's instance baseline (the value of its
// instancebaseline string-table entry) and remembers it: creates start
// from it, as the reader's do.
func (e *Entities) SetBaseline(class int32, ch Changes) ([]byte, error) {
	ser := e.sers[class]
	if ser == nil {
		return nil, errorf("baseline for unknown class %d", class)
	}
	var w bitio.Writer
	st, err := WriteFields(&w, ser, nil, ch)
	if err != nil {
		return nil, err
	}
	e.baselines[class] = st
	return w.Bytes(), nil
}

// Entity returns the entity at index, or nil.
func (e *Entities) Entity(index int32) *Entity { return e.live[index] }

// Live lists the entities in index order.
func (e *Entities) Live() []*Entity {
	out := make([]*Entity, 0, len(e.live))
	for _, en := range e.live {
		out = append(out, en)
	}
	slices.SortFunc(out, func(a, b *Entity) int { return cmp.Compare(a.Index, b.Index) })
	return out
}

// Frame is one svc_PacketEntities message being written. Its operations
// take effect in the Entities at once, as the reader applies them; the
// deletion list is applied by Message.
type Frame struct {
	e         *Entities
	delta     bool
	w         bitio.Writer
	last      int32
	updates   int32
	deletions []int32
	done      bool
}

// NewFrame starts a message: a full frame (delta false, the first message
// of a demo) or a delta.
func (e *Entities) NewFrame(delta bool) *Frame { return &Frame{e: e, delta: delta, last: -1} }

func (f *Frame) header(index int32, op provenance.Op) error {
	if f.done {
		return errorf("frame already finished")
	}
	if index <= f.last || index >= entity.MaxEntities {
		return errorf("entity %d after entity %d: updates go in increasing index order below %d", index, f.last, entity.MaxEntities)
	}
	f.w.UBitVar(uint32(index - f.last - 1))
	// Two bits: bit 0 leave, bit 1 create (without leave) or delete (with).
	var cmd uint64
	switch op {
	case provenance.Leave:
		cmd = 1
	case provenance.Create:
		cmd = 2
	case provenance.Delete:
		cmd = 3
	}
	f.w.Bits(cmd, 2)
	f.last = index
	f.updates++
	return nil
}

// Create writes a create: class id, 17-bit serial, spawn group, then the
// fields that differ from the class baseline.
func (f *Frame) Create(index, class int32, serial uint32, ch Changes) error {
	ser := f.e.sers[class]
	if ser == nil {
		return errorf("create of entity %d with unknown class %d", index, class)
	}
	if serial >= 1<<entity.SerialBits {
		return errorf("serial %d does not fit %d bits", serial, entity.SerialBits)
	}
	var body bitio.Writer
	body.Bits(uint64(class), f.e.ClassBits)
	body.Bits(uint64(serial), entity.SerialBits)
	body.VarUint32(f.e.SpawnGroup)
	st, err := WriteFields(&body, ser, f.e.baselines[class], ch)
	if err != nil {
		return fmt.Errorf("create of entity %d: %w", index, err)
	}
	if err := f.header(index, provenance.Create); err != nil {
		return err
	}
	f.w.Append(&body)
	f.e.live[index] = &Entity{Index: index, Class: class, Serial: serial, Active: true, State: st}
	return nil
}

// Update writes the changed fields of a live entity (which re-enters if it
// had left).
func (f *Frame) Update(index int32, ch Changes) error {
	en := f.e.live[index]
	if en == nil {
		return errorf("update of entity %d, which does not exist", index)
	}
	var body bitio.Writer
	st, err := WriteFields(&body, f.e.sers[en.Class], en.State, ch)
	if err != nil {
		return fmt.Errorf("update of entity %d: %w", index, err)
	}
	if err := f.header(index, provenance.Update); err != nil {
		return err
	}
	f.w.Append(&body)
	en.State, en.Active = st, true
	return nil
}

// Leave writes that an entity left the view: it stays, inactive.
func (f *Frame) Leave(index int32) error {
	en := f.e.live[index]
	if en == nil {
		return errorf("leave of entity %d, which does not exist", index)
	}
	if err := f.header(index, provenance.Leave); err != nil {
		return err
	}
	en.Active = false
	return nil
}

// Delete writes a leave-and-delete command.
func (f *Frame) Delete(index int32) error {
	if f.e.live[index] == nil {
		return errorf("delete of entity %d, which does not exist", index)
	}
	if err := f.header(index, provenance.Delete); err != nil {
		return err
	}
	delete(f.e.live, index)
	return nil
}

// DeleteAtEnd adds an entity to the explicit deletion list that ends a
// delta message (in games that have one, entity.HasDeletionList). Indexes
// must increase; the deletion happens after the message's updates.
func (f *Frame) DeleteAtEnd(index int32) error {
	if !f.delta || !entity.HasDeletionList(f.e.Game) {
		return errorf("no deletion list in a %s message", map[bool]string{true: f.e.Game.String() + " delta", false: "full"}[f.delta])
	}
	if n := len(f.deletions); n > 0 && index <= f.deletions[n-1] {
		return errorf("deletion list: %d after %d", index, f.deletions[n-1])
	}
	if index < 0 || index >= entity.MaxEntities {
		return errorf("deletion of entity %d", index)
	}
	f.deletions = append(f.deletions, index)
	return nil
}

// Message finishes the frame: the entity data (with the deletion list for
// delta messages of games that have one) in an svc_PacketEntities for
// server tick tick. deltaFrom is the tick the delta is based on (-1 for a
// full frame).
func (f *Frame) Message(tick uint32, deltaFrom int32) (messages.PacketEntities, error) {
	if f.done {
		return messages.PacketEntities{}, errorf("frame already finished")
	}
	f.done = true
	w := f.w
	if f.delta && entity.HasDeletionList(f.e.Game) {
		w.UBitVar(uint32(len(f.deletions)))
		prev := int32(-1)
		for _, idx := range f.deletions {
			w.UBitVar(uint32(idx - prev))
			prev = idx
			delete(f.e.live, idx)
		}
	}
	return messages.PacketEntities{
		MaxEntries: entity.MaxEntities, UpdatedEntries: f.updates, IsDelta: f.delta,
		DeltaFrom: deltaFrom, EntityData: w.Bytes(), ServerTick: tick,
	}, nil
}
