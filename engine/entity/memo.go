package entity

import (
	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/provenance"
)

// Update memos: most entity updates send the same field paths as one of
// the entity's recent updates (a hero sends its cell, offset and
// simulation time tick after tick), so an update whose path section repeats
// a remembered one bit for bit skips decoding and resolving its paths and
// only reads its values into the slots remembered for them. Of the Dota 2
// replay's in-game fields, 66% are read through hot memos and 22% through
// memo slots; the rest are new to their entity.
//
// Equal bits mean equal paths: the path ops are a prefix code and every
// update's paths start afresh. The resolved targets stay valid while the
// entity's owner token is unchanged, because a state node is replaced only
// when it is copied for a new owner (a snapshot gives both tables new
// tokens), and a node's values never move once they have the capacity for
// every slot the schema allows (target.bound). Paths through a polymorphic
// pointer resolve by the pointer's value, which an update can change
// without changing its paths, so classes that reach one keep no memos.
//
// An entity keeps two kinds: two hot memos inside the Entity, the last two
// short sections it sent (most updates repeat one of them, an entity often
// alternating between two; Apply reads those itself, and nothing is read
// but the entity, the data and the slots written), and, from its second
// path section on, a memoSet of the last eight sections of any length. A
// recorded decode uses only the memoSet, whose slots keep what recording
// needs.
//
// Sections are compared up to the data's last bit (bitio.Reader.WindowAt
// reads zeros past it, and a section must end inside the data): the last
// update of a message, often the same entity's tick after tick, repeats
// too.

// memoSlots is how many path sections a memoSet remembers: entities cycle
// through a few (a hero's position, its mana, its cooldowns).
const memoSlots = 8

// maxMemoWindows bounds a remembered path section, in bit windows.
const maxMemoWindows = 16

// hotFields is how many values a hot memo holds.
const hotFields = 4

// hotMemo is an entity's last short update: a section of at most one
// window whose at most hotFields targets are all pinned (target.dst).
type hotMemo struct {
	first  uint64 // the path section, first bit lowest
	n      uint8  // its length in bits, 1..bitio.WindowBits; 0: none
	count  uint8  // values
	fields [hotFields]hotField
}

type hotField struct {
	dec *decoder.Decoder
	dst *decoder.Value
}

// memoSet remembers an entity's recent path sections.
type memoSet struct {
	owner uint32 // the owner token the targets were resolved for
	last  uint8  // the slot used last, tried first
	clock uint32 // counts uses, to replace the least recently used slot
	// keys are apart from the memos so that finding a slot reads two
	// cache lines.
	keys  [memoSlots]memoKey
	memos [memoSlots]updateMemo
}

// memoKey identifies a remembered path section.
type memoKey struct {
	first uint64 // its first bits (up to bitio.WindowBits), first bit lowest
	mask  uint64 // selects the bits of first from a window (lowBits')
	n     uint32 // its length in bits, finish op included; 0: an empty slot
	used  uint32 // the clock when it was last used
}

// updateMemo is what readFields gathers for a memo, and what a memoSet slot
// keeps besides its key. Slots and the table's scratch memo swap contents,
// so that the buffers are reused.
type updateMemo struct {
	n       uint     // the section's length in bits, once complete
	rest    []uint64 // the section's bits after the first window, a window per word
	targets []target
	pinned  bool // every target has its dst
	// recorded says the memo was filled by a recorded decode and rec holds
	// what recording needs.
	recorded bool
	rec      *memoRecord
}

// memoRecord is what recording a memo's update needs beyond its values.
// Ops' Start is counted from the path section.
type memoRecord struct {
	fields []fieldRecord // by path
	finish fieldpath.OpRecord
}

// fieldRecord is one path's part of a memoRecord, kept together so that
// replaying it reads one run of memory.
type fieldRecord struct {
	path fieldpath.Path
	op   fieldpath.OpRecord
	name nameEntry
}

// add appends tg to the memo's targets. The slot is taken by reslicing
// and written member by member, and a pointer only when it differs:
// appending the whole target while the collector marks is a bulk write
// barrier per field read (a sixth of a CS2 replay's decode).
func (m *updateMemo) add(tg *target) {
	n := len(m.targets)
	if n == cap(m.targets) {
		m.targets = append(m.targets, target{})
	} else {
		m.targets = m.targets[:n+1]
	}
	x := &m.targets[n]
	if x.dec != tg.dec {
		x.dec = tg.dec
	}
	if x.node != tg.node {
		x.node = tg.node
	}
	if x.dst != tg.dst {
		x.dst = tg.dst
	}
	x.slot, x.bound = tg.slot, tg.bound
}

