package schema

import "sync"

// Realias returns the schema as ParseWith would build it under aliases a,
// sharing every serializer and field that no alias of either a or the
// schema's own aliases touches: a hypothesis about one unknown name costs
// the fields that carry it and the serializers above them, not a parse.
func (s *Schema) Realias(a Aliases) *Schema {
	out := s.RealiasLazy(a)
	out.fields = append([]*Field(nil), out.under.AllFields()...)
	for i, f := range out.fields {
		if g := out.lazy.fields[f]; g != nil {
			out.fields[i] = g
		}
	}
	out.Serializers = append([]*Serializer(nil), out.under.Serializers...)
	for i, ser := range out.Serializers {
		out.Serializers[i] = out.lazy.clone(ser)
	}
	return out
}

// RealiasLazy is Realias for decoding only: serializers are rebuilt as
// Serializer looks them up, and Serializers and Fields stay nil. Testing a
// hypothesis touches the few hundred classes a replay creates, of a
// schema's thousands.
func (s *Schema) RealiasLazy(a Aliases) *Schema {
	if s.under != nil {
		return s.under.RealiasLazy(a)
	}
	// The reading is the parsed schema's: a realiased copy shares the
	// fields no alias touches, decoded under it.
	a.Seed = s.Aliases.Seed
	ix := s.carrierIndex()
	var names []Name
	for _, m := range []map[string]string{a.Types, s.Aliases.Types} {
		for n := range m {
			names = append(names, Name{KindType, n})
		}
	}
	for _, m := range []map[string]string{a.Encoders, s.Aliases.Encoders} {
		for n := range m {
			names = append(names, Name{KindEncoder, n})
		}
	}
	fields := map[*Field]*Field{}
	var reach [][]bool
	for _, k := range names {
		for _, f := range ix.carriers[k] {
			if fields[f] == nil {
				fields[f] = f.under(a, s.Game)
				setTickInterval(fields[f], s.TickInterval)
			}
		}
		if r := ix.reaching(k); len(r) > 0 {
			reach = append(reach, r)
		}
	}
	lz := &lazySerializers{fields: fields, reach: reach, clones: map[*Serializer]*Serializer{}}
	return &Schema{Game: s.Game, Aliases: a, under: s, lazy: lz, TickInterval: s.TickInterval}
}

// lazySerializers rebuilds, on demand, the serializers a realiased schema
// does not share with the parsed one.
type lazySerializers struct {
	mu     sync.Mutex
	fields map[*Field]*Field // fields the aliases touch, as they are under them
	reach  [][]bool          // by serializer id: reaching a field of each aliased name
	clones map[*Serializer]*Serializer
}

func (lz *lazySerializers) reaches(ser *Serializer) bool {
	for _, r := range lz.reach {
		if r[ser.id] {
			return true
		}
	}
	return false
}

func (lz *lazySerializers) lookup(ser *Serializer) *Serializer {
	if ser == nil || !lz.reaches(ser) {
		return ser
	}
	lz.mu.Lock()
	defer lz.mu.Unlock()
	return lz.clone(ser)
}

func (lz *lazySerializers) clone(ser *Serializer) *Serializer {
	if !lz.reaches(ser) {
		return ser
	}
	if c := lz.clones[ser]; c != nil {
		return c
	}
	c := &Serializer{Name: ser.Name, Version: ser.Version, Fields: append([]*Field(nil), ser.Fields...), id: ser.id}
	lz.clones[ser] = c // before the fields: Parse refuses cycles, but be safe
	for i, f := range c.Fields {
		g := lz.fields[f]
		if f.Serializer != nil && lz.reaches(f.Serializer) {
			cp := *f
			if g != nil {
				cp = *g // lz.fields[f] is shared by every serializer holding f
			}
			g = &cp
			g.Serializer = lz.clone(f.Serializer)
			if len(g.Polymorphic) > 0 {
				g.Polymorphic = append([]*Serializer{g.Serializer}, g.Polymorphic[1:]...)
			}
		}
		if g != nil {
			c.Fields[i] = g
		}
	}
	return c
}

// carriers indexes a parsed schema by the names aliases can rename: the
// fields carrying each name, and which serializers hold each field and
// nest each serializer, so that the serializers a name reaches are found
// walking up from its fields.
type carriers struct {
	carriers map[Name][]*Field
	owners   [][]int32 // by field id: the serializers listing it
	parents  [][]int32 // by serializer id: the serializers nesting it
	sers     []*Serializer

	mu    sync.Mutex
	reach map[Name][]bool
}

func (s *Schema) carrierIndex() *carriers {
	s.indexOnce.Do(func() {
		s.Complete()
		ix := &carriers{carriers: map[Name][]*Field{}, owners: make([][]int32, len(s.fields)),
			parents: make([][]int32, len(s.Serializers)), sers: s.Serializers, reach: map[Name][]bool{}}
		for _, f := range s.fields {
			for _, k := range f.WrittenNames() {
				ix.carriers[k] = append(ix.carriers[k], f)
			}
		}
		for si, ser := range s.Serializers {
			for _, f := range ser.Fields {
				ix.owners[f.id] = append(ix.owners[f.id], int32(si))
				if f.Serializer != nil {
					ix.parents[f.Serializer.id] = append(ix.parents[f.Serializer.id], int32(si))
				}
				for _, p := range f.Polymorphic {
					ix.parents[p.id] = append(ix.parents[p.id], int32(si))
				}
			}
		}
		s.index = ix
	})
	return s.index
}

// reaching marks, by serializer id, the serializers whose state holds a
// field carrying k, directly or in a nested serializer.
func (ix *carriers) reaching(k Name) []bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if r, ok := ix.reach[k]; ok {
		return r
	}
	var r []bool
	var stack []int32
	for _, f := range ix.carriers[k] {
		stack = append(stack, ix.owners[f.id]...)
	}
	for len(stack) > 0 {
		si := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if r == nil {
			r = make([]bool, len(ix.sers))
		}
		if r[si] {
			continue
		}
		r[si] = true
		stack = append(stack, ix.parents[si]...)
	}
	ix.reach[k] = r
	return r
}
