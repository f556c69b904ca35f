package session

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/msgnames"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// Command is one demo command as the index pass saw it.
type Command struct {
	Index      int
	Offset     int
	Kind       container.Kind
	Tick       int32
	Size       int
	Compressed bool
	Msgs       []Message // inner messages of a packet, in file order
	Err        error     // decoding broke inside this command
	First      int       // index into Index.Updates of this command's first update
	NumUpdates int
	// Sev is the worst anomaly of its messages' fields; strong as well when
	// a message misaligned.
	Sev diagnose.Severity
}

// Message is one inner message of a packet.
type Message struct {
	Index int // position in the packet
	Type  uint32
	// Novel: the message carries a field number, or is of a type, that
	// no definition dembug knows names (engine/knownfmt).
	Novel bool
	Name  string
	Size  int  // body bytes
	Bit   uint // header bit in the packet data
	PE    *PEInfo
}

// PEInfo summarises one packet-entities message.
type PEInfo struct {
	Updates []UpdateInfo
	// UpdatesEnd is the bit after the last update: each other update ends
	// where the next starts (UpdateEnd).
	UpdatesEnd uint32
	DataBits   uint
	EndBit     uint
	Delta      bool
	Skipped    bool // a repeated full frame, not applied
	Err        error
	First      int // index into the index's flat update order of Updates[0]

	// Diagnostics (package diagnose) of the message, from the grading
	// pass (Grader), which decodes the file again recording every field
	// after the index pass; a message that misaligned is strong at once.
	Sev     diagnose.Severity // the worst anomaly of any field
	Problem string            // the message-level anomaly (misaligned, bad deletions), if any
	// Suspect is the first suspicious field of a message with a problem:
	// update position and field within the update (-1: the update itself),
	// or SuspectUpd -1 for none; SuspectName is the field's name.
	SuspectUpd, SuspectField int32
	SuspectWhy, SuspectName  string
	// fieldSev holds the graded fields' severities, by update<<16|field:
	// only those with an anomaly, a few in a whole file.
	fieldSev map[uint32]diagnose.Severity
}

// UpdateEnd is the bit after update k: where the next one starts.
func (pe *PEInfo) UpdateEnd(k int) uint32 {
	if k+1 < len(pe.Updates) {
		return pe.Updates[k+1].Start
	}
	return pe.UpdatesEnd
}

// UpdateBits is the length of update k in the entity data.
func (pe *PEInfo) UpdateBits(k int) uint {
	if k < 0 || k >= len(pe.Updates) {
		return 0
	}
	if end := pe.UpdateEnd(k); end > pe.Updates[k].Start {
		return uint(end - pe.Updates[k].Start)
	}
	return 0
}

// FieldSev returns the anomaly severity of field fi of update u.
func (pe *PEInfo) FieldSev(u, fi int) diagnose.Severity {
	if pe.fieldSev == nil || u < 0 || fi < 0 || fi >= 1<<16 {
		return diagnose.SevNone
	}
	return pe.fieldSev[uint32(u)<<16|uint32(fi)]
}

// Graded counts the message's fields graded strong and weak.
func (pe *PEInfo) Graded() (strong, weak int) {
	for _, s := range pe.fieldSev {
		switch s {
		case diagnose.SevStrong:
			strong++
		case diagnose.SevWeak:
			weak++
		}
	}
	return strong, weak
}

// UpdateInfo summarises one entity update in 12 bytes, as the entity
// table logs it: the index holds one per update of the file (7.7 million
// in a 100 MB Dota 2 replay), cut from shared slabs the table appends to
// directly. Its Class is the index's class id (Index.ClassName), renumbered
// from the table's when its message ends. Serials, field names and values
// come from the live decoder (Detail).
type UpdateInfo = entity.UpdateRecord

// The index's marks in UpdateInfo.Flags, beside entity.RecordSkipped.
const (
	updErr      = 1 << 1
	updSevShift = 4 // two bits of diagnose.Severity
)

// UpdateFailed reports whether decoding broke inside the update (its
// message's Err says how).
func UpdateFailed(u *UpdateInfo) bool { return u.Flags&updErr != 0 }

