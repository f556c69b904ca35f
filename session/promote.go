package session

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// ValueChanges decodes data under aliases a and under b side by side and
// counts the reads whose value differs between the two readings (or that
// only one makes), of all the reads either makes. Reads are matched within
// a packet-entities message (a created entity's baseline reads with it) by
// entity, baseline or not, field path and which of that entity's reads of
// the path it is; values are compared as the JSON each reading writes.
// Memory stays at a few messages' reads on each side. Once ctx is done
// the decodes stop and ctx's error is returned: superseded work does not
// run on.
func (f *File) ValueChanges(ctx context.Context, a, b schema.Aliases) (changed, total int, err error) {
	return valueChanges(ctx, f.data, a, b)
}

// valueChanges is File.ValueChanges over data.
func valueChanges(ctx context.Context, data []byte, a, b schema.Aliases) (changed, total int, err error) {
	sides := [2]*readingSide{newReadingSide(), newReadingSide()}
	var wg sync.WaitGroup
	for i, al := range []schema.Aliases{a, b} {
		s := sides[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.run(ctx, data, al)
		}()
	}
	var m messageMatcher
	x, okx := <-sides[0].out
	y, oky := <-sides[1].out
	for okx || oky {
		switch {
		case okx && oky:
			c, n := m.diff(x, y)
			changed, total = changed+c, total+n
			sides[0].free <- x
			sides[1].free <- y
			x, okx = <-sides[0].out
			y, oky = <-sides[1].out
		case okx: // the other reading stopped early: the rest is this one's alone
			changed, total = changed+len(x.reads), total+len(x.reads)
			sides[0].free <- x
			x, okx = <-sides[0].out
		default:
			changed, total = changed+len(y.reads), total+len(y.reads)
			sides[1].free <- y
			y, oky = <-sides[1].out
		}
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return changed, total, err
	}
	for _, s := range sides {
		if s.err != nil && err == nil {
			err = s.err
		}
	}
	return changed, total, err
}

// valueRead is one read of a reading: which field of which entity, and
// its value as JSON (vals[from:to] of its message).
type valueRead struct {
	entity   int32
	baseline bool
	path     fieldpath.Path
	from, to int32
}

// messageReads are the reads of one packet-entities message under one
// reading.
type messageReads struct {
	reads []valueRead
	vals  []byte
}

// readingSide decodes the file under one reading, a message's reads at a
// time, handing them out on out and taking them back, to reuse, on free.
type readingSide struct {
	out  chan *messageReads
	free chan *messageReads
	err  error // why the decode stopped before the end (read once out is closed)
}

// sideDepth is how many messages a reading may run ahead of the count.
const sideDepth = 4

func newReadingSide() *readingSide {
	s := &readingSide{out: make(chan *messageReads, sideDepth), free: make(chan *messageReads, sideDepth+2)}
	for range sideDepth + 2 {
		s.free <- &messageReads{}
	}
	return s
}

// run decodes data under al, sending each packet-entities message's reads,
// until the end, an error, or ctx is done; it closes out.
func (s *readingSide) run(ctx context.Context, data []byte, al schema.Aliases) {
	defer close(s.out)
	defer func() {
		if p := recover(); p != nil {
			s.err = fmt.Errorf("internal error: %v", p)
		}
	}()
	var rec provenance.Message
	var v Visitor
	v.Record = func(Ref, Location) *provenance.Message { return &rec }
	// A class's baseline decodes the same until its data changes.
	type baseline struct {
		data []byte
		rec  *provenance.Message
	}
	baselines := map[int32]baseline{}
	stopped := false
	var r *replay.Replay
	v.Entities = func(_ Ref, _ Location, _ *messages.PacketEntities, _ entity.Result, pm *provenance.Message) {
		if pm == nil || stopped {
			return
		}
		var mr *messageReads
		select {
		case mr = <-s.free:
		case <-ctx.Done():
			stopped = true
			return
		}
		mr.reads, mr.vals = mr.reads[:0], mr.vals[:0]
		for ui := range pm.Updates {
			u := &pm.Updates[ui]
			if u.Op == provenance.Create {
				bd := r.Entities.Baseline(u.ClassID)
				b, ok := baselines[u.ClassID]
				if !ok || len(b.data) != len(bd) || len(bd) > 0 && &b.data[0] != &bd[0] {
					b.data = bd
					b.rec, _ = r.Entities.RecordBaseline(u.ClassID)
					baselines[u.ClassID] = b
				}
				if b.rec != nil {
					for i := range b.rec.Fields {
						mr.add(u.Index, true, &b.rec.Fields[i])
					}
				}
			}
			fs := pm.Fields[u.FirstField : u.FirstField+u.NumFields]
			for i := range fs {
				mr.add(u.Index, false, &fs[i])
			}
		}
		select {
		case s.out <- mr:
		case <-ctx.Done():
			stopped = true
		}
	}
	p, err := openPass(start{data: data, aliases: al}, v)
	if err != nil {
		s.err = err
		return
	}
	r = p.r
	if err := r.Run(func(*container.Command) bool { return stopped || ctx.Err() != nil }); err != nil {
		s.err = err
	}
}

