package session

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// Detail is one packet-entities message decoded with full provenance, and
// the states of the entities it touched.
type Detail struct {
	Cmd, Msg int // command index and message position (not the inner index)
	Tick     int32
	Rec      *provenance.Message
	Data     []byte // the message's entity data
	Snaps    []EntitySnap
	Err      string // the decode could not reach this message
	// Report is the diagnosis of Rec: anomalies per field, whether the
	// message misaligned and its first suspicious field.
	Report diagnose.Report
	// ClassIDBits is the width of a create's class id, from MaxClasses
	// (svc_ServerInfo's max_classes): floor(log2 max_classes) + 1.
	ClassIDBits uint
	MaxClasses  int32
	// baselines are the instance baselines the message's creates start
	// from (Baseline).
	baselines *baselineSet
}

// baselineSet keeps the baselines of the classes a message creates, raw,
// and records each when first asked for: the inspector shows one at a
// time, and recording all of a Dota 2 full frame's 200 classes up front
// was a third of its load.
type baselineSet struct {
	mu       sync.Mutex
	raw      map[int32]rawBaseline
	strings  *decoder.Pool // the table's, which string values are interned in
	recorder *entity.BaselineRecorder
	recorded map[int32]Baseline
}

type rawBaseline struct {
	class *entity.Class
	data  []byte
}

// Baseline is the instance baseline the message's creates of class classID
// start from, decoded with recording on (offsets inside the baseline); ok
// is false for a class the message does not create or that has none. Safe
// for concurrent use.
func (d *Detail) Baseline(classID int32) (b Baseline, ok bool) {
	set := d.baselines
	if set == nil {
		return Baseline{}, false
	}
	set.mu.Lock()
	defer set.mu.Unlock()
	if b, ok := set.recorded[classID]; ok {
		return b, true
	}
	raw, ok := set.raw[classID]
	if !ok {
		return Baseline{}, false
	}
	if set.recorder == nil {
		set.recorder = entity.NewBaselineRecorder(set.strings)
	}
	rec, err := set.recorder.Record(raw.class, raw.data)
	if rec == nil {
		return Baseline{}, false
	}
	b = Baseline{Rec: rec, Data: raw.data, Err: err}
	if set.recorded == nil {
		set.recorded = map[int32]Baseline{}
	}
	set.recorded[classID] = b
	return b, true
}

// Baseline is one class's instance baseline as recorded.
type Baseline struct {
	Rec  *provenance.Message
	Data []byte
	Err  error // the baseline did not decode to its end
}

// Node is an entity's state: values and nested serializers, by field
// path position.
type Node = entity.Node

// EntitySnap is an entity's state after one update (and, derived on
// demand, before it).
type EntitySnap struct {
	Serial uint32
	Class  string
	Ser    *schema.Serializer
	After  *Node
	before *Node
}

// snapsAfter keeps the state, after the message, of every entity its
// updates touched: shared with the live table, which copies a node before
// it next writes there (no deep copy per update: a wide entity costs
// nothing until written again).
func snapsAfter(rec *provenance.Message, t *entity.Table) []EntitySnap {
	snaps := make([]EntitySnap, len(rec.Updates))
	for i, u := range rec.Updates {
		s := &snaps[i]
		s.Serial, s.Class = u.Serial, u.Class
		e := t.Entities[u.Index]
		if e == nil || e.Class == nil {
			continue
		}
		s.Ser = e.Class.Serializer
		s.After = t.ShareState(u.Index)
	}
	return snaps
}

// Before returns the entity state before update u: the state after it with
// every field the update wrote set back to its previous value (a copy of
// the nodes on those paths only).
func (d *Detail) Before(u int) *Node {
	if u < 0 || u >= len(d.Snaps) || d.Snaps[u].After == nil {
		return nil
	}
	s := &d.Snaps[u]
	if s.before == nil {
		fs := d.Rec.UpdateFields(u)
		s.before = s.After.Edit(func(set func([]int32, decoder.Value)) {
			for i := len(fs) - 1; i >= 0; i-- {
				set(fs[i].Path.Slice(), fs[i].Prev)
			}
		})
	}
	return s.before
}

// LiveDecoder keeps a live replay positioned after the last decoded command, so
// stepping forward is cheap; going back, or far forward, resumes from the
// index pass's last keyframe before the message (the start of the file
// when there is none), unless the message is in the small cache. Load is
// safe for concurrent use; requests superseded by a newer generation
// return early.
type LiveDecoder struct {
	mu      sync.Mutex
	data    []byte
	aliases schema.Aliases
	ks      *replay.Keyframes
	p       *Pass
	last    int // index of the last command decoded, -1 before any
	cache   []*Detail
	latest  atomic.Uint64
}

