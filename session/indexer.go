package session

import (
	"errors"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/gameevents"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/msgnames"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

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
	// Corrections: with Done, what the values showed of the corrections.
	Corrections []infer.CorrectionCheck
	// FirstMisaligned (with Done) is the decode's first misaligned
	// message, nil for none: where the inference starts (File.Infer).
	FirstMisaligned *Location
	Events          []EventInfo // game events found since the last chunk (events.go)
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

// chunkCommands bounds the commands of one chunk, whatever its time
// budget: the pass runs a few chunks ahead of the screen, and in a file of
// millions of tiny commands a chunk of a 100 ms budget held a million of
// them, several chunks of which waited at once.
const chunkCommands = 1 << 16

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
	curBuf    Command     // what cur points to: one command at a time
	msgBuf    []Message   // the current command's messages, reused
	msgSlab   []Message   // where commands' message lists are cut from
	listSlab  [][]Message // where the lists Command.msgs points to are cut from
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

	events gameevents.Tracker // the event list in force (events.go)
	evOut  []EventInfo
}

// newIndexer starts an index pass over a file's bytes.
func newIndexer(data []byte, a schema.Aliases) *Indexer {
	return &Indexer{data: data, aliases: a, classes: map[string]uint16{},
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
	p, err := openPass(start{data: ix.data, aliases: ix.aliases}, Visitor{Inner: ix.inner, Entities: ix.entities, Command: ix.command})
	if err != nil {
		return err
	}
	r := p.r
	ix.r = r
	r.Entities.Logging = true
	r.Entities.GatherEvidence()
	ix.logInto()
	return nil
}

func (ix *Indexer) begin(loc replay.Location) *Command {
	if ix.cur == nil || ix.cur.Index != loc.Command {
		ix.curBuf = Command{Index: loc.Command, Offset: loc.Offset, Kind: loc.Kind, Tick: loc.Tick}
		ix.msgBuf = ix.msgBuf[:0]
		ix.cur = &ix.curBuf
	}
	return ix.cur
}

func (ix *Indexer) inner(loc replay.Location, m *messages.Inner) {
	ix.begin(loc)
	ix.msgBuf = append(ix.msgBuf, Message{
		Index: m.Index, Type: m.Type, Name: msgnames.Display(ix.r.Game, m.Type), Size: m.Size, Bit: m.Bit,
		Novel: ix.r.Format.NotedAt(loc.Command, m.Index),
	})
	if m.Type == gameevents.ListMessage || m.Type == gameevents.EventMessage {
		ix.event(loc, m)
	}
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

func (ix *Indexer) entities(_ Ref, loc replay.Location, m *messages.PacketEntities, res entity.Result, _ *provenance.Message) {
	recs := ix.logged() // taken whatever happens: the next message logs after them
	ix.begin(loc)
	var msg *Message
	for j := len(ix.msgBuf) - 1; j >= 0; j-- {
		if ix.msgBuf[j].Index == loc.Message {
			msg = &ix.msgBuf[j]
			break
		}
	}
	if msg == nil {
		return
	}
	if len(ix.peSlab) == cap(ix.peSlab) {
		ix.peSlab = make([]PEInfo, 0, 1<<10)
	}
	ix.peSlab = append(ix.peSlab, PEInfo{DataBits: uint(len(m.EntityData)) * 8, EndBit: res.EndBit, Delta: m.IsDelta, Skipped: res.Skipped})
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
	var rec *provenance.Message
	p, err := openPass(start{ix.data, ix.aliases, ix.ks, loc.Command}, Visitor{Record: func(_ Ref, l Location) *provenance.Message {
		if l.Command == loc.Command && l.Message == loc.Message {
			rec = &provenance.Message{}
			return rec
		}
		return nil
	}})
	if err != nil {
		return nil
	}
	for p.r.Stats.Commands <= loc.Command {
		if _, err := p.Step(); err != nil {
			break
		}
	}
	return rec
}

func (ix *Indexer) command(c *container.Command) {
	cur := ix.begin(replay.Location{Command: c.Index, Offset: c.Offset, Kind: c.Kind, Tick: c.Tick})
	cur.Kind, cur.Tick, cur.Size, cur.Compressed = c.Kind, c.Tick, int32(c.Size), c.Compressed
	ix.finish(cur)
}

func (ix *Indexer) finish(c *Command) {
	if !slices.IsSortedFunc(ix.msgBuf, byInner) { // packet-entities messages are handed over last
		slices.SortStableFunc(ix.msgBuf, byInner)
	}
	cc := *c
	cc.msgs = ix.messages(ix.msgBuf)
	ix.msgBuf = ix.msgBuf[:0]
	if c == &ix.curBuf {
		ix.curBuf = Command{}
	}
	ix.out = append(growDouble(ix.out, 1), cc)
	ix.cur = nil
}

func byInner(a, b Message) int { return a.Index - b.Index }

// messages copies a command's messages into the slab and its list into the
// list slab (nil for none): two allocations for many commands, instead of
// a growing list for each.
func (ix *Indexer) messages(src []Message) *[]Message {
	if len(src) == 0 {
		return nil
	}
	if len(src) > cap(ix.msgSlab)-len(ix.msgSlab) {
		ix.msgSlab = make([]Message, 0, max(len(src), 1<<12))
	}
	if len(ix.listSlab) == cap(ix.listSlab) {
		ix.listSlab = make([][]Message, 0, 1<<10)
	}
	n := len(ix.msgSlab)
	ix.msgSlab = append(ix.msgSlab, src...)
	ix.listSlab = append(ix.listSlab, ix.msgSlab[n:n+len(src):n+len(src)])
	return &ix.listSlab[len(ix.listSlab)-1]
}

// Step runs the index pass for about budget and returns what it found.
// It never panics: a panic inside the engine becomes an error at the
// command being decoded.
func (ix *Indexer) Step(budget time.Duration) *Chunk {
	ch := &Chunk{}
	if ix.done {
		ch.Done = true
		return ch
	}
	over := false
	panicked := runStep(budget, 16, func() bool {
		if ix.r == nil {
			if err := ix.open(); err != nil {
				ix.stop(ch, errorAt(err, -1, 0))
				over = true
				return true
			}
		}
		_, err := ix.r.Step()
		if err == io.EOF {
			// The replay ends cleanly only after a DEM_Stop (Valve writes
			// DEM_SpawnGroups and DEM_FileInfo after it); a file without
			// one ends in replay.ErrNoStop, below. A broadcast capture
			// ends where its last fragment does: the timeline says where.
			ch.EndNote = ix.r.StopsAt()
			ix.stop(ch, nil)
			over = true
			return true
		}
		if err != nil {
			ix.stop(ch, errorAt(err, len(ix.out), ix.r.Pos()))
			over = true
			return true
		}
		ix.ks.Observe(ix.r)
		return len(ix.out) >= chunkCommands
	})
	if panicked != nil {
		cmd, off := -1, 0
		if ix.cur != nil {
			cmd, off = ix.cur.Index, ix.cur.Offset
		} else if ix.r != nil {
			off = ix.r.Pos()
		}
		ix.stop(ch, &IndexError{Command: cmd, Offset: off, Tick: -1, Err: panicked})
		return ch
	}
	if !over {
		ix.flush(ch)
	}
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
		ix.finish(ix.cur) // the partly decoded command; Index.ErrAt names its error
	}
	ix.cur = nil
	ch.Err = ie
	ix.done = true
	ch.Done = true
	ix.flush(ch)
	ch.Values = JudgedValues(ix.r)
	ch.Corrections = infer.CorrectionEvidence(ix.r)
	if ix.r != nil && ix.r.FirstMisaligned != nil {
		loc := ix.r.FirstMisaligned.Loc
		ch.FirstMisaligned = &loc
	}
	ix.r = nil // the pass's decoding state is garbage now; keyframes stay
}

func (ix *Indexer) flush(ch *Chunk) {
	// The next chunk's list at about this one's length (grown by doubling,
	// it would be copied and dropped as often as it doubles), up to a few
	// MiB: a file of millions of tiny commands makes chunks of millions.
	ch.Commands, ix.out = ix.out, make([]Command, 0, min(len(ix.out)+len(ix.out)/4, chunkCommands))
	ch.Classes, ix.fresh = ix.fresh, nil
	ch.Events, ix.evOut = ix.evOut, nil
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
	in := newIndexer(data, schema.Aliases{})
	for !ix.Done {
		ix.Append(in.Step(time.Hour))
	}
	return ix
}

// Schema is the file's schema once the index pass has read it, or nil.
func (ix *Indexer) Schema() *schema.Schema { return ix.schema }