// swap exchanges the contents of m and o member by member: a whole memo
// written while the collector marks is a bulk write barrier.
func (m *updateMemo) swap(o *updateMemo) {
	m.n, o.n = o.n, m.n
	m.rest, o.rest = o.rest, m.rest
	m.targets, o.targets = o.targets, m.targets
	m.pinned, o.pinned = o.pinned, m.pinned
	m.recorded, o.recorded = o.recorded, m.recorded
	m.rec, o.rec = o.rec, m.rec
}

// reset empties the memo for readFields to fill.
func (m *updateMemo) reset(record bool) {
	m.n, m.targets, m.pinned, m.recorded = 0, m.targets[:0], true, record
	if record {
		if m.rec == nil {
			m.rec = &memoRecord{}
		}
		m.rec.fields = m.rec.fields[:0]
	}
}

// clear forgets every slot: the entity's nodes now belong to owner.
func (s *memoSet) clear(owner uint32) {
	s.owner = owner
	for i := range s.keys {
		s.keys[i].n = 0
	}
}

// find returns the slot whose path section the next bits repeat, or -1.
// A recorded decode uses only slots filled by one; stale is a slot that
// repeats the bits but was filled unrecorded, to be filled again.
func (s *memoSet) find(r *bitio.Reader, record bool) (hit, stale int) {
	w, rem := r.WindowAt(r.Pos()), r.Remaining()
	stale = -1
	for j := range uint(memoSlots) {
		i := int((uint(s.last) + j) % memoSlots)
		k := &s.keys[i]
		if w&k.mask != k.first || k.n == 0 || uint(k.n) > rem {
			continue
		}
		if k.n > bitio.WindowBits && !s.memos[i].restMatches(r, uint(k.n)) {
			continue
		}
		if record && !s.memos[i].recorded {
			stale = i
			continue
		}
		s.clock++
		k.used, s.last = s.clock, uint8(i)
		return i, -1
	}
	return -1, stale
}

// restMatches reports whether the bits after the read position's first
// window repeat the rest of an n-bit section.
func (m *updateMemo) restMatches(r *bitio.Reader, n uint) bool {
	pos := r.Pos()
	for j, want := range m.rest {
		at := pos + uint(j+1)*bitio.WindowBits
		if lowBits(r.WindowAt(at), pos+n-at) != want {
			return false
		}
	}
	return true
}

// victim is the slot to fill next: an empty one, else the least recently
// used.
func (s *memoSet) victim() int {
	slot := 0
	for i := range s.keys {
		if s.keys[i].n == 0 {
			return i
		}
		if s.keys[i].used < s.keys[slot].used {
			slot = i
		}
	}
	return slot
}

// entityFields reads an update's fields into an existing entity: through
// its hot memo or a memo slot when the paths repeat, otherwise afresh,
// remembering them. What-ifs change decoders field by field, so they
// bypass the memos.
func (t *Table) entityFields(rd *reading, e *Entity) (int, error) {
	r, rec, memos := rd.r, rd.rec, rd.memos
	stale := -1
	if memos {
		if s := e.memos; s != nil {
			if s.owner != e.owner {
				s.clear(e.owner)
				e.forgetHot()
			}
			var hit int
			if hit, stale = s.find(r, rec != nil); hit >= 0 {
				e.takeHot(s.keys[hit].first, uint(s.keys[hit].n), &s.memos[hit])
				return t.replayMemo(r, s, hit, rec, rd.update)
			}
		}
	}
	if e.State.owner != e.owner {
		e.State = e.State.cowCopy(e.owner) // shared with a snapshot
	}
	if !memos || e.Class.Serializer.HasPolymorphic() {
		return t.readFields(rd, &e.State, e.Class, e.owner, nil, false)
	}
	pathStart := r.Pos()
	nf, err := t.readFields(rd, &e.State, e.Class, e.owner, &t.fill, false)
	if err == nil {
		t.remember(e, r, pathStart, stale, rec != nil)
	}
	return nf, err
}

// remember keeps the memo readFields filled (t.fill) for the section at
// pathStart: as the hot memo when it can be one, and in a memoSet slot
// (stale, or the least recently used) once the entity has missed before or
// when recording. An entity's first section often stays its only one.
func (t *Table) remember(e *Entity, r *bitio.Reader, pathStart uint, stale int, record bool) {
	f := &t.fill
	if f.n > maxMemoWindows*bitio.WindowBits {
		return // too long to be worth comparing
	}
	first := lowBits(r.WindowAt(pathStart), f.n)
	missed := e.missed
	e.missed = true
	e.takeHot(first, f.n, f)
	s := e.memos
	if s == nil {
		if !missed && !record {
			return
		}
		s = t.newMemoSet(e.owner)
		e.memos = s
	}
	slot := stale
	if slot < 0 {
		slot = s.victim()
	}
	f.rest = f.rest[:0]
	for at := pathStart + bitio.WindowBits; at < pathStart+f.n; at += bitio.WindowBits {
		f.rest = append(f.rest, lowBits(r.WindowAt(at), pathStart+f.n-at))
	}
	s.clock++
	s.keys[slot] = memoKey{first: first, mask: lowBits(^uint64(0), f.n), n: uint32(f.n), used: s.clock}
	s.last = uint8(slot)
	s.memos[slot].swap(&t.fill)
	if cap(t.fill.targets) == 0 {
		t.fill.targets = t.carveTargets()
	}
}