const detailCacheSize = 24

// newLiveDecoder returns a live decoder over a file's bytes.
func newLiveDecoder(data []byte, a schema.Aliases) *LiveDecoder {
	return &LiveDecoder{data: data, aliases: a, last: -1}
}

// UseKeyframes makes the decoder resume from keyframes (the index pass's,
// taken under the same aliases).
func (d *LiveDecoder) UseKeyframes(ks *replay.Keyframes) {
	d.mu.Lock()
	d.ks = ks
	d.mu.Unlock()
}

// ErrStale is Load's answer to a request a newer generation superseded.
var ErrStale = errors.New("superseded")

// Supersede marks every request older than gen stale: Load drops them as
// soon as it notices.
func (d *LiveDecoder) Supersede(gen uint64) { d.latest.Store(gen) }

// Load decodes the packet-entities message at (at.Cmd, at.Msg; the update
// and field of at are not needed).
func (d *LiveDecoder) Load(gen uint64, at Ref) (det *Detail, err error) {
	cmd, msg := at.Cmd, at.Msg
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, c := range d.cache {
		if c.Cmd == cmd && c.Msg == msg {
			copy(d.cache[1:i+1], d.cache[:i])
			d.cache[0] = c
			return c, nil
		}
	}
	if gen < d.latest.Load() {
		return nil, ErrStale
	}
	defer func() {
		if p := recover(); p != nil {
			d.p = nil
			det, err = nil, fmt.Errorf("internal error while decoding: %v", p)
		}
	}()
	det = &Detail{Cmd: cmd, Msg: msg}
	found := false
	v := Visitor{
		Record: func(m Ref, _ Location) *provenance.Message {
			if m.Cmd == cmd && m.Msg == msg {
				det.Rec = &provenance.Message{}
				return det.Rec
			}
			return nil
		},
		Entities: func(_ Ref, loc Location, m *messages.PacketEntities, res entity.Result, rec *provenance.Message) {
			if rec == nil || rec != det.Rec {
				return
			}
			found = true
			r := d.p.r
			det.Tick = loc.Tick
			det.ClassIDBits, det.MaxClasses = r.Entities.ClassIDBits, r.Server.MaxClasses
			det.Report = diagnose.Message(rec, diagnose.LookupIn(r.Entities))
			det.Data = append([]byte(nil), m.EntityData...)
			det.Snaps = snapsAfter(rec, r.Entities)
			det.baselines = createdBaselines(rec, r.Entities)
		},
	}
	var k *replay.Keyframe
	if d.ks != nil {
		k = d.ks.Before(cmd)
	}
	// The live pass goes on unless a keyframe is nearer than it, or it is
	// past the message.
	if d.p == nil || d.last >= cmd || k != nil && k.Command-1 > d.last {
		p, err := openPass(start{d.data, d.aliases, d.ks, cmd}, v)
		if err != nil {
			return nil, err
		}
		d.p, d.last = p, p.from-1
	}
	d.p.v = v
	for d.last < cmd {
		c, err := d.p.Step()
		if err != nil {
			d.p = nil // a broken replay cannot go on; reopen next time
			if found {
				det.Err = err.Error()
				break
			}
			if err == io.EOF {
				return nil, fmt.Errorf("command #%d is past the end of the file", cmd)
			}
			return nil, err
		}
		d.last = c.Index
		if d.last < cmd && gen < d.latest.Load() {
			return nil, ErrStale
		}
	}
	if d.p != nil {
		d.p.v = Visitor{}
	}
	if !found {
		return nil, fmt.Errorf("command #%d has no packet-entities message at position %d", cmd, msg)
	}
	if len(d.cache) < detailCacheSize {
		d.cache = append(d.cache, nil)
	}
	copy(d.cache[1:], d.cache)
	d.cache[0] = det
	return det, nil
}

// createdBaselines keeps the raw baselines of the classes rec creates, as
// t holds them now (a later table update replaces a baseline, never
// changes it in place).
func createdBaselines(rec *provenance.Message, t *entity.Table) *baselineSet {
	set := &baselineSet{strings: t.Strings}
	for _, u := range rec.Updates {
		if u.Op != provenance.Create {
			continue
		}
		if _, ok := set.raw[u.ClassID]; ok {
			continue
		}
		c, data := t.Class(u.ClassID), t.Baseline(u.ClassID)
		if c == nil || len(data) == 0 {
			continue
		}
		if set.raw == nil {
			set.raw = map[int32]rawBaseline{}
		}
		set.raw[u.ClassID] = rawBaseline{class: c, data: data}
	}
	return set
}
