package compare

import (
	"encoding/json"
	"slices"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
)

// Ours decodes a replay and returns our reads inside scope (every read when
// scope is nil), in decode order: the reads `dembug trace` prints, with a
// created entity's baseline reads before its own when the scope has
// baselines.
func Ours(data []byte, aliases schema.Aliases, scope *Scope) ([]Read, error) {
	var all []Read
	err := Decode(data, aliases, scope, func(_ int64, reads []Read) {
		all = append(all, reads...)
	})
	return all, err
}

// CompareReplay decodes a replay and compares it with their trace, a tick
// at a time.
func CompareReplay(data []byte, aliases schema.Aliases, theirs []Read, o Options) (Result, error) {
	c := New(theirs, o)
	err := decode(data, aliases, c.Scope(), c.Tick, c.NetTick)
	return c.Finish(), err
}

// Decode decodes a replay and calls tick with our reads inside scope (every
// read when scope is nil) of each tick that has any, in decode order; the
// slice is reused after tick returns.
func Decode(data []byte, aliases schema.Aliases, scope *Scope, tick func(tick int64, reads []Read)) error {
	return decode(data, aliases, scope, tick, nil)
}

// decode is Decode that also hands netTick, when set, the server's tick
// (the last net_Tick) at each packet-entities message, with its demo tick.
func decode(data []byte, aliases schema.Aliases, scope *Scope, tick func(tick int64, reads []Read), netTick func(demo, net int64)) error {
	last := int64(-1 << 62)
	if scope != nil {
		for t := range scope.Ticks {
			last = max(last, t)
		}
		if scope.Sample != nil {
			last = max(last, scope.Sample.Last)
		}
	}
	var rec provenance.Message
	var reads []Read
	flush := func() {
		if len(reads) > 0 {
			tick(reads[0].Tick, reads)
			reads = reads[:0]
			if cap(reads) > 1<<14 {
				reads = nil // the signon's reads: other ticks hold far fewer
			}
		}
	}
	describe := map[*decoder.Decoder]string{}
	a := &arena{}
	var buf []byte
	// A class's baseline decodes the same until its data changes.
	type baseline struct {
		data []byte
		rec  *provenance.Message
	}
	baselines := map[int32]baseline{}
	add := func(loc session.Location, u *provenance.EntityUpdate, upd, field int, f *provenance.Field, data []byte, baseline bool) {
		if len(reads) > 0 && reads[0].Tick != int64(loc.Tick) {
			flush()
		}
		d, ok := describe[f.Decoder]
		if !ok {
			d = f.Decoder.Describe()
			describe[f.Decoder] = d
		}
		var pb [16]int32
		np := 0
		for _, x := range f.Path.Slice() {
			if np < len(pb) {
				pb[np] = int32(x)
				np++
			}
		}
		p := a.ints(pb[:np])
		buf = f.Value.AppendJSONAs(buf[:0], f.Decoder)
		if len(reads) == cap(reads) {
			// Doubling: append grows a large slice by a quarter, copying
			// the signon's reads many times over.
			reads = slices.Grow(reads, max(1024, cap(reads)))
		}
		reads = append(reads, Read{
			Tick: int64(loc.Tick), Command: int64(loc.Command), Message: int64(loc.Message),
			Entity: u.Index, Class: u.Class, Path: p, Name: f.Name, Decoder: d,
			Offset: int64(f.Start), Bits: int64(f.Bits), Baseline: baseline,
			Value: json.RawMessage(a.bytes(buf)), Kind: f.Value.Kind, Why: f.Why, data: data,
			Update: upd, Field: field,
		})
	}
	var r *session.Pass
	var v session.Visitor
	v.Record = func(_ session.Ref, loc session.Location) *provenance.Message {
		if scope == nil || scope.Records(int64(loc.Tick)) {
			return &rec
		}
		return nil
	}
	v.Entities = func(_ session.Ref, loc session.Location, m *messages.PacketEntities, _ session.Result, pm *provenance.Message) {
		if netTick != nil {
			netTick(int64(loc.Tick), int64(r.NetTick()))
		}
		if pm == nil {
			return
		}
		var data []byte // copied once the message has a read in scope
		for ui := range pm.Updates {
			u := &pm.Updates[ui]
			if scope != nil && !scope.HasEntity(u.Index) {
				continue
			}
			if u.Op == provenance.Create && (scope == nil || scope.Baselines) {
				bd := r.Baseline(u.ClassID)
				b, ok := baselines[u.ClassID]
				if !ok || len(b.data) != len(bd) || len(bd) > 0 && &b.data[0] != &bd[0] {
					b.data = bd
					b.rec, _ = r.RecordBaseline(u.ClassID)
					baselines[u.ClassID] = b
				}
				if b.rec != nil {
					for i := range b.rec.Fields {
						add(loc, u, ui, -1, &b.rec.Fields[i], bd, true)
					}
				}
			}
			if data == nil {
				data = append([]byte(nil), m.EntityData...)
			}
			fs := pm.Fields[u.FirstField : u.FirstField+u.NumFields]
			for i := range fs {
				add(loc, u, ui, i, &fs[i], data, false)
			}
		}
	}
	r, err := session.OpenFile(data, aliases).Pass(v)
	if err != nil {
		return err
	}
	err = r.Run(func(c *container.Command) bool { return scope != nil && int64(c.Tick) > last })
	flush()
	return err
}