// UpdateSev is the worst anomaly of the update's fields, once graded.
func UpdateSev(u *UpdateInfo) diagnose.Severity { return diagnose.Severity(u.Flags >> updSevShift & 3) }

func setUpdateSev(u *UpdateInfo, s diagnose.Severity) {
	u.Flags = u.Flags&^(3<<updSevShift) | uint8(s&3)<<updSevShift
}

// AnomalyRef is one stop of the anomaly keys: a field with a strong anomaly
// or the first suspicious field of a message with a problem.
type AnomalyRef struct {
	K     int32 // the update's flat position (Index.Ref)
	Field int32 // field within the update; -1 for the update itself
	Name  string
	// Rule is the strong anomaly that makes the stop; "" for the suspect
	// of a message with a problem (never muted).
	Rule diagnose.Rule
}

// Finding is one anomaly of one field, strong or weak (a read by the
// default decoder is none): what the grouped list of anomalies counts.
type Finding struct {
	K      int32 // the update's flat position (Index.Ref)
	Field  int32 // field within the update; -1 for the update itself
	Rule   diagnose.Rule
	Strong bool
	Name   string // the field's name
}

// MaxFindings bounds the findings an index keeps (a garbage file can trip
// a rule on every field).
const MaxFindings = 1 << 20

// IndexError is where the index pass stopped on bad input, and why.
type IndexError struct {
	Command int // command index (-1 for the file header)
	Offset  int // byte offset in the file
	Tick    int32
	Err     error
}

func (e *IndexError) Error() string { return e.Err.Error() }

func (e *IndexError) Unwrap() error { return e.Err }

// Index is what the index pass knows about the file so far.
type Index struct {
	Path     string
	Size     int
	Game     game.Game
	Build    int32
	Commands []Command
	Anoms    []AnomalyRef // anomaly stops in file order (see AnomalyRef), as graded so far
	Findings []Finding    // every anomaly in file order, up to MaxFindings, as graded so far
	Values   Verdicts     // once Done, the unknown types whose values show them read wrongly (values.go)
	Classes  []string     // class names by the ids in UpdateInfo
	Err      *IndexError
	EndNote  string // said at the end of the timeline (a file without DEM_Stop)
	Done     bool
	Pos      int // bytes indexed
	// Keyframes are the decoding states the index pass took on its way,
	// which the live decoder and searches resume from.
	Keyframes *replay.Keyframes
	// Grading is the grading pass's progress: bytes graded, and whether it
	// has ended.
	GradePos   int
	GradeDone  bool
	numUpdates int
	pes        []peRef // every packet-entities message with updates, in file order
}

// peRef places a message's updates in the flat order.
type peRef struct {
	first    int32
	cmd, msg int32
}

// NumUpdates is the number of entity updates indexed.
func (ix *Index) NumUpdates() int { return ix.numUpdates }

// Ref returns the place of update k of the flat order (every update of the
// file in file order), by a binary search over the messages.
func (ix *Index) Ref(k int) UpdateRef {
	i := sort.Search(len(ix.pes), func(i int) bool { return int(ix.pes[i].first) > k }) - 1
	if i < 0 || k >= ix.numUpdates {
		return UpdateRef{-1, -1, -1}
	}
	p := ix.pes[i]
	return UpdateRef{p.cmd, p.msg, int32(k) - p.first}
}

// ClassName names an update's class ("" when the index has none).
func (ix *Index) ClassName(u *UpdateInfo) string {
	if u == nil || int(u.Class) >= len(ix.Classes) {
		return ""
	}
	return ix.Classes[u.Class]
}

// Cmd returns command i or nil.
func (ix *Index) Cmd(i int) *Command {
	if i < 0 || i >= len(ix.Commands) {
		return nil
	}
	return &ix.Commands[i]
}

// Msg returns message j of command i or nil.
func (ix *Index) Msg(i, j int) *Message {
	c := ix.Cmd(i)
	if c == nil || j < 0 || j >= len(c.Msgs) {
		return nil
	}
	return &c.Msgs[j]
}

