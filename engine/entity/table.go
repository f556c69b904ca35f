package entity

import (
	"bytes"
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"

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
	spare      spares      // the nodes below them, once a create reuses one (recycle.go)
	dead       []*Entity   // the entities whose nodes free keeps, for creates to reuse
	spareMemos []*memoSet  // their memo sets, for entities that need one
	shared     atomic.Bool // its nodes were handed out: not to be released (reuse.go); set by Copy, which goroutines call at once on a keyframe's table
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
	n := t.spare.alloc(0, min(len(c.Serializer.Fields), DenseSlots), 0)
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
	rd := reading{
		r: r, rec: rec, msg: m,
		memos:    t.whatIf == nil && !t.FreshPaths,
		log:      t.Logging,
		evidence: t.Evidence != nil && t.whatIf == nil,
	}
	// An update whose paths repeat one of its entity's hot memos (memo.go),
	// most updates, is read right here: the general path's calls and checks
	// cost more than reading its values.
	fast := rec == nil && rd.memos
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
		index, e, at, err = t.update(&rd, u, header{start: start, index: index, delta: delta, cmd: cmd, bits: hb}, &res)
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

// update decodes update u of rd's message the general way (the fast path
// of Apply takes the hot-memo updates): its header, whose index delta and
// command h holds, read from a window after the previous entity's index,
// then a create, an update with the entity's memos, or a leave or delete.
// It counts the update in res and returns the entity's index and, when the
// update fails, the entity involved (if known), the bit to locate the
// error at and the error.
func (t *Table) update(rd *reading, u int, h header, res *Result) (int32, *Entity, uint, error) {
	r, rec, m := rd.r, rd.rec, rd.msg
	start, index, delta, cmd, hb := h.start, h.index, h.delta, h.cmd, h.bits
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
		rd.update = -1 // index of this update's record
		if rec != nil {
			rd.update = len(rec.Updates) - 1
		}
		var err error
		if cmd&2 != 0 { // a create's paths do not repeat: no memo
			nf, err = t.readFields(rd, &e.State, e.Class, e.owner, nil, !m.IsDelta)
		} else {
			nf, err = t.entityFields(rd, e)
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
	if rd.log {
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
