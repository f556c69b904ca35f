package entity

import (
	"bytes"
	"errors"
	"fmt"
	"math/bits"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/evidence"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
)

// MaxEntities is the size of the entity index space (14 index bits).
const MaxEntities = 1 << 14

// SerialBits is the width of an entity's serial number in a create.
const SerialBits = 17

// Class is a networked class: its id, name and serializer.
type Class struct {
	ID         int32
	Name       string
	Serializer *schema.Serializer
}

// Entity is one live (or left) entity.
type Entity struct {
	Index  int32
	Serial uint32
	Class  *Class
	State  *Node
	Active bool // in the PVS (false after a leave)
	// SpawnGroup is the spawn group handle its create carried: not needed
	// to decode, kept so that a cut can write the create back as it was.
	SpawnGroup uint32
	owner      uint32   // copy-on-write token of this entity's state nodes
	missed     bool     // an update has read its paths afresh (memo.go)
	hot        hotMemo  // its last short update's paths (memo.go)
	hot2       hotMemo  // the one before, when different (memo.go)
	memos      *memoSet // its recent updates' paths (memo.go), nil until needed
}

// Stats counts the work done, for check and stats.
type Stats struct {
	Messages       int64 // packet-entities messages applied
	Updates        int64 // entity updates of any kind
	Fields         int64 // field values read from entity data
	BaselineFields int64 // field values read from baselines
	// BaselinesMisaligned counts baselines whose decode did not end in
	// their last byte (the create goes on: entity data is separate bits).
	BaselinesMisaligned int64
	Calls               [32]int64 // decoder calls per family (entity data and baselines)
	FullFramesSkipped   int64
}

// Table holds classes, baselines and entities.
type Table struct {
	Classes     []*Class // by id
	ClassIDBits uint
	Entities    [MaxEntities]*Entity
	Stats       Stats

	// Game is taken from the schema given to SetClasses; it decides
	// whether delta messages end with a deletion list.
	Game game.Game

	// Strings is the pool the table's string values are interned in; nil
	// for the default pool (decoder.Pool). Copies and snapshots share it.
	Strings *decoder.Pool

	// OnUpdate, when set, is called before each update of a message is
	// read, with the boundary a what-if can resume from (it may take a
	// Snapshot there).
	OnUpdate func(Resume)

	// Logging makes each applied update append its record to Log, with
	// what a recording decode would say of it (an index of the file needs
	// no more). An update decoding breaks in is not logged.
	Logging bool
	Log     []UpdateRecord
	LogEnd  uint // the bit after the last update logged

	// FreshPaths makes every update read its field paths afresh instead
	// of replaying repeated ones from the entity's memos (see memo.go);
	// tests compare the two.
	FreshPaths bool

	// Evidence, when set, counts what the values of watched fields (an
	// unknown type's default decoder, Decoder.Watch) look like, forgetting
	// the values of a message that misaligns (evidence.go).
	Evidence *evidence.Set

	baselines  map[int32][]byte
	baseState  map[int32]*Node // decoded baselines, cloned on create
	failedBase map[int32]bool  // baselines that failed to decode to their end
	fullFrames int
	budgetAt   int64 // allocated total at which to check the budget again
	maxClasses int32 // svc_ServerInfo's max_classes, 0 before it
	names      map[nameKey]nameEntry
	whatIf     *WhatIf // overrides for a what-if decode, nil normally
	fieldCount int     // fields read so far in the message (what-if only)
	paths      []fieldpath.Path
	ops        []fieldpath.OpRecord
	fill       updateMemo // what readFields gathers for a memo (memo.go)
	targetSlab []target   // where memo slots' target buffers are cut from
	entBlock   []Entity   // where a full frame's creates are cut from (newEntity)
	br         bitio.Reader
	free       [][]*Node // by class id: deleted entities' top-level nodes (recycle.go)
	freeBytes  int
	spare      spares     // the nodes below them, once a create reuses one (recycle.go)
	dead       []*Entity  // the entities whose nodes free keeps, for creates to reuse
	spareMemos []*memoSet // their memo sets, for entities that need one
	shared     bool       // its nodes were handed out: not to be released (reuse.go)
}