// MsgByInner returns the position of the message with inner index inner in
// command i, or -1.
func (ix *Index) MsgByInner(i, inner int) int {
	c := ix.Cmd(i)
	if c == nil {
		return -1
	}
	j := sort.Search(len(c.Msgs), func(j int) bool { return c.Msgs[j].Index >= inner })
	if j < len(c.Msgs) && c.Msgs[j].Index == inner {
		return j
	}
	return -1
}

// Update returns update k of message j of command i or nil.
func (ix *Index) Update(i, j, k int) *UpdateInfo {
	m := ix.Msg(i, j)
	if m == nil || m.PE == nil || k < 0 || k >= len(m.PE.Updates) {
		return nil
	}
	return &m.PE.Updates[k]
}

// FlatOf returns the position of an update in the flat order, or -1.
func (ix *Index) FlatOf(cmd, msg, upd int) int {
	m := ix.Msg(cmd, msg)
	if m == nil || m.PE == nil || upd < 0 || upd >= len(m.PE.Updates) {
		return -1
	}
	return m.PE.First + upd
}

// CommandAtTick is the first command whose tick is at least t, or -1: a
// binary search (ticks never go down in a file).
func (ix *Index) CommandAtTick(t int32) int {
	i := sort.Search(len(ix.Commands), func(i int) bool { return ix.Commands[i].Tick >= t })
	if i == len(ix.Commands) {
		return -1
	}
	return i
}

// Append adds a chunk of the index pass.
func (ix *Index) Append(ch *Chunk) {
	if ch.Game != game.Unknown {
		ix.Game = ch.Game
	}
	if ch.Build != 0 {
		ix.Build = ch.Build
	}
	if ch.Keyframes != nil {
		ix.Keyframes = ch.Keyframes
	}
	ix.Classes = append(ix.Classes, ch.Classes...)
	ix.Commands = growTo(ix.Commands, len(ch.Commands), ch.Pos, ix.Size)
	for _, c := range ch.Commands {
		c.First = ix.numUpdates
		ci := int32(len(ix.Commands))
		for j := range c.Msgs {
			pe := c.Msgs[j].PE
			if pe == nil {
				continue
			}
			pe.First = ix.numUpdates
			if len(pe.Updates) > 0 {
				ix.pes = append(growDouble(ix.pes, 1), peRef{int32(pe.First), ci, int32(j)})
			}
			ix.numUpdates += len(pe.Updates)
			c.Sev = max(c.Sev, pe.Sev)
		}
		c.NumUpdates = ix.numUpdates - c.First
		ix.Commands = append(ix.Commands, c)
	}
	if ch.Err != nil {
		ix.Err = ch.Err
	}
	if ch.EndNote != "" {
		ix.EndNote = ch.EndNote
	}
	ix.Pos = ch.Pos
	ix.Done = ch.Done
	if ch.Values != nil {
		ix.Values = ch.Values
	}
}

// growDouble makes room for n more elements of s, doubling its capacity
// when it must grow: append grows a large slice by a quarter, which for the
// index's command list (200 K commands of a 100 MB replay) copies and
// drops five times what it ends up holding.
func growDouble[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	return slices.Grow(s, max(n, cap(s), 256))
}

// growTo makes room for n more commands, indexed up to byte pos of size:
// to what the file will hold at this rate (a tenth more), not to twice what
// it holds, which for a file of millions of tiny commands allocated
// hundreds of MiB at once, and at most a few copies over the pass.
func growTo(s []Command, n, pos, size int) []Command {
	need := len(s) + n
	if need <= cap(s) {
		return s
	}
	want := need
	if pos > 0 && size > pos {
		want = int(min(int64(need)*int64(size)/int64(pos)*11/10, int64(2*need)))
	}
	return slices.Grow(s, max(want, need+256)-len(s))
}

// Chunk is what one step of the index pass found.
type Chunk struct {
	EndNote   string
	Commands  []Command
	Classes   []string // class names new since the last chunk
	Game      game.Game
	Build     int32
	Err       *IndexError
	Pos       int
	Done      bool
	Keyframes *replay.Keyframes
	Values    Verdicts // with Done: what unknown types' values showed (values.go)
}

