package session

import (
	"errors"
	"fmt"
	"io"
	"sort"
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
	Err        string    // decoding broke inside this command
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
	Name  string
	Size  int  // body bytes
	Bit   uint // header bit in the packet data
	PE    *PEInfo
}

// PEInfo summarises one packet-entities message.
type PEInfo struct {
	Updates  []UpdateInfo
	DataBits uint
	EndBit   uint
	Delta    bool
	Skipped  bool // a repeated full frame, not applied
	Err      string
	First    int     // index into Index.Updates of Updates[0]
	names    []int32 // field-name ids, per update in [UpdateInfo.names, +Fields)

	// Diagnostics (package diagnose) of the message as the index pass
	// decoded it.
	Sev     diagnose.Severity   // the worst anomaly of any field
	sev     []diagnose.Severity // per field, parallel to names
	Problem string              // the message-level anomaly (misaligned, bad deletions), if any
	// Suspect is the first suspicious field of a message with a problem:
	// update position and field within the update (-1: the update itself),
	// or SuspectUpd -1 for none.
	SuspectUpd, SuspectField int32
	SuspectWhy               string
	// findings are the message's anomalies (K holds the update's
	// position until Index.Append makes it the flat index).
	findings []Finding
}

// FieldSev returns the anomaly severity of field fi of update u.
func (pe *PEInfo) FieldSev(u, fi int) diagnose.Severity {
	if u < 0 || u >= len(pe.Updates) || fi < 0 || fi >= pe.Updates[u].Fields {
		return diagnose.SevNone
	}
	return pe.sev[int(pe.Updates[u].names)+fi]
}

// Graded counts the message's fields graded strong and weak.
func (pe *PEInfo) Graded() (strong, weak int) {
	for _, s := range pe.sev {
		switch s {
		case diagnose.SevStrong:
			strong++
		case diagnose.SevWeak:
			weak++
		}
	}
	return strong, weak
}

// FieldNames returns the interned field-name ids update u touched.
func (pe *PEInfo) FieldNames(u int) []int32 {
	if u < 0 || u >= len(pe.Updates) {
		return nil
	}
	n := pe.Updates[u].names
	return pe.names[n : int(n)+pe.Updates[u].Fields]
}

// UpdateInfo summarises one entity update.
type UpdateInfo struct {
	Entity  int32
	Serial  uint32
	Class   string
	Op      provenance.Op
	Fields  int
	Start   uint
	End     uint
	Skipped bool // PVS bits said the update carries no fields
	Err     string
	Sev     diagnose.Severity // the worst anomaly of its fields
	names   int32
}

// Bits is the update's length in the entity data.
func (u *UpdateInfo) Bits() uint {
	if u.End < u.Start {
		return 0
	}
	return u.End - u.Start
}

// AnomalyRef is one stop of the anomaly keys: a field with a strong anomaly
// or the first suspicious field of a message with a problem.
type AnomalyRef struct {
	K     int32 // index into Index.Updates
	Field int32 // field within the update; -1 for the update itself
	// Rule is the strong anomaly that makes the stop; "" for the suspect
	// of a message with a problem (never muted).
	Rule diagnose.Rule
}

// Finding is one anomaly of one field, strong or weak (a read by the
// default decoder is none): what the grouped list of anomalies counts.
type Finding struct {
	K      int32 // index into Index.Updates
	Field  int32 // field within the update; -1 for the update itself
	Rule   diagnose.Rule
	Strong bool
}

// MaxFindings bounds the findings an index keeps (a garbage file can trip
// a rule on every field).
const MaxFindings = 1 << 20

// IndexError is where the index pass stopped on bad input.
type IndexError struct {
	Command int // command index (-1 for the file header)
	Offset  int // byte offset in the file
	Tick    int32
	Text    string
}