// add appends a read of entity (of its class baseline when baseline).
func (mr *messageReads) add(entity int32, baseline bool, f *provenance.Field) {
	rd := valueRead{entity: entity, baseline: baseline, from: int32(len(mr.vals))}
	// Only the path's own indexes: what lies past its end is no part of it.
	rd.path.Last = f.Path.Last
	copy(rd.path.Idx[:], f.Path.Slice())
	mr.vals = f.Value.AppendJSONAs(mr.vals, f.Decoder)
	rd.to = int32(len(mr.vals))
	mr.reads = append(mr.reads, rd)
}

// sameField reports whether two reads are of one field of one entity.
func sameField(p, q *valueRead) bool {
	return p.entity == q.entity && p.baseline == q.baseline && p.path == q.path
}

// messageMatcher matches one message's reads under two readings; its
// scratch is kept from message to message.
type messageMatcher struct {
	xs, ys []int32 // the reads' indexes, in field order
}

// compareField orders reads by entity, baseline first, and path.
func compareField(p, q *valueRead) int {
	switch {
	case p.entity != q.entity:
		return cmp.Compare(p.entity, q.entity)
	case p.baseline != q.baseline:
		if p.baseline {
			return -1
		}
		return 1
	}
	return slices.Compare(p.path.Slice(), q.path.Slice())
}

// diff counts the reads of one message that differ between the two
// readings, and the reads in all (matched pairs once).
func (m *messageMatcher) diff(x, y *messageReads) (changed, total int) {
	if len(x.reads) == len(y.reads) {
		// Nearly always the two readings read the same fields in the same
		// order (an alias changes values, not paths): pairwise.
		aligned := true
		for i := range x.reads {
			if !sameField(&x.reads[i], &y.reads[i]) {
				aligned = false
				break
			}
		}
		if aligned {
			for i := range x.reads {
				p, q := &x.reads[i], &y.reads[i]
				if !bytes.Equal(x.vals[p.from:p.to], y.vals[q.from:q.to]) {
					changed++
				}
			}
			return changed, len(x.reads)
		}
	}
	// Otherwise each side's reads in field order, stably: the n-th read of
	// a field on one side meets the n-th on the other.
	order := func(idx []int32, mr *messageReads) []int32 {
		idx = idx[:0]
		for i := range mr.reads {
			idx = append(idx, int32(i))
		}
		slices.SortStableFunc(idx, func(a, b int32) int { return compareField(&mr.reads[a], &mr.reads[b]) })
		return idx
	}
	m.xs, m.ys = order(m.xs, x), order(m.ys, y)
	i, j := 0, 0
	for i < len(m.xs) && j < len(m.ys) {
		p, q := &x.reads[m.xs[i]], &y.reads[m.ys[j]]
		switch c := compareField(p, q); {
		case c < 0:
			changed++
			i++
		case c > 0:
			changed++
			j++
		default:
			if !bytes.Equal(x.vals[p.from:p.to], y.vals[q.from:q.to]) {
				changed++
			}
			i++
			j++
		}
		total++
	}
	rest := len(m.xs) - i + len(m.ys) - j
	return changed + rest, total + rest
}