// Keyframe settings of the index pass: a keyframe about every
// KeyframeInterval bytes of file at first, thinned (every other one
// dropped, the interval doubled) whenever they hold more than
// KeyframeBudget; the grading pass then fills in a keyframe midway
// between each two, within the budget (replay.Keyframes.Fill): the index
// pass, which the user waits for, freezes half as many. A keyframe of a
// Dota 2 game holds about 1 MiB beyond the one before (the values that
// changed), so a 100 MB replay keeps 48 keyframes 2 MiB apart after the
// index pass and about 95 a MiB apart after grading. See docs/memory.md.
const (
	KeyframeInterval = 2 << 20
	KeyframeBudget   = 112 << 20
)

// Indexer runs the index pass in chunks. Only one goroutine uses it at a
// time: the next chunk is requested after the previous one arrived.
//
// The pass decodes as check does, without recording: per update it keeps
// what entity.Table.OnUpdated says (UpdateInfo), and it takes keyframes.
// Field names, values and anomalies come later: from the live decoder for
// the message shown, from the grading pass (Grader) for the anomaly
// marks, from a search's own decode.
type Indexer struct {
	data      []byte
	aliases   schema.Aliases
	r         *replay.Replay
	ks        *replay.Keyframes
	cur       *Command
	curBuf    Command   // what cur points to: one command at a time
	msgBuf    []Message // the current command's messages, reused
	msgSlab   []Message // where commands' message lists are cut from
	out       []Command
	classes   map[string]uint16
	fresh     []string
	done      bool
	byID      []uint16        // the index's class ids by the table's, noID for none yet
	byIDOf    []*entity.Class // the table's classes byID was made for
	redecoded int
	slab      []UpdateInfo // where messages' update lists are cut from: the table appends to its tail
	peSlab    []PEInfo     // where packet-entities summaries are cut from

	schema *schema.Schema

	lastKind  container.Kind
	lastIndex int
}

// NewIndexer starts an index pass over a file's bytes.
func NewIndexer(data []byte, a schema.Aliases) *Indexer {
	return &Indexer{data: data, aliases: a, classes: map[string]uint16{}, lastKind: container.DemError, lastIndex: -1,
		ks: &replay.Keyframes{Interval: KeyframeInterval, Budget: KeyframeBudget}}
}

// Keyframes are the keyframes the pass has taken so far.
func (ix *Indexer) Keyframes() *replay.Keyframes { return ix.ks }

// errorAt locates an error: where a replay or container error says it
// happened, else at the fallback command and offset.
func errorAt(err error, fallbackCmd, fallbackOff int) *IndexError {
	var re *replay.Error
	if errors.As(err, &re) {
		return &IndexError{Command: re.Loc.Command, Offset: re.Loc.Offset, Tick: re.Loc.Tick, Err: err}
	}
	var ce *container.Error
	if errors.As(err, &ce) {
		return &IndexError{Command: ce.Command, Offset: ce.Offset, Tick: ce.Tick, Err: err}
	}
	return &IndexError{Command: fallbackCmd, Offset: fallbackOff, Tick: -1, Err: err}
}

func (ix *Indexer) open() error {
	r, err := replay.Open(ix.data)
	if err != nil {
		return err
	}
	r.Aliases = ix.aliases
	ix.r = r
	r.Hooks.Inner = ix.inner
	r.Hooks.Entities = ix.entities
	r.Hooks.Command = ix.command
	r.Entities.Logging = true
	r.Entities.GatherEvidence()
	ix.logInto()
	return nil
}

func (ix *Indexer) begin(loc replay.Location) *Command {
	if ix.cur == nil || ix.cur.Index != loc.Command {
		ix.curBuf = Command{Index: loc.Command, Offset: loc.Offset, Kind: loc.Kind, Tick: loc.Tick, Msgs: ix.msgBuf[:0]}
		ix.cur = &ix.curBuf
	}
	return ix.cur
}

func (ix *Indexer) inner(loc replay.Location, m *messages.Inner) {
	c := ix.begin(loc)
	c.Msgs = append(c.Msgs, Message{
		Index: m.Index, Type: m.Type, Name: msgnames.Display(ix.r.Game, m.Type), Size: m.Size, Bit: m.Bit,
		Novel: ix.r.Format.NotedAt(loc.Command, m.Index),
	})
}

