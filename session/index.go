package session

import (
	"slices"
	"sort"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/replay"
)

// Command is one demo command as the index pass saw it. The index holds one
// for every command of the file, millions in a file of tiny commands, so
// it is kept to 48 bytes: its messages behind one pointer into the
// indexer's slab (Msgs), its update count summed from them (NumUpdates),
// the error the pass stopped with on the Index (Index.ErrAt).
type Command struct {
	Index      int
	Offset     int
	First      int        // index into Index.Updates of this command's first update
	msgs       *[]Message // inner messages of a packet, in file order; nil for none
	Tick       int32
	Size       int32
	Kind       container.Kind
	Compressed bool
	// Sev is the worst anomaly of its messages' fields; strong as well when
	// a message misaligned.
	Sev diagnose.Severity
}

// Msgs are the command's inner messages in file order (nil for none).
func (c Command) Msgs() []Message {
	if c.msgs == nil {
		return nil
	}
	return *c.msgs
}

// NumUpdates is the number of entity updates the command's messages hold.
func (c Command) NumUpdates() int {
	n := 0
	for _, m := range c.Msgs() {
		if m.PE != nil {
			n += len(m.PE.Updates)
		}
	}
	return n
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
	// Suspect is the first suspicious read of a message with a problem
	// (At: its update, and its field within the update, -1 for the update
	// itself), nil for none: the grading pass's, or the first suspect
	// check names once the TUI has it (File.FirstSuspect).
	Suspect *Suspect
	// fieldSev holds the graded fields' severities, by the field's Ref:
	// only those with an anomaly, a few in a whole file.
	fieldSev map[Ref]diagnose.Severity
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

// FieldSev returns the anomaly severity of the field at r, a field of
// this message.
func (pe *PEInfo) FieldSev(r Ref) diagnose.Severity {
	if pe.fieldSev == nil {
		return diagnose.SevNone
	}
	return pe.fieldSev[r]
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
	At   Ref // the field (Field -1: the update itself)
	Name string
	// Rule is the strong anomaly that makes the stop; "" for the suspect
	// of a message with a problem (never muted).
	Rule diagnose.Rule
}

// FieldAnomaly is one anomaly of one field, strong or weak (a read by the
// default decoder is none): what the grouped list of anomalies counts.
type FieldAnomaly struct {
	At     Ref // the field (Field -1: the update itself)
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
	Anoms    []AnomalyRef   // anomaly stops in file order (see AnomalyRef), as graded so far
	Findings []FieldAnomaly // every anomaly in file order, up to MaxFindings, as graded so far
	Values   Verdicts       // once Done, the unknown types whose values show them read wrongly (values.go)
	// Corrections are, once Done, what the file's values say of each
	// correction of decoder choice its fields read (values.go).
	Corrections []infer.CorrectionCheck
	// FirstMisaligned is, once Done, the decode's first misaligned
	// message (nil for none), where the inference starts.
	FirstMisaligned *Location
	Classes         []string    // class names by the ids in UpdateInfo
	Events          []EventInfo // game events in file order (events.go)
	Err             *IndexError
	EndNote         string // said at the end of the timeline (a file without DEM_Stop)
	Done            bool
	Pos             int // bytes indexed
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
// file in file order), no field selected, by a binary search over the
// messages; None when there is no update k.
func (ix *Index) Ref(k int) Ref {
	i := sort.Search(len(ix.pes), func(i int) bool { return int(ix.pes[i].first) > k }) - 1
	if i < 0 || k < 0 || k >= ix.numUpdates {
		return None
	}
	p := ix.pes[i]
	return Ref{int(p.cmd), int(p.msg), k - int(p.first), -1}
}

// ClassName names an update's class ("" when the index has none).
func (ix *Index) ClassName(u *UpdateInfo) string {
	if u == nil || int(u.Class) >= len(ix.Classes) {
		return ""
	}
	return ix.Classes[u.Class]
}

// ErrAt is the error the index pass stopped with inside command i, or nil.
func (ix *Index) ErrAt(i int) *IndexError {
	if ix.Err != nil && ix.Err.Command == i {
		return ix.Err
	}
	return nil
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
	if c == nil || j < 0 || j >= len(c.Msgs()) {
		return nil
	}
	return &c.Msgs()[j]
}

// msgByInner returns the position of the message with inner index inner
// in command i, or -1: for a message the index lists but the pass runner
// does not hand over (an event's, EventRef).
func (ix *Index) msgByInner(i, inner int) int {
	c := ix.Cmd(i)
	if c == nil {
		return -1
	}
	j := sort.Search(len(c.Msgs()), func(j int) bool { return c.Msgs()[j].Index >= inner })
	if j < len(c.Msgs()) && c.Msgs()[j].Index == inner {
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

// FlatOf returns the position of r's update in the flat order, or -1.
func (ix *Index) FlatOf(r Ref) int {
	m := ix.Msg(r.Cmd, r.Msg)
	if m == nil || m.PE == nil || r.Upd < 0 || r.Upd >= len(m.PE.Updates) {
		return -1
	}
	return m.PE.First + r.Upd
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
	ix.Events = append(ix.Events, ch.Events...)
	ix.Commands = growTo(ix.Commands, len(ch.Commands), ch.Pos, ix.Size)
	for _, c := range ch.Commands {
		c.First = ix.numUpdates
		ci := int32(len(ix.Commands))
		msgs := c.Msgs()
		for j := range msgs {
			pe := msgs[j].PE
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
		ix.Corrections = ch.Corrections
	}
	if ch.FirstMisaligned != nil {
		ix.FirstMisaligned = ch.FirstMisaligned
	}
}

// growDouble makes room for n more elements of s, doubling its capacity
// when it must grow: append grows a large slice by a quarter, which for a
// list with an entry per command or per packet-entities message (200 K
// commands of a 100 MB replay) copies and drops five times what it ends up
// holding. The index's own command list grows by growTo.
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