// NewTable returns an empty table: one a finished decode released when
// there is one (reuse.go).
func NewTable() *Table {
	if t := reusedTable(); t != nil {
		return t
	}
	return &Table{baselines: map[int32][]byte{}, baseState: map[int32]*Node{}}
}

// SetClassCount sets the class-id width from svc_ServerInfo's max_classes:
// floor(log2(n)) + 1 bits.
func (t *Table) SetClassCount(maxClasses int32) {
	if maxClasses < 1 {
		maxClasses = 1
	}
	t.ClassIDBits = uint(bits.Len32(uint32(maxClasses)))
	t.maxClasses = maxClasses
}

// maxClassGap is how far past the number of classes DEM_ClassInfo lists a
// class id may be (Valve numbers them 0 to n-1): the class table is sized
// by the largest id, which must cost what the message costs.
const maxClassGap = 1024

// SetClasses installs DEM_ClassInfo's classes, linking serializers by name.
func (t *Table) SetClasses(cs []messages.Class, s *schema.Schema) error {
	var maxID int32
	for _, c := range cs {
		if c.ID < 0 || c.ID > 1<<20 {
			return fmt.Errorf("class id %d out of range", c.ID)
		}
		if t.maxClasses > 0 && c.ID >= t.maxClasses {
			return fmt.Errorf("class id %d is not below svc_ServerInfo's max_classes %d", c.ID, t.maxClasses)
		}
		if int(c.ID) >= len(cs)+maxClassGap {
			return fmt.Errorf("class id %d is far past the %d classes listed", c.ID, len(cs))
		}
		maxID = max(maxID, c.ID)
	}
	if s != nil {
		t.Game = s.Game
	}
	t.Classes = make([]*Class, maxID+1)
	all := make([]Class, len(cs)) // one allocation, not one per class
	for i, c := range cs {
		cl := &all[i]
		*cl = Class{ID: c.ID, Name: c.NetworkName}
		if s != nil {
			// Read when the class is first decoded (baseline): a replay
			// creates a tenth of the classes it lists.
			cl.Serializer = s.LazySerializer(c.NetworkName)
		}
		t.Classes[c.ID] = cl
	}
	clear(t.baseState)
	t.sizeEvidence(s)
	return nil
}

// SetBaseline stores a class's instance baseline (copied), replacing the
// cached decoded state. Snapshots and table updates resend baselines that
// have not changed; those keep their copy and their decoded state.
func (t *Table) SetBaseline(classID int32, data []byte) {
	if old, ok := t.baselines[classID]; ok && bytes.Equal(old, data) {
		return
	}
	t.baselines[classID] = append([]byte(nil), data...)
	delete(t.baseState, classID)
}

// Baseline returns a class's raw baseline.
func (t *Table) Baseline(classID int32) []byte { return t.baselines[classID] }

// Class is the class of id with its serializer, or nil when the table has
// none such (an id out of range, a class the schema gave no serializer).
func (t *Table) Class(id int32) *Class {
	if id < 0 || int(id) >= len(t.Classes) || t.Classes[id] == nil || t.Classes[id].Serializer == nil {
		return nil
	}
	return t.Classes[id]
}