// class is the index's id of a class name.
func (ix *Indexer) class(name string) uint16 {
	id, ok := ix.classes[name]
	if !ok {
		id = uint16(len(ix.classes))
		ix.classes[name] = id
		ix.fresh = append(ix.fresh, name)
	}
	return id
}

// noID marks a table class id byID has no index id for yet.
const noID = 1<<16 - 1

// renumber turns the table's class ids of a message's records into the
// index's (by name: a file may list its classes again, numbered anew).
func (ix *Indexer) renumber(recs []UpdateInfo) {
	classes := ix.r.Entities.Classes
	if len(classes) != len(ix.byIDOf) || len(classes) > 0 && &classes[0] != &ix.byIDOf[0] {
		ix.byIDOf, ix.byID = classes, slices.Repeat([]uint16{noID}, len(classes))
	}
	for i := range recs {
		id := recs[i].Class
		if int(id) < len(ix.byID) && ix.byID[id] != noID {
			recs[i].Class = ix.byID[id]
			continue
		}
		name := ""
		if int(id) < len(classes) && classes[id] != nil {
			name = classes[id].Name
		}
		recs[i].Class = ix.class(name)
		if int(id) < len(ix.byID) {
			ix.byID[id] = recs[i].Class
		}
	}
}

// Slabs the table logs updates into: a message whose updates outgrow the
// room left gets a list of its own (append moves it), the slab staying.
const (
	slabRecords = 1 << 17 // 1.5 MiB
	slabRoom    = 1 << 12 // a new slab below this much room
)

// logInto hands the table the slab's free tail to log the next message's
// updates into.
func (ix *Indexer) logInto() {
	if cap(ix.slab)-len(ix.slab) < slabRoom {
		ix.slab = make([]UpdateInfo, 0, slabRecords)
	}
	ix.r.Entities.Log = ix.slab[len(ix.slab):len(ix.slab)]
}

// logged takes the updates the table logged for a message: still in the
// slab's tail unless they outgrew it.
func (ix *Indexer) logged() []UpdateInfo {
	recs := ix.r.Entities.Log
	n := len(ix.slab)
	if len(recs) > 0 && cap(recs) == cap(ix.slab)-n && &recs[0] == &ix.slab[n : n+1][0] {
		ix.slab = ix.slab[:n+len(recs)]
		recs = ix.slab[n : n+len(recs) : n+len(recs)]
	}
	ix.logInto()
	return recs
}

func (ix *Indexer) entities(loc replay.Location, m *messages.PacketEntities, res entity.Result, _ *provenance.Message) {
	recs := ix.logged() // taken whatever happens: the next message logs after them
	c := ix.begin(loc)
	var msg *Message
	for j := len(c.Msgs) - 1; j >= 0; j-- {
		if c.Msgs[j].Index == loc.Message {
			msg = &c.Msgs[j]
			break
		}
	}
	if msg == nil {
		return
	}
	if len(ix.peSlab) == cap(ix.peSlab) {
		ix.peSlab = make([]PEInfo, 0, 1<<10)
	}
	ix.peSlab = append(ix.peSlab, PEInfo{DataBits: uint(len(m.EntityData)) * 8, EndBit: res.EndBit, Delta: m.IsDelta, Skipped: res.Skipped, SuspectUpd: -1})
	pe := &ix.peSlab[len(ix.peSlab)-1]
	ix.renumber(recs)
	if len(recs) > 0 {
		pe.UpdatesEnd = uint32(ix.r.Entities.LogEnd)
	}
	if res.Err != nil {
		pe.Err = res.Err
		recs = ix.broken(loc, res, recs, pe)
	}
	if res.Misaligned {
		pe.Sev, pe.Problem = diagnose.SevStrong, "misaligned"
	}
	if len(recs) == 0 {
		recs = nil
	}
	pe.Updates = recs
	msg.PE = pe
}

