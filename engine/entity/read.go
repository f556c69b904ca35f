package entity

import (
	"errors"
	"fmt"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
)

// reading is how one message's entity data (or one baseline) is read:
// where, into which record, and which of the table's modes are on. Apply
// sets it up once, and update, entityFields and readFields read it
// instead of taking each as a parameter and testing the table at every
// field.
type reading struct {
	r   *bitio.Reader
	rec *provenance.Message // recording: every read kept there; nil when not
	// update is the index in rec.Updates of the update being read (-1 when
	// not recording).
	update int
	msg    *messages.PacketEntities // nil for a baseline
	// memos: repeated path sections replay the entity's memos (memo.go);
	// off in a what-if and with Table.FreshPaths.
	memos bool
	// log: each applied update appends its record to Table.Log.
	log bool
	// evidence: watched fields' values are counted (Table.Evidence, off
	// in a what-if).
	evidence bool
}

// header is an update's header as Apply read it from a window: its first
// bit, the index before it, the index delta and command, and their width.
type header struct {
	start      uint
	index      int32
	delta, cmd uint32
	bits       uint
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
// *statep, a node of class c for owner, as rd reads. With memo non-nil it
// also gathers there what a memo of the update keeps (memo.n is set once
// every value has been read).
//
// *statep is copied for owner before the first value is written when
// another owner's (a create starts with its class baseline's node, shared
// until then: a create that sets nothing costs nothing). A full frame's
// create (fresh) writes an overlay of it instead, which the entity's next
// update here makes whole (overlay.go).
func (t *Table) readFields(rd *reading, statep **Node, c *Class, owner uint32, memo *updateMemo, fresh bool) (int, error) {
	r, rec, update := rd.r, rd.rec, rd.update
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
			*statep = t.spare.overlay(st, owner, topPaths(paths))
		case st.owner != owner:
			*statep = t.cowCopy(c, st, owner)
		case st.ov != nil:
			st.materializeIn(&t.spare) // the update after a full frame's create (overlay.go)
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
			if err := resolve(&tg, ser, state, p, owner, &t.spare, t.whatIf != nil); err != nil {
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
		dst := tg.node.slotIn(tg.slot, &t.spare)
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
		if tg.dec.Watch != 0 && rd.evidence {
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