// carveTargets returns an empty target buffer cut from a shared slab: each
// memo slot, once filled, keeps a buffer, and one allocation serves many.
func (t *Table) carveTargets() []target {
	const piece = 8
	if len(t.targetSlab)+piece > cap(t.targetSlab) {
		t.targetSlab = make([]target, 0, 64*piece)
	}
	n := len(t.targetSlab)
	t.targetSlab = t.targetSlab[:n+piece]
	return t.targetSlab[n : n : n+piece]
}

// forgetHot drops the entity's hot memos: their slots may no longer be
// the entity's own.
func (e *Entity) forgetHot() { e.hot.n, e.hot2.n = 0, 0 }

// takeHot makes the memo m of an n-bit section starting with first the
// entity's hot memo, when it can be one; the hot memo it had becomes the
// second.
func (e *Entity) takeHot(first uint64, n uint, m *updateMemo) {
	if n > bitio.WindowBits || len(m.targets) > hotFields || !m.pinned {
		return
	}
	h := &e.hot
	if h.n == 0 {
		e.hot2.n = 0 // forgotten with it
	} else if h.first != first || uint(h.n) != n {
		e.hot2 = *h
	}
	h.first, h.n, h.count = first, uint8(n), uint8(len(m.targets))
	for i := range m.targets {
		h.fields[i] = hotField{m.targets[i].dec, m.targets[i].dst}
	}
}

// lowBits is the first n bits of a window (all of it when n is larger).
func lowBits(w uint64, n uint) uint64 { return w & (1<<min(n, bitio.WindowBits) - 1) }

// hotEntity is the entity at idx when it has a hot memo, else nil.
func (t *Table) hotEntity(idx int32) *Entity {
	if uint32(idx) >= MaxEntities {
		return nil
	}
	if e := t.Entities[idx]; e != nil && e.hot.n != 0 {
		return e
	}
	return nil
}

// replayMemo reads an update whose paths repeat the memo in slot: it skips
// the path section and reads each value straight into its target,
// recording, when rec is non-nil, what reading the paths afresh would
// have. The memos' owner is the entity's, so their nodes are the entity's
// own: no copy-on-write check is due.
func (t *Table) replayMemo(r *bitio.Reader, s *memoSet, slot int, rec *provenance.Message, update int) (int, error) {
	m := &s.memos[slot]
	pathStart, n := r.Pos(), uint(s.keys[slot].n)
	r.Skip(n)
	if rec != nil {
		rec.Updates[update].PathBits = n
		finish := m.rec.finish
		finish.Start += pathStart
		rec.Finishes = append(rec.Finishes, finish)
		rec.ReserveFields(len(m.targets))
	}
	for i := range m.targets {
		tg := &m.targets[i]
		dst := tg.value()
		t.Stats.Calls[tg.dec.Family]++
		if rec == nil {
			tg.dec.DecodeTo(r, dst)
		} else {
			// As readFields records a field, with what the memo kept.
			f, fr := rec.NextField(), &m.rec.fields[i]
			f.Update, f.Path, f.Op = update, fr.path, fr.op
			f.Op.Start += pathStart
			f.Name, f.Schema, f.Decoder, f.Why = fr.name.name, fr.name.field, tg.dec, fr.name.why
			f.Start, f.Prev = r.Pos(), *dst
			tg.dec.DecodeTo(r, dst)
			f.Bits, f.Value = r.Pos()-f.Start, *dst
			rec.Updates[update].NumFields++
		}
		if r.Overflowed() {
			p := sectionPath(s.keys[slot].first, n, m.rest, i)
			if m.recorded {
				p = &m.rec.fields[i].path
			}
			return i, valueError(p, tg.dec, r)
		}
	}
	return len(m.targets), nil
}

// sectionPath decodes the i-th path of a remembered section again, for an
// error message.
func sectionPath(first uint64, n uint, rest []uint64, i int) *fieldpath.Path {
	var w bitio.Writer
	w.Bits(first, min(n, bitio.WindowBits))
	for j, c := range rest {
		w.Bits(c, min(n-uint(j+1)*bitio.WindowBits, bitio.WindowBits))
	}
	w.Bits(0, 64) // the reader's windows need 8 bytes past the section
	paths, _ := fieldpath.Read(bitio.NewReader(w.Bytes()), nil, nil)
	if i >= len(paths) {
		return &fieldpath.Path{}
	}
	return &paths[i]
}