// broken accounts for the updates of a message decoding broke in: the
// update it broke in is logged by no one. The first few such messages are
// decoded again, recording, from the keyframe before them, for their exact
// account; past those it is the next update, from where the last ended to
// where decoding stopped.
func (ix *Indexer) broken(loc replay.Location, res entity.Result, recs []UpdateInfo, pe *PEInfo) []UpdateInfo {
	if ix.redecoded < maxRedecodes {
		ix.redecoded++
		if rec := ix.recordAgain(loc); rec != nil {
			out := make([]UpdateInfo, 0, len(rec.Updates))
			for _, u := range rec.Updates {
				ui := entity.NewUpdateRecord(u.Start, u.Index, ix.class(u.Class), u.NumFields, u.Op, u.Skipped)
				if u.Err != nil {
					ui.Flags |= updErr
				}
				out = append(out, ui)
			}
			if n := len(rec.Updates); n > 0 {
				pe.UpdatesEnd = uint32(rec.Updates[n-1].End)
				if rec.Updates[n-1].End == 0 && rec.Updates[n-1].Err != nil {
					pe.UpdatesEnd = uint32(res.EndBit) // broken before its end was known
				}
			}
			return out
		}
	}
	var ee *entity.Error
	if errors.As(res.Err, &ee) && ee.Update == len(recs) && ee.Entity >= 0 && ee.Entity < entity.MaxEntities {
		ui := UpdateInfo{Entity: int16(ee.Entity), Class: ix.class(ee.Class), Flags: updErr}
		if len(recs) > 0 {
			ui.Start = pe.UpdatesEnd
		}
		pe.UpdatesEnd = uint32(res.EndBit)
		// A list of its own: the slab's next record is the next message's.
		recs = append(recs[:len(recs):len(recs)], ui)
	}
	return recs
}

// maxRedecodes bounds the messages the index pass decodes again, recording,
// because decoding broke inside them (a patched replay breaks thousands).
const maxRedecodes = 16

// recordAgain decodes the message at loc again, recording it, from the
// keyframe before its command (or the start of the file).
func (ix *Indexer) recordAgain(loc replay.Location) *provenance.Message {
	var r *replay.Replay
	if k := ix.ks.Before(loc.Command); k != nil {
		r = k.Resume()
	} else {
		var err error
		if r, err = replay.Open(ix.data); err != nil {
			return nil
		}
		r.Aliases = ix.aliases
	}
	var rec *provenance.Message
	r.Hooks.Record = func(l replay.Location) *provenance.Message {
		if l.Command == loc.Command && l.Message == loc.Message {
			rec = &provenance.Message{}
			return rec
		}
		return nil
	}
	for r.Stats.Commands <= loc.Command {
		if _, err := r.Step(); err != nil {
			break
		}
	}
	return rec
}

func (ix *Indexer) command(c *container.Command) {
	cur := ix.begin(replay.Location{Command: c.Index, Offset: c.Offset, Kind: c.Kind, Tick: c.Tick})
	cur.Kind, cur.Tick, cur.Size, cur.Compressed = c.Kind, c.Tick, c.Size, c.Compressed
	ix.finish(cur)
}

func (ix *Indexer) finish(c *Command) {
	ix.lastKind, ix.lastIndex = c.Kind, c.Index
	if !slices.IsSortedFunc(c.Msgs, byInner) { // packet-entities messages are handed over last
		slices.SortStableFunc(c.Msgs, byInner)
	}
	cc := *c
	cc.Msgs = ix.messages(c.Msgs)
	if c == &ix.curBuf {
		ix.msgBuf = c.Msgs[:0]
		ix.curBuf = Command{}
	}
	ix.out = append(growDouble(ix.out, 1), cc)
	ix.cur = nil
}

func byInner(a, b Message) int { return a.Index - b.Index }

// messages copies a command's messages into the slab (nil for none): one
// allocation for many commands, instead of a growing list for each.
func (ix *Indexer) messages(src []Message) []Message {
	if len(src) == 0 {
		return nil
	}
	if len(src) > cap(ix.msgSlab)-len(ix.msgSlab) {
		ix.msgSlab = make([]Message, 0, max(len(src), 1<<12))
	}
	n := len(ix.msgSlab)
	ix.msgSlab = append(ix.msgSlab, src...)
	return ix.msgSlab[n : n+len(src) : n+len(src)]
}

