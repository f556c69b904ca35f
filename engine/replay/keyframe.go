package replay

import (
	"slices"
	"sort"
	"sync"
	"unsafe"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/stringtable"
)

// A Keyframe is the whole decoding state between two commands: entity
// table (a frozen copy of every entity's state, sharing the nodes that did
// not change with the keyframe before it), string tables, baselines,
// schema and the container position. Resume starts a decode from it that
// goes on exactly as the decode from the start did (TestKeyframesResume).
// A keyframe is never decoded itself, so any number of goroutines may
// resume from it at once.
type Keyframe struct {
	Command int   // index of the next command to decode
	Offset  int   // byte offset of that command
	Tick    int32 // tick of the last command decoded (-1 in signon)
	// Bytes estimates the memory this keyframe holds that the one before
	// it does not: the state nodes the decode had copied since, and the
	// keyframe's own tables (see KeyframeBytes).
	Bytes int64

	r *Replay
}

// Keyframe takes a keyframe where r stands (after the last command Step
// returned). The keyframe copies the entity state (entity.Table.Freeze),
// sharing with prev (an earlier keyframe of the same decode, or nil) every
// node that has not changed since; the decode goes on unchanged.
func (r *Replay) Keyframe(prev *Keyframe) *Keyframe {
	var pt *entity.Table
	if prev != nil {
		pt = prev.r.Entities
	}
	k := &Keyframe{Command: r.Stats.Commands, Offset: r.cr.Pos(), Tick: r.Tick, r: r.fork(r.Entities.Freeze(pt))}
	if prev != nil {
		shareEntries(k.r.Strings.Tables, prev.r.Strings.Tables)
	}
	k.r.Hooks = Hooks{}
	k.r.lent = true // every resume shares its schema (fork)
	return k
}

// Resume returns a replay positioned at the keyframe, with no hooks; what
// it decodes leaves the keyframe unchanged.
func (k *Keyframe) Resume() *Replay { return k.r.fork(k.r.Entities.Copy()) }

// Entities is the keyframe's entity table, to read and never to write.
func (k *Keyframe) Entities() *entity.Table { return k.r.Entities }

// KeyframeBytes estimates what keyframe k holds that prev (the keyframe
// before it, or nil) does not: every state node not shared with prev, its
// entity and string tables. Nodes shared with prev are found by pointer,
// entity by entity, so the walk costs what changed.
func KeyframeBytes(k, prev *Keyframe) int64 {
	n := int64(unsafe.Sizeof(entity.Table{})) + int64(unsafe.Sizeof(Replay{}))
	for i, e := range k.r.Entities.Entities {
		if e == nil {
			continue
		}
		n += int64(unsafe.Sizeof(entity.Entity{}))
		var old *entity.Node
		if prev != nil {
			if pe := prev.r.Entities.Entities[i]; pe != nil {
				old = pe.State
			}
		}
		n += e.State.SizeOutside(old)
	}
	for _, t := range k.r.Strings.Tables {
		n += int64(len(t.Entries)) * int64(unsafe.Sizeof(t.Entries[0]))
	}
	return n
}

// Keyframes collects keyframes while a file is decoded, about every
// Interval bytes of file, within a memory budget: when the keyframes
// together hold more than Budget bytes, every other one is dropped and the
// interval doubles. Safe for concurrent use: one goroutine adds (the
// decode), others find and resume.
type Keyframes struct {
	Interval int   // bytes of file between keyframes; 0: 1 MiB
	Budget   int64 // bytes all keyframes may hold; 0: no limit

	mu    sync.Mutex
	list  []*Keyframe // in file order
	bytes int64
	next  int  // file offset from which the next keyframe is due
	full  bool // Fill found the budget spent
}

// Observe takes a keyframe of r when one is due (call it between commands,
// after Step). It reports whether it took one.
func (ks *Keyframes) Observe(r *Replay) bool {
	if r.cr.Pos() < ks.next || r.Schema == nil {
		return false
	}
	ks.mu.Lock()
	var prev *Keyframe
	if n := len(ks.list); n > 0 {
		prev = ks.list[n-1]
	}
	ks.mu.Unlock()
	ks.Add(r.Keyframe(prev))
	return true
}

// Add adds a keyframe taken after the last one.
func (ks *Keyframes) Add(k *Keyframe) {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	if ks.Interval <= 0 {
		ks.Interval = 1 << 20
	}
	var prev *Keyframe
	if n := len(ks.list); n > 0 {
		prev = ks.list[n-1]
	}
	k.Bytes = KeyframeBytes(k, prev)
	ks.list = append(ks.list, k)
	ks.bytes += k.Bytes
	ks.next = k.Offset + ks.Interval
	for ks.Budget > 0 && ks.bytes > ks.Budget && len(ks.list) > 2 {
		ks.thin()
		ks.next = k.Offset + ks.Interval
	}
}

