package replay

import (
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/schema"
)

// Fork returns an independent replay positioned where r is: the entity table
// is snapshotted (state shared copy-on-write), the string tables copied,
// and the copy reads on from the same command. Hooks are not copied. What
// either decodes next leaves the other unchanged, so a fork is a point to
// resume decoding from: under other aliases, or to step back to.
func (r *Replay) Fork() *Replay { return r.fork(r.Entities.Snapshot()) }

// fork copies r around an entity table already copied from r's.
func (r *Replay) fork(t *entity.Table) *Replay {
	// The copy shares the schema and the body it reads. A keyframe's
	// replay is lent from its making (Keyframe): its forks, which several
	// goroutines take at once, only read the flag.
	if !r.lent {
		r.lent = true
	}
	c := &Replay{
		Data: r.Data, Header: r.Header, Info: r.Info, Game: r.Game, Server: r.Server,
		Schema: r.Schema, Strings: r.Strings.Clone(), Entities: t,
		Tick: r.Tick, NetTick: r.NetTick, Stats: r.Stats, Aliases: r.Aliases, SchemaData: r.SchemaData,
		FirstMisaligned: r.FirstMisaligned, Done: r.Done, sawStop: r.sawStop, Source: r.Source,
		classes: r.classes,
	}
	cr := *r.cr
	cr.ResetScratch()
	c.cr = &cr
	return c
}

// Realias rebuilds the schema under other aliases and links the entity
// table to it, keeping every entity's state: decoding goes on as if the
// file had been read with those aliases from the start, except for the
// values already decoded. It fails when an alias changes the layout of a
// class's state (an element type read as a string, say); then only a
// decode from the start can use it.
func (r *Replay) Realias(a schema.Aliases) error { return r.realias(a, false) }

// RealiasDecodeOnly is Realias for a replay that is only decoded on: its
// schema serves Serializer lookups, and its Serializers and Fields are nil
// (schema.RealiasLazy), which makes a hypothesis cheap to test.
func (r *Replay) RealiasDecodeOnly(a schema.Aliases) error { return r.realias(a, true) }

func (r *Replay) realias(a schema.Aliases, lazy bool) error {
	if r.Schema == nil {
		r.Aliases = a
		return nil
	}
	var s *schema.Schema
	if lazy {
		s = r.Schema.RealiasLazy(a)
	} else {
		s = r.Schema.Realias(a)
	}
	if err := r.Entities.Rebind(s); err != nil {
		return err
	}
	r.Schema, r.Aliases = s, a
	return nil
}
