package entity

import (
	"encoding/binary"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/provenance"
)

// updateMemo remembers the field paths of one of an entity's recent
// updates, so that a later update whose path section repeats them bit for
// bit skips decoding and resolving its paths and only reads its values.
// Most updates repeat: a hero sends its cell, offset and simulation time
// tick after tick. An entity keeps two memos, for the two most recent
// distinct path sections; in the Dota 2 replay the last one alone matches
// 83% of updates, and the second 5% more.
//
// Equal bits mean equal paths: the path ops are a prefix code and every
// update's paths start afresh. The resolved targets stay valid while the
// entity's owner token is unchanged, because a state node is replaced only
// when it is copied for a new owner (a snapshot gives both tables new
// tokens), and a node's values never move once they have the capacity for
// every slot the schema allows (target.bound). Paths through a polymorphic
// pointer resolve by the pointer's value, which an update can change
// without changing its paths, so classes that reach one keep no memo.
type updateMemo struct {
	bits    uint64 // the path section, finish op included, first bit lowest
	n       uint   // its length in bits, 1..bitio.WindowBits; 0: no memo
	owner   uint32 // the owner token the targets were resolved for
	targets []target
	// inline holds the targets of most updates, so that a repeated update
	// reads its targets from the entity it has just looked up.
	inline [4]target
	// What a recorded decode adds, kept when the memo was filled by one:
	// each path, its op (Start counted from the path section) with the
	// finish op last, and its name.
	recorded bool
	paths    []fieldpath.Path
	ops      []fieldpath.OpRecord
	names    []nameEntry
}

// matches reports whether the next bits repeat the memo's path section.
func (m *updateMemo) matches(r *bitio.Reader, owner uint32) bool {
	if m.n == 0 || m.owner != owner {
		return false
	}
	w, ok := r.Window()
	return ok && w&(1<<m.n-1) == m.bits
}

// entityFields reads an update's fields into an existing entity, through
// one of its memos when the paths repeat; otherwise it reads them afresh
// into the memo used less recently. A recorded decode uses only memos
// filled by one. What-ifs change decoders field by field, so they bypass
// the memos.
func (t *Table) entityFields(r *bitio.Reader, e *Entity, rec *provenance.Message, update int) (int, error) {
	if t.whatIf == nil && !t.FreshPaths {
		for k := range e.memos {
			m := &e.memos[k]
			if !m.matches(r, e.owner) || rec != nil && !m.recorded {
				continue
			}
			e.older = uint8(1 - k)
			return t.replayMemo(r, m, rec, update)
		}
	}
	if e.State.owner != e.owner {
		e.State = e.State.cowCopy(e.owner) // shared with a snapshot
	}
	if t.whatIf != nil || t.FreshPaths || e.Class.Serializer.HasPolymorphic() {
		return t.readFields(r, e.Class, e.State, e.owner, rec, update, nil)
	}
	k := e.older
	e.older = 1 - k
	return t.readFields(r, e.Class, e.State, e.owner, rec, update, &e.memos[k])
}

// replayMemo reads an update whose paths repeat the memo's: it skips the
// path section and reads each value straight into its target, recording,
// when rec is non-nil, what reading the paths afresh would have. The
// memo's owner is the entity's, so its nodes are the entity's own: no
// copy-on-write check is due.
func (t *Table) replayMemo(r *bitio.Reader, m *updateMemo, rec *provenance.Message, update int) (int, error) {
	pathStart := r.Pos()
	r.Skip(m.n)
	if rec != nil {
		rec.Updates[update].PathBits = m.n
		finish := m.ops[len(m.ops)-1]
		finish.Start += pathStart
		rec.Finishes = append(rec.Finishes, finish)
	}
	for i := range m.targets {
		tg := &m.targets[i]
		dst := tg.value()
		t.Stats.Calls[tg.dec.Family]++
		if rec == nil {
			tg.dec.DecodeTo(r, dst)
		} else {
			start, prev := r.Pos(), *dst
			tg.dec.DecodeTo(r, dst)
			op, name := m.ops[i], &m.names[i]
			op.Start += pathStart
			rec.Fields = append(rec.Fields, provenance.Field{
				Update: update, Path: m.paths[i], Op: op, Name: name.name, Schema: name.field, Decoder: tg.dec, Why: name.why,
				Start: start, Bits: r.Pos() - start, Value: *dst, Prev: prev,
			})
			rec.Updates[update].NumFields++
		}
		if r.Overflowed() {
			return i, valueError(m.path(i), tg, r)
		}
	}
	return len(m.targets), nil
}

// path is the memo's i-th path, for an error message: kept by a recorded
// memo, decoded again from the bits otherwise.
func (m *updateMemo) path(i int) *fieldpath.Path {
	if i < len(m.paths) {
		return &m.paths[i]
	}
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], m.bits)
	paths, _ := fieldpath.Read(bitio.NewReader(buf[:]), nil, nil)
	if i >= len(paths) {
		return &fieldpath.Path{}
	}
	return &paths[i]
}

// reset empties the memo, its targets kept in its own inline array.
func (m *updateMemo) reset(bits uint64, owner uint32) {
	m.bits, m.n, m.owner = bits, 0, owner
	if cap(m.targets) == 0 {
		m.targets = m.inline[:0]
	}
	m.targets = m.targets[:0]
	m.recorded, m.paths, m.ops, m.names = false, m.paths[:0], m.ops[:0], m.names[:0]
}