// Index is what the index pass knows about the file so far.
type Index struct {
	Path     string
	Size     int
	Game     game.Game
	Build    int32
	Commands []Command
	Updates  []UpdateRef  // every entity update in file order
	Anoms    []AnomalyRef // anomaly stops in file order (see AnomalyRef)
	Findings []Finding    // every anomaly in file order, up to MaxFindings
	Names    []string     // interned field names
	Err      *IndexError
	EndNote  string // said at the end of the timeline (a file without DEM_Stop)
	Done     bool
	Pos      int // bytes indexed
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

// Update returns update k of message j of command i or nil.
func (ix *Index) Update(i, j, k int) *UpdateInfo {
	m := ix.Msg(i, j)
	if m == nil || m.PE == nil || k < 0 || k >= len(m.PE.Updates) {
		return nil
	}
	return &m.PE.Updates[k]
}

// FieldNames returns the interned field-name ids an update touched.
func (ix *Index) FieldNames(r UpdateRef) []int32 {
	m := ix.Msg(int(r.Cmd), int(r.Msg))
	if m == nil || m.PE == nil {
		return nil
	}
	return m.PE.FieldNames(int(r.Upd))
}

// FlatOf returns the position of an update in Updates, or -1.
func (ix *Index) FlatOf(cmd, msg, upd int) int {
	m := ix.Msg(cmd, msg)
	if m == nil || m.PE == nil || upd < 0 || upd >= len(m.PE.Updates) {
		return -1
	}
	return m.PE.First + upd
}

// Append adds a chunk of the index pass.
func (ix *Index) Append(ch *Chunk) {
	if ch.Game != game.Unknown {
		ix.Game = ch.Game
	}
	if ch.Build != 0 {
		ix.Build = ch.Build
	}
	ix.Names = append(ix.Names, ch.Names...)
	for _, c := range ch.Commands {
		c.First = len(ix.Updates)
		for j := range c.Msgs {
			pe := c.Msgs[j].PE
			if pe == nil {
				continue
			}
			pe.First = len(ix.Updates)
			for k := range pe.Updates {
				ix.Updates = append(ix.Updates, UpdateRef{int32(len(ix.Commands)), int32(j), int32(k)})
			}
			ix.Anoms = appendStops(ix.Anoms, pe)
			for _, f := range pe.findings {
				if len(ix.Findings) < MaxFindings {
					f.K += int32(pe.First)
					ix.Findings = append(ix.Findings, f)
				}
			}
			pe.findings = nil
			c.Sev = max(c.Sev, pe.Sev)
		}
		c.NumUpdates = len(ix.Updates) - c.First
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
}

// appendStops adds a message's anomaly stops in field order: every field
// with a strong anomaly, and the suspect of a message with a problem.
func appendStops(out []AnomalyRef, pe *PEInfo) []AnomalyRef {
	suspect := pe.SuspectUpd >= 0
	for u := range pe.Updates {
		if suspect && pe.SuspectUpd == int32(u) && pe.SuspectField < 0 {
			out = append(out, AnomalyRef{int32(pe.First + u), -1, ""})
			suspect = false
		}
		for fi := range pe.Updates[u].Fields {
			isSuspect := suspect && pe.SuspectUpd == int32(u) && pe.SuspectField == int32(fi)
			if isSuspect || pe.FieldSev(u, fi) == diagnose.SevStrong {
				var rule diagnose.Rule
				if !isSuspect {
					rule = pe.strongRule(u, fi)
				}
				out = append(out, AnomalyRef{int32(pe.First + u), int32(fi), rule})
			}
			if isSuspect {
				suspect = false
			}
		}
	}
	return out
}

// strongRule is the first strong rule found on field fi of update u.
func (pe *PEInfo) strongRule(u, fi int) diagnose.Rule {
	for _, f := range pe.findings {
		if f.K == int32(u) && f.Field == int32(fi) && f.Strong {
			return f.Rule
		}
	}
	return ""
}

// Chunk is what one step of the index pass found.
type Chunk struct {
	EndNote  string
	Commands []Command
	Names    []string
	Game     game.Game
	Build    int32
	Err      *IndexError
	Pos      int
	Done     bool
}

// Indexer runs the index pass in chunks. Only one goroutine uses it at a
// time: the next chunk is requested after the previous one arrived.
type Indexer struct {
	data    []byte
	aliases schema.Aliases
	r       *replay.Replay
	rec     provenance.Message
	cur     *Command
	out     []Command
	names   map[string]int32
	fresh   []string
	done    bool

	lastKind  container.Kind
	lastIndex int
}

// NewIndexer starts an index pass over a file's bytes.
func NewIndexer(data []byte, a schema.Aliases) *Indexer {
	return &Indexer{data: data, aliases: a, names: map[string]int32{}, lastKind: container.DemError, lastIndex: -1}
}

// errorAt converts any error into an IndexError.
func errorAt(err error, fallbackCmd, fallbackOff int) *IndexError {
	var re *replay.Error
	if errors.As(err, &re) {
		return &IndexError{Command: re.Loc.Command, Offset: re.Loc.Offset, Tick: re.Loc.Tick, Text: re.Error()}
	}
	var ce *container.Error
	if errors.As(err, &ce) {
		return &IndexError{Command: ce.Command, Offset: ce.Offset, Tick: ce.Tick, Text: ce.Error()}
	}
	return &IndexError{Command: fallbackCmd, Offset: fallbackOff, Tick: -1, Text: err.Error()}
}

func (ix *Indexer) open() error {
	r, err := replay.Open(ix.data)
	if err != nil {
		return err
	}
	r.Aliases = ix.aliases
	ix.r = r
	r.Hooks.Inner = ix.inner
	r.Hooks.Record = func(replay.Location) *provenance.Message { return &ix.rec }
	r.Hooks.Entities = ix.entities
	r.Hooks.Command = ix.command
	return nil
}

func (ix *Indexer) begin(loc replay.Location) *Command {
	if ix.cur == nil || ix.cur.Index != loc.Command {
		ix.cur = &Command{Index: loc.Command, Offset: loc.Offset, Kind: loc.Kind, Tick: loc.Tick}
	}
	return ix.cur
}

func (ix *Indexer) inner(loc replay.Location, m *messages.Inner) {
	c := ix.begin(loc)
	c.Msgs = append(c.Msgs, Message{
		Index: m.Index, Type: m.Type, Name: msgnames.Display(ix.r.Game, m.Type), Size: m.Size, Bit: m.Bit,
	})
}

func (ix *Indexer) intern(name string) int32 {
	id, ok := ix.names[name]
	if !ok {
		id = int32(len(ix.names))
		ix.names[name] = id
		ix.fresh = append(ix.fresh, name)
	}
	return id
}

func (ix *Indexer) entities(loc replay.Location, m *messages.PacketEntities, res entity.Result, rec *provenance.Message) {
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
	pe := &PEInfo{DataBits: uint(len(m.EntityData)) * 8, EndBit: res.EndBit, Delta: m.IsDelta, Skipped: res.Skipped, SuspectUpd: -1}
	if res.Err != nil {
		pe.Err = res.Err.Error()
	}
	if rec != nil {
		pe.Updates = make([]UpdateInfo, len(rec.Updates))
		pe.names = make([]int32, 0, len(rec.Fields))
		pe.sev = make([]diagnose.Severity, 0, len(rec.Fields))
		exists := diagnose.LookupIn(ix.r.Entities)
		for i, u := range rec.Updates {
			pe.Updates[i] = UpdateInfo{
				Entity: u.Index, Serial: u.Serial, Class: u.Class, Op: u.Op, Fields: u.NumFields,
				Start: u.Start, End: u.End, Skipped: u.Skipped, Err: u.Err, names: int32(len(pe.names)),
			}
			if u.End == 0 && u.Err != "" {
				pe.Updates[i].End = res.EndBit
			}
			for fi := range rec.Fields[u.FirstField : u.FirstField+u.NumFields] {
				f := &rec.Fields[u.FirstField+fi]
				pe.names = append(pe.names, ix.intern(f.Name))
				as := diagnose.Field(f, exists)
				sv := diagnose.Grade(as)
				for _, a := range as {
					if diagnose.Counted(a) {
						pe.findings = append(pe.findings, Finding{K: int32(i), Field: int32(fi), Rule: a.Rule, Strong: a.Score >= diagnose.Threshold})
					}
				}
				pe.sev = append(pe.sev, sv)
				pe.Updates[i].Sev = max(pe.Updates[i].Sev, sv)
			}
			pe.Sev = max(pe.Sev, pe.Updates[i].Sev)
		}
		if pe.Err == "" && rec.Err != "" {
			pe.Err = rec.Err
		}
		if res.Misaligned || rec.Err != "" || rec.BadDeletions > 0 {
			// Rare: the full report, for the message's problem and suspect.
			rep := diagnose.Message(rec, exists)
			if rep.End != nil {
				pe.Problem = rep.End.String()
				pe.Sev = diagnose.SevStrong
			}
			if s := rep.First; s != nil && s.Update >= 0 && s.Update < len(rec.Updates) {
				pe.SuspectUpd, pe.SuspectField, pe.SuspectWhy = int32(s.Update), -1, s.Reason
				if s.Field >= 0 {
					pe.SuspectField = int32(s.Field - rec.Updates[s.Update].FirstField)
				}
				if rep.End != nil {
					pe.findings = append(pe.findings, Finding{K: pe.SuspectUpd, Field: pe.SuspectField, Rule: rep.End.Rule, Strong: true})
				}
			}
		}
	}
	msg.PE = pe
}

func (ix *Indexer) command(c *container.Command) {
	cur := ix.begin(replay.Location{Command: c.Index, Offset: c.Offset, Kind: c.Kind, Tick: c.Tick})
	cur.Kind, cur.Tick, cur.Size, cur.Compressed = c.Kind, c.Tick, c.Size, c.Compressed
	ix.finish(cur)
}

func (ix *Indexer) finish(c *Command) {
	ix.lastKind, ix.lastIndex = c.Kind, c.Index
	sort.SliceStable(c.Msgs, func(a, b int) bool { return c.Msgs[a].Index < c.Msgs[b].Index })
	ix.out = append(ix.out, *c)
	ix.cur = nil
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
			ix.stop(ch, &IndexError{Command: cmd, Offset: off, Tick: -1, Text: fmt.Sprintf("internal error while decoding: %v", p)})
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
			// one ends in replay.ErrNoStop, below.
			ix.stop(ch, nil)
			return ch
		}
		if err != nil {
			off := ix.r.Pos()
			ie := errorAt(err, len(ix.out), off)
			ix.stop(ch, ie)
			return ch
		}
		if n&15 == 15 && time.Since(start) > budget {
			break
		}
	}
	ix.flush(ch)
	return ch
}

// stop ends the pass, keeping a partly decoded command with its error.
func (ix *Indexer) stop(ch *Chunk, ie *IndexError) {
	if ix.cur != nil && ie != nil && ix.cur.Index == ie.Command {
		ix.cur.Err = ie.Text
		ix.finish(ix.cur)
	}
	ix.cur = nil
	ch.Err = ie
	ix.done = true
	ch.Done = true
	ix.flush(ch)
}

func (ix *Indexer) flush(ch *Chunk) {
	ch.Commands, ix.out = ix.out, nil
	ch.Names, ix.fresh = ix.fresh, nil
	if ix.r != nil {
		ch.Game = ix.r.Game
		ch.Build = ix.r.Header.BuildNum
		ch.Pos = ix.r.Pos()
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
func (ix *Indexer) Schema() *schema.Schema {
	if ix.r == nil {
		return nil
	}
	return ix.r.Schema
}