// Error locates a failure inside a packet-entities message.
type Error struct {
	Bit    uint // bit offset from the start of the entity data
	Update int  // update number within the message
	Entity int32
	Class  string
	Err    error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("entity data bit %s, update #%d, entity %d", bitio.Offset(e.Bit), e.Update, e.Entity)
	if e.Class != "" {
		s += " (" + e.Class + ")"
	}
	return s + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Result summarises one applied message.
type Result struct {
	Updates    int
	Fields     int
	DataBits   uint
	EndBit     uint
	Misaligned bool // data not consumed to within its final byte, or over-read
	Skipped    bool // a repeated full frame, not applied
	Unfinished bool // a what-if stopped at WhatIf.StopAt, sensible so far
	Deletions  int  // explicit deletions after the updates
	// BadDeletions counts deletions of entities that do not exist: a sign
	// that the list was read from the wrong bits.
	BadDeletions int
	Err          error
}

func (t *Table) baseline(c *Class) (*Node, error) {
	if n, ok := t.baseState[c.ID]; ok {
		return n, nil
	}
	c.Serializer.Load()
	n := newNode(len(c.Serializer.Fields), 0)
	if data, ok := t.baselines[c.ID]; ok && len(data) > 0 {
		nf, _, aligned, err := t.decodeBaseline(c, data, n, 0, nil)
		t.Stats.BaselineFields += int64(nf)
		if err != nil {
			t.markBaselineFailed(c.ID)
			return nil, fmt.Errorf("baseline of %s: %w", c.Name, err)
		}
		if !aligned {
			t.Stats.BaselinesMisaligned++
			t.markBaselineFailed(c.ID)
		}
	}
	t.baseState[c.ID] = n
	return n, nil
}

// Apply decodes one svc_PacketEntities message into the table. With rec
// non-nil, everything read is recorded there. The entity state keeps every
// update applied before an error.
func (t *Table) Apply(m *messages.PacketEntities, rec *provenance.Message) Result {
	res := Result{DataBits: uint(len(m.EntityData)) * 8}
	if rec != nil {
		rec.Reset()
		rec.DataBits, rec.Data = res.DataBits, m.EntityData
	}
	var from *Resume
	if t.whatIf != nil {
		from = t.whatIf.From
	}
	if !m.IsDelta && from == nil {
		if t.fullFrames > 0 {
			res.Skipped = true
			t.Stats.FullFramesSkipped++
			return res
		}
		t.fullFrames++
	}
	t.Stats.Messages++
	t.beginEvidence()
	r := &t.br
	r.Reset(m.EntityData)
	r.Strings = t.Strings // nil, the default pool, unless the owner gave one
	index := int32(-1)
	first := 0
	if t.whatIf != nil {
		r.Reset(t.whatIf.Edit(m.EntityData))
		r.Strings = t.Strings
		t.fieldCount = 0
		if from != nil {
			r.Skip(from.Bit)
			index, first, t.fieldCount = from.Index, from.Update, from.Fields
			res.Fields = from.Fields
		}
	}
	fail := func(u int, e *Entity, idx int32, bit uint, err error) Result {
		ee := &Error{Bit: bit, Update: u, Entity: idx, Err: err}
		if e != nil && e.Class != nil {
			ee.Class = e.Class.Name
		}
		res.Err, res.Misaligned, res.EndBit = ee, true, r.Pos()
		t.discardEvidence()
		if rec != nil {
			rec.Err, rec.EndBit, rec.Problem, rec.ErrField = ee, r.Pos(), problemOf(err), pathField(err)
			if len(rec.Updates) > 0 && rec.Updates[len(rec.Updates)-1].Err == nil {
				rec.Updates[len(rec.Updates)-1].Err = err
			}
		}
		return res
	}
	// An update whose paths repeat one of its entity's hot memos (memo.go),
	// most updates, is read right here: the general path's calls and checks
	// cost more than reading its values.
	fast := rec == nil && t.whatIf == nil && !t.FreshPaths
	pvsBits := uint(0)
	if m.HasPVSVisBits > 0 {
		pvsBits = 2
	}
	for u := first; u < int(m.UpdatedEntries); u++ {
		start := r.Pos()
		if t.OnUpdate != nil {
			t.OnUpdate(Resume{Update: u, Bit: start, Index: index, Fields: res.Fields})
		}
		if t.whatIf != nil && t.whatIf.StopAt > 0 && start >= t.whatIf.StopAt {
			res.Unfinished, res.EndBit = true, start
			return res
		}
		// The header: the index delta (a UBitVar) and a 2-bit command, read
		// once from a window (zeros past the data's end; hb is checked
		// against what remains before the bits count).
		w := r.WindowAt(start)
		delta, hb := bitio.UBitVarOf(w)
		cmd := uint32(w>>hb) & 3
		hb += 2
		if fast {
			// An update (command 0) of an entity left in the PVS, its
			// section equal to a hot memo's and within the data.
			idx := index + int32(delta) + 1
			n := hb + pvsBits
			if e := t.hotEntity(idx); cmd == 0 && (pvsBits == 0 || w>>hb&1 == 0) && e != nil {
				// The entity's last short section, or the one before
				// (entities often alternate between two).
				h, section := &e.hot, r.WindowAt(start+n)
				if lowBits(section, uint(h.n)) != h.first && e.hot2.n != 0 {
					h = &e.hot2
				}
				if lowBits(section, uint(h.n)) == h.first && n+uint(h.n) <= r.Remaining() {
					index = idx
					e.Active = true
					r.Skip(n + uint(h.n))
					t.Stats.Updates++
					res.Updates++
					for i := range h.fields[:h.count] {
						f := &h.fields[i]
						t.Stats.Calls[f.dec.Family]++
						// Raw and flagless quantized floats inline; a value
						// read from a window cannot run past the data.
						if w, ok := r.Window(); ok {
							n := f.dec.DecodeWindow(w, f.dst)
							if n == 0 {
								n = f.dec.DecodeQuantizedWindow(w, f.dst)
							}
							if n != 0 {
								r.Skip(n)
								continue
							}
						}
						f.dec.DecodeTo(r, f.dst)
						if f.dec.Watch != 0 {
							t.observe(f.dec, f.dst, r)
						}
						if r.Overflowed() {
							res.Fields += i
							t.Stats.Fields += int64(i)
							return fail(u, e, index, r.Pos(), valueError(sectionPath(h.first, uint(h.n), nil, i), f.dec, r))
						}
					}
					res.Fields += int(h.count)
					t.Stats.Fields += int64(h.count)
					if t.Logging {
						t.log(idx, provenance.Update, e, start, r.Pos(), int(h.count), false)
					}
					continue
				}
			}
		}
		var e *Entity
		var at uint
		var err error
		index, e, at, err = t.update(m, r, rec, u, start, index, delta, cmd, hb, &res)
		if err == errStopped {
			res.Unfinished, res.EndBit = true, r.Pos()
			return res
		}
		if err != nil {
			return fail(u, e, index, at, err)
		}
	}
	// Delta messages end with a list of explicit deletions, in the games
	// that send one (HasDeletionList).
	if m.IsDelta && HasDeletionList(t.Game) {
		if start, err := t.deletions(r, rec, &res); err != nil {
			return fail(int(m.UpdatedEntries), nil, -1, start, err)
		}
	}
	res.EndBit = r.Pos()
	if rec != nil {
		rec.EndBit = r.Pos()
	}
	problem := provenance.NoProblem
	if r.Overflowed() {
		res.Misaligned = true
		res.Err = r.Err()
		problem = provenance.OverRead
	} else if r.Remaining() >= 8 {
		res.Misaligned = true
		updates := "updates"
		if m.UpdatedEntries == 1 {
			updates = "update"
		}
		res.Err = fmt.Errorf("%s left unread after %d %s (ends at bit %s of %s)", bitio.Size(r.Remaining()), m.UpdatedEntries, updates, bitio.Offset(r.Pos()), bitio.Offset(res.DataBits))
		problem = provenance.Unread
	}
	if rec != nil && res.Err != nil {
		rec.Err, rec.Problem = res.Err, problem
	}
	if res.Misaligned {
		t.discardEvidence()
	}
	return res
}

// update decodes update u of a message the general way (the fast path of
// Apply takes the hot-memo updates): its header, whose index delta and
// command were read from a window (hb bits from start), then a create, an
// update with the entity's memos, or a leave or delete. It returns the
// entity's index and, when the update fails, the entity involved (if
// known), the bit to locate the error at and the error.
func (t *Table) update(m *messages.PacketEntities, r *bitio.Reader, rec *provenance.Message, u int, start uint, index int32, delta, cmd uint32, hb uint, res *Result) (int32, *Entity, uint, error) {
	if hb <= r.Remaining() {
		r.Skip(hb)
	} else { // the single reads mark where the data ran out
		delta, cmd = r.UBitVar(), r.Bits(2)
	}
	index += int32(delta) + 1
	if r.Overflowed() {
		return index, nil, start, &HeaderError{Fault: BadHeader, Msg: "update header", Err: r.Err()}
	}
	if index < 0 || index >= MaxEntities {
		return index, nil, start, headerError(BadHeader, "entity index %d outside 0..%d", index, MaxEntities-1)
	}
	var eu *provenance.EntityUpdate
	if rec != nil {
		rec.Updates = append(rec.Updates, provenance.EntityUpdate{Index: index, Start: start, FirstField: len(rec.Fields)})
		eu = &rec.Updates[len(rec.Updates)-1]
	}
	var e *Entity
	withFields, skipped, op := false, false, provenance.Update
	switch {
	case cmd&1 == 0 && cmd&2 != 0: // create
		classID := int32(r.Bits(t.ClassIDBits))
		serial := r.Bits(SerialBits)
		spawnGroup := r.VarUint32()
		if r.Overflowed() {
			return index, nil, start, &HeaderError{Fault: BadHeader, Msg: "create header", Err: r.Err()}
		}
		c := t.Class(classID)
		if c == nil {
			return index, nil, start, headerError(UnknownClass, "create with unknown class id %d", classID)
		}
		if eu != nil {
			eu.Op, eu.ClassID, eu.Class = provenance.Create, c.ID, c.Name // named even if its baseline fails
		}
		base, err := t.baseline(c)
		if err != nil {
			return index, nil, start, err
		}
		t.recycle(t.Entities[index]) // a create replaces the entity there
		tok := newOwner()
		e = t.newEntity(!m.IsDelta)
		e.Index, e.Serial, e.Class, e.State, e.Active, e.SpawnGroup, e.owner = index, serial, c, base, true, spawnGroup, tok
		op = provenance.Create
		t.Entities[index] = e
		withFields = true
	case cmd&1 == 0: // update
		e = t.Entities[index]
		if e == nil {
			return index, nil, start, headerError(NoSuchEntity, "update of entity %d, which does not exist", index)
		}
		e.Active = true
		withFields = true
		if m.HasPVSVisBits > 0 && r.Bits(2)&1 != 0 {
			withFields, skipped = false, true
		}
	default: // leave, maybe delete
		e = t.Entities[index]
		if e != nil {
			e.Active = false
		}
		op = provenance.Leave
		if cmd&2 != 0 {
			op = provenance.Delete
			t.recycle(e)
			t.Entities[index] = nil
		}
	}
	if eu != nil {
		eu.Op, eu.Skipped = op, skipped
		eu.HeaderBits = r.Pos() - start
		eu.PathStart = r.Pos()
		if e != nil {
			eu.Serial = e.Serial
			if e.Class != nil {
				eu.ClassID, eu.Class = e.Class.ID, e.Class.Name
			}
		}
	}
	t.Stats.Updates++
	res.Updates++
	nf := 0
	if withFields {
		update := -1 // index of this update's record
		if rec != nil {
			update = len(rec.Updates) - 1
		}
		var err error
		if cmd&2 != 0 { // a create's paths do not repeat: no memo
			nf, err = t.readFields(r, e.Class, &e.State, e.owner, rec, update, nil, !m.IsDelta)
		} else {
			nf, err = t.entityFields(r, e, rec, update)
		}
		res.Fields += nf
		t.Stats.Fields += int64(nf)
		if err != nil { // errStopped too: Apply says the decode is unfinished
			return index, e, r.Pos(), err
		}
		if err := t.overBudget(); err != nil {
			return index, e, r.Pos(), err
		}
	}
	if eu != nil {
		eu.End = r.Pos()
	}
	if t.Logging {
		t.log(index, op, e, start, r.Pos(), nf, skipped)
	}
	return index, nil, 0, nil
}

// deletions reads the explicit deletion list that ends a delta message: a
// count, then index deltas from -1. A count the data cannot hold is an
// error at the list's start.
func (t *Table) deletions(r *bitio.Reader, rec *provenance.Message, res *Result) (uint, error) {
	start := r.Pos()
	n := r.UBitVar()
	if uint(n) > r.Remaining() {
		return start, headerError(BadDeletions, "deletion list claims %d entries, %s remain", n, bitio.Size(r.Remaining()))
	}
	idx := int32(-1)
	for i := uint32(0); i < n && !r.Overflowed(); i++ {
		idx += int32(r.UBitVar())
		if idx >= 0 && idx < MaxEntities && t.Entities[idx] != nil {
			t.recycle(t.Entities[idx])
			t.Entities[idx] = nil
		} else {
			res.BadDeletions++
		}
		res.Deletions++
	}
	if rec != nil {
		rec.DeletionStart, rec.DeletionBits, rec.Deletions, rec.BadDeletions = start, r.Pos()-start, int(n), res.BadDeletions
	}
	return 0, nil
}

// HasDeletionList reports whether a game's delta packet-entities messages
// end with an explicit deletion list (Dota 2, and games we do not know).
// CS2's and Deadlock's do not; entities are deleted only by an update's
// delete command. Evidence: in the shared CS2 and Deadlock replays the bits
// left after the last update are spread evenly over 0..7, i.e. byte padding,
// while a list needs at least 6 bits for its count; public CS2 parsers read
// no list either. Dota's replay carries the list in every delta message.
func HasDeletionList(g game.Game) bool { return g != game.CS2 && g != game.Deadlock }

// problemOf classifies a decode error for the diagnostics.
func problemOf(err error) provenance.Problem {
	var over *bitio.OverflowError
	var path *PathError
	var op *fieldpath.Error
	switch {
	case errors.As(err, &over):
		return provenance.OverRead
	case errors.As(err, &path), errors.As(err, &op):
		return provenance.BadPath
	}
	return provenance.OtherError
}

// nameKey identifies a path within a serializer for the name cache, its
// indexes packed 16 bits each (see packPath): a small key hashes fast.
type nameKey struct {
	ser  *schema.Serializer
	path uint64
}

// packPath packs a path of up to four indexes, each below 65,535 (real
// serializers and arrays stay well below), one more than each index per 16
// bits so that [0] and [0 0] differ; ok is false for other paths.
func packPath(p *fieldpath.Path) (k uint64, ok bool) {
	if p.Last > 3 {
		return 0, false
	}
	for i := 0; i <= p.Last; i++ {
		v := p.Idx[i]
		if v < 0 || v >= 1<<16-1 {
			return 0, false
		}
		k |= uint64(v+1) << (16 * i)
	}
	return k, true
}

type nameEntry struct {
	name  string
	field *schema.Field
	why   string
}

// fieldName is FieldName with a cache: recording names the same few
// thousand paths over and over. Paths through polymorphic pointers depend on
// the entity's state and are not cached.
func (t *Table) fieldName(ser *schema.Serializer, state *Node, p *fieldpath.Path) (string, *schema.Field, string) {
	if p.Last == 0 && int(p.Idx[0]) < len(ser.Fields) {
		f := ser.Fields[p.Idx[0]] // a top-level field is named by itself
		return f.Name, f, f.Why
	}
	packed, cacheable := packPath(p)
	k := nameKey{ser, packed}
	if cacheable {
		if e, ok := t.names[k]; ok {
			return e.name, e.field, e.why
		}
	}
	name, f, why := FieldName(ser, state, p)
	if cacheable && !ser.HasPolymorphic() {
		if t.names == nil {
			t.names = map[nameKey]nameEntry{}
		}
		t.names[k] = nameEntry{name, f, why}
	}
	return name, f, why
}

// readFields reads one update's field paths and then their values into
// state. With memo non-nil it also gathers there what a memo of the update
// keeps (memo.n is set once every value has been read).
//
// *statep is copied for owner before the first value is written when
// another owner's (a create starts with its class baseline's node, shared
// until then: a create that sets nothing costs nothing). A full frame's
// create (fresh) writes an overlay of it instead, which the entity's next
// update here makes whole (overlay.go).
func (t *Table) readFields(r *bitio.Reader, c *Class, statep **Node, owner uint32, rec *provenance.Message, update int, memo *updateMemo, fresh bool) (int, error) {
	var ops *[]fieldpath.OpRecord
	if rec != nil {
		t.ops = t.ops[:0]
		ops = &t.ops
	}
	pathStart := r.Pos()
	paths, err := fieldpath.Read(r, t.paths[:0], ops)
	t.paths = paths
	if rec != nil {
		eu := &rec.Updates[update]
		eu.PathBits = r.Pos() - pathStart
		if n := len(t.ops); n > 0 && t.ops[n-1].Op == fieldpath.Finish {
			rec.Finishes = append(rec.Finishes, t.ops[n-1])
		}
		rec.ReserveFields(len(paths))
	}
	if err != nil {
		return 0, err
	}
	if t.whatIf != nil {
		// Valve writes an update's paths in increasing order: a what-if
		// reading them otherwise is reading the wrong bits, and stops
		// here rather than decode garbage to the message's end.
		for i := 1; i < len(paths); i++ {
			if !paths[i-1].Before(&paths[i]) {
				return 0, &PathError{paths[i], "follows " + paths[i-1].String() + ": paths out of order", nil}
			}
		}
	}
	pathBits := r.Pos() - pathStart
	if len(paths) > 0 {
		switch st := *statep; {
		case st.owner != owner && fresh && t.whatIf == nil && canOverlay(st):
			*statep = newOverlay(st, owner, topPaths(paths))
		case st.owner != owner:
			*statep = t.cowCopy(c, st, owner)
		case st.ov != nil:
			st.materialize() // the update after a full frame's create (overlay.go)
		}
	}
	state := *statep
	if memo != nil {
		memo.reset(rec != nil)
		if rec != nil {
			mr := memo.rec
			for i := range paths {
				op := t.ops[i]
				op.Start -= pathStart
				mr.fields = append(mr.fields, fieldRecord{path: paths[i], op: op})
			}
			mr.finish = t.ops[len(paths)] // read without error: it ends with the finish op
			mr.finish.Start -= pathStart
		}
	}
	ser := c.Serializer
	hot := ser.Hot()
	stop := uint(0)
	if w := t.whatIf; w != nil && (w.WholeAfter == 0 || pathStart+pathBits <= w.WholeAfter) {
		stop = w.StopAt
	}
	for i := range paths {
		p := &paths[i]
		if stop > 0 && r.Pos() >= stop {
			return i, errStopped // a long update (a full frame's) need not be read to its end
		}
		var tg target
		if idx := p.Idx[0]; p.Last == 0 && int(idx) < len(hot) && hot[idx].Model == schema.Simple {
			tg = target{dec: hot[idx].Dec, node: state, slot: idx, bound: int32(len(hot))} // a top-level field: half of all
		} else {
			var err error
			if tg, err = resolve(ser, state, p, owner, &t.spare, t.whatIf != nil); err != nil {
				return i, err
			}
		}
		if t.whatIf != nil {
			field := func() *schema.Field { _, f, _ := t.fieldName(ser, state, p); return f }
			if d := t.whatIf.decoderFor(field, tg.dec, t.fieldCount); d != nil {
				tg.dec = d
			}
			t.fieldCount++
		}
		dst := tg.node.slot(tg.slot)
		if memo != nil {
			if tg.slot >= DenseSlots || cap(tg.node.vals) >= int(tg.bound) {
				tg.dst = dst // the node's values can no longer move
			} else {
				memo.pinned = false
			}
			memo.add(&tg)
		}
		t.Stats.Calls[tg.dec.Family]++
		if rec == nil {
			tg.dec.DecodeTo(r, dst)
		} else {
			f := rec.NextField() // every member set: see NextField
			f.Start, f.Prev = r.Pos(), *dst
			tg.dec.DecodeTo(r, dst)
			f.Bits, f.Value = r.Pos()-f.Start, *dst
			name, field, why := t.fieldName(ser, state, p)
			if memo != nil {
				memo.rec.fields[i].name = nameEntry{name, field, why}
			}
			f.Update, f.Path, f.Op = update, *p, t.ops[i]
			f.Name, f.Schema, f.Decoder, f.Why = name, field, tg.dec, why
			rec.Updates[update].NumFields++
		}
		if tg.dec.Watch != 0 {
			t.observe(tg.dec, dst, r) // reads r and dst, moves neither
		}
		if r.Overflowed() {
			return i, valueError(p, tg.dec, r)
		}
	}
	if memo != nil {
		memo.n = pathBits
	}
	return len(paths), nil
}

// errStopped ends a what-if's decode inside an update at WhatIf.StopAt.
var errStopped = errors.New("stopped at the what-if's StopAt")

// valueError says which value ran past the end of the data.
func valueError(p *fieldpath.Path, dec *decoder.Decoder, r *bitio.Reader) error {
	return fmt.Errorf("value of path %s (%s): %w", p, dec.Family, r.Err())
}