// thin drops every other keyframe (never the first) and doubles the
// interval. A dropped keyframe's own nodes pass to the next one kept, so
// the total shrinks by about the fixed part of each dropped one and the
// state changed twice within the new interval.
func (ks *Keyframes) thin() {
	kept := ks.list[:1]
	for i := 1; i < len(ks.list); i++ {
		if i%2 == 0 || i == len(ks.list)-1 {
			kept = append(kept, ks.list[i])
		}
	}
	for i := len(kept); i < len(ks.list); i++ {
		ks.list[i] = nil
	}
	ks.list = kept
	ks.bytes = 0
	for i, k := range ks.list {
		var prev *Keyframe
		if i > 0 {
			prev = ks.list[i-1]
		}
		k.Bytes = KeyframeBytes(k, prev)
		ks.bytes += k.Bytes
	}
	ks.Interval *= 2
}

// Fill takes a keyframe of r, a later decode of the same file from the
// start, midway between the keyframes kept: Interval/2 bytes or more after
// the keyframe before r's position and at least Interval/8 before the
// next. It inserts it in file order, within the budget (once a keyframe
// does not fit, Fill takes no more), and reports whether it took one. A
// first pass can so keep keyframes twice as far apart as seeks want, and a
// second pass it makes anyway (the debugger's grading) fill them in.
func (ks *Keyframes) Fill(r *Replay) bool {
	pos := r.cr.Pos()
	ks.mu.Lock()
	every := max(ks.Interval/2, 1)
	i := ks.after(pos)
	due := !ks.full && i > 0 && r.Schema != nil && pos-ks.list[i-1].Offset >= every &&
		(i == len(ks.list) || ks.list[i].Offset-pos >= every/4) && ks.list[i-1].Command < r.Stats.Commands
	var prev, next *Keyframe
	if due {
		prev = ks.list[i-1]
		if i < len(ks.list) {
			next = ks.list[i]
		}
	}
	ks.mu.Unlock()
	if !due {
		return false
	}
	// Outside the lock, seeks go on meanwhile. The keyframe after the new
	// one is made again to share what did not change since it (its nodes
	// are the same, read-only; only the ones alike in k are dropped).
	k := r.Keyframe(prev)
	k.Bytes = KeyframeBytes(k, prev)
	var renext *Keyframe
	if next != nil {
		rr := *next.r
		rr.Entities = next.r.Entities.Reshare(k.r.Entities)
		renext = &Keyframe{Command: next.Command, Offset: next.Offset, Tick: next.Tick, r: &rr}
		renext.Bytes = KeyframeBytes(renext, k)
	}
	ks.mu.Lock()
	defer ks.mu.Unlock()
	grown := k.Bytes
	if renext != nil {
		grown += renext.Bytes - next.Bytes
	}
	if ks.Budget > 0 && ks.bytes+grown > ks.Budget {
		ks.full = true
		return false
	}
	i = ks.after(pos)
	if renext != nil && i < len(ks.list) && ks.list[i] == next {
		ks.list[i] = renext
	} else {
		grown = k.Bytes
	}
	ks.list = slices.Insert(ks.list, i, k)
	ks.bytes += grown
	return true
}

// after is the position in the list of the first keyframe past file
// offset pos (call it with ks.mu held).
func (ks *Keyframes) after(pos int) int {
	return sort.Search(len(ks.list), func(i int) bool { return ks.list[i].Offset > pos })
}

// Before returns the last keyframe whose next command is at most command
// (resuming from it decodes command next), or nil.
func (ks *Keyframes) Before(command int) *Keyframe {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	i := sort.Search(len(ks.list), func(i int) bool { return ks.list[i].Command > command })
	if i == 0 {
		return nil
	}
	return ks.list[i-1]
}

// Len is the number of keyframes kept.
func (ks *Keyframes) Len() int {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	return len(ks.list)
}

// Bytes is what the keyframes kept hold, as KeyframeBytes estimates it.
func (ks *Keyframes) Bytes() int64 {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	return ks.bytes
}

// List returns the keyframes kept, in file order.
func (ks *Keyframes) List() []*Keyframe {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	return append([]*Keyframe(nil), ks.list...)
}

// shareEntries makes each string table of a keyframe share its entries
// with the keyframe before when they have not changed since (most tables
// do not change for minutes). Entries are never written in place by a
// keyframe's resumed decode: Set.Clone copies them first.
func shareEntries(tables, prev []*stringtable.Table) {
	for i, t := range tables {
		if i >= len(prev) || prev[i].Name != t.Name || len(prev[i].Entries) != len(t.Entries) {
			continue
		}
		same := true
		for j, e := range t.Entries {
			p := prev[i].Entries[j]
			if e.Index != p.Index || e.Key != p.Key || len(e.Value) != len(p.Value) || len(e.Value) > 0 && &e.Value[0] != &p.Value[0] {
				same = false
				break
			}
		}
		if same {
			t.Entries = prev[i].Entries
		}
	}
}