// Step runs the index pass for about budget and returns what it found.
// It never panics: a panic inside the engine becomes an error at the
// command being decoded.
func (ix *Indexer) Step(budget time.Duration) (ch *Chunk) {
	ch = &Chunk{}
	defer func() {
		if p := recover(); p != nil {
			cmd, off := -1, 0
			if ix.cur != nil {
				cmd, off = ix.cur.Index, ix.cur.Offset
			} else if ix.r != nil {
				off = ix.r.Pos()
			}
			ix.stop(ch, &IndexError{Command: cmd, Offset: off, Tick: -1, Err: fmt.Errorf("internal error while decoding: %v", p)})
		}
	}()
	if ix.done {
		ch.Done = true
		return ch
	}
	if ix.r == nil {
		if err := ix.open(); err != nil {
			ix.stop(ch, errorAt(err, -1, 0))
			return ch
		}
	}
	start := time.Now()
	for n := 0; ; n++ {
		_, err := ix.r.Step()
		if err == io.EOF {
			// The replay ends cleanly only after a DEM_Stop (Valve writes
			// DEM_SpawnGroups and DEM_FileInfo after it); a file without
			// one ends in replay.ErrNoStop, below. A broadcast capture
			// ends where its last fragment does: the timeline says where.
			ch.EndNote = ix.r.StopsAt()
			ix.stop(ch, nil)
			return ch
		}
		if err != nil {
			off := ix.r.Pos()
			ie := errorAt(err, len(ix.out), off)
			ix.stop(ch, ie)
			return ch
		}
		ix.ks.Observe(ix.r)
		if n&15 == 15 && time.Since(start) > budget {
			break
		}
	}
	ix.flush(ch)
	return ch
}

// Run runs the pass on a goroutine of its own, the first step for about
// first and the others for about rest, sending each step's chunk on the
// returned channel (closed after the last): the pass never waits for its
// reader to take a chunk in, up to a few chunks ahead. stop ends it early.
func (ix *Indexer) Run(first, rest time.Duration) (chunks <-chan *Chunk, stop func()) {
	out := make(chan *Chunk, 4)
	quit := make(chan struct{})
	go func() {
		defer close(out)
		for budget := first; ; budget = rest {
			ch := ix.Step(budget)
			select {
			case out <- ch:
			case <-quit:
				return
			}
			if ch.Done {
				return
			}
		}
	}()
	var once sync.Once
	return out, func() { once.Do(func() { close(quit) }) }
}

// stop ends the pass, keeping a partly decoded command with its error.
func (ix *Indexer) stop(ch *Chunk, ie *IndexError) {
	if ix.cur != nil && ie != nil && ix.cur.Index == ie.Command {
		ix.cur.Err = ie
		ix.finish(ix.cur)
	}
	ix.cur = nil
	ch.Err = ie
	ix.done = true
	ch.Done = true
	ix.flush(ch)
	ch.Values = judgedValues(ix.r)
	ix.r = nil // the pass's decoding state is garbage now; keyframes stay
}

func (ix *Indexer) flush(ch *Chunk) {
	// The next chunk's list at about this one's length (grown by doubling,
	// it would be copied and dropped as often as it doubles), up to a few
	// MiB: a file of millions of tiny commands makes chunks of millions.
	ch.Commands, ix.out = ix.out, make([]Command, 0, min(len(ix.out)+len(ix.out)/4, 1<<16))
	ch.Classes, ix.fresh = ix.fresh, nil
	ch.Keyframes = ix.ks
	if ix.r != nil {
		ch.Game = ix.r.Game
		ch.Build = ix.r.Header.BuildNum
		ch.Pos = ix.r.Pos()
		ix.schema = ix.r.Schema
	}
	if ch.Done {
		ch.Pos = len(ix.data)
	}
}

// BuildIndex runs the whole index pass at once (tests, benchmarks).
func BuildIndex(path string, data []byte) *Index {
	ix := &Index{Path: path, Size: len(data)}
	in := NewIndexer(data, schema.Aliases{})
	for !ix.Done {
		ix.Append(in.Step(time.Hour))
	}
	return ix
}

// Schema is the file's schema once the index pass has read it, or nil.
func (ix *Indexer) Schema() *schema.Schema { return ix.schema }
