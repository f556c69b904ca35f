package schema

import (
	"fmt"
	"sync"
)

// pending is what a schema ParseLazy built keeps to read its serializers'
// field lists, and build its fields, on first use. The messages were
// checked when parsed: reading a list or building a field cannot fail.
// Everything below mu is read and written under it.
type pending struct {
	mu     sync.Mutex
	schema *Schema
	msgs   []rawSerializer // by serializer id; nil once every list is read
	edges  []nestEdge      // each serializer's indexes of nested serializers' fields...
	starts []int32         // ...from edges[starts[id]] to edges[starts[id+1]]

	raws    []rawField         // the message's fields, by index (field.go)
	symbols []string           // the symbol table
	fields  []*Field           // by index, nil until built
	block   []Field            // room for the next fields built
	types   map[string]VarType // var_type strings parsed so far
	memo    choiceMemo         // decoder choices made so far
	watched []*Field           // see Schema.WatchedField
	built   int                // fields built so far
	blocks  int                // blocks of fields taken so far
	store   *storage           // what Release hands on (reuse.go)
}

// Load reads the serializer's field list, and those of the serializers
// below it, when not read yet. Serializer does it for the serializer it
// returns; code holding a serializer from elsewhere (Schema.Serializers,
// LazySerializer) calls it before reading Fields. Safe for concurrent use.
func (s *Serializer) Load() {
	if s == nil || s.src == nil || s.loaded.Load() {
		return
	}
	p := s.src
	p.mu.Lock()
	defer p.mu.Unlock()
	// Every serializer reachable is read before any is marked loaded: a
	// reader that sees one loaded without the lock sees all below it read.
	var done []*Serializer
	stack := []*Serializer{s}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.src != p || x.loaded.Load() || x.filling {
			continue
		}
		x.filling = true
		x.Fields = p.read(x.id)
		done = append(done, x)
		for _, f := range x.Fields {
			if f.Serializer != nil {
				stack = append(stack, f.Serializer)
			}
			stack = append(stack, f.Polymorphic...)
		}
	}
	for _, x := range done {
		x.loaded.Store(true)
	}
}

// read builds serializer id's field list, building the fields not built
// yet.
func (p *pending) read(id int32) []*Field {
	rs := &p.msgs[id]
	out := p.store.lists.take(rs.count)[:0]
	if rs.fast {
		out, _ = fillIndexes(rs.msg, p.fields, out, p.field)
		return out
	}
	rs.walk(func(fi int32) { out = append(out, p.field(fi)) })
	return out
}

// LazySerializer is Serializer without reading the field list: Load it
// before reading Fields. Linking every class of a replay to its serializer
// costs nothing this way; a class is loaded when first decoded.
func (s *Schema) LazySerializer(name string) *Serializer {
	if s.under == nil {
		return s.byName[name]
	}
	return s.lazy.lookup(s.under.byName[name])
}

// Complete builds every field and reads every serializer's field list:
// after it, Serializers can be walked whole. ParseWith's schemas are
// complete already.
func (s *Schema) Complete() *Schema {
	p := s.src
	if s.under != nil || p == nil {
		return s // a realiased schema's under is complete
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.msgs == nil {
		return s // every list is read already
	}
	p.buildAll()
	var done []*Serializer
	for _, x := range s.Serializers {
		if x.loaded.Load() || x.filling {
			continue
		}
		x.filling = true
		x.Fields = p.read(x.id)
		done = append(done, x)
	}
	for _, x := range done {
		x.loaded.Store(true)
	}
	p.msgs = nil // every list is read: the messages are no longer needed
	// Nor what reading them took: a complete schema (the debugger's)
	// keeps no more than before its storage could be released.
	st := p.store
	st.rsers, st.edges, st.starts, st.hasSer, st.symEnds = nil, nil, nil, nil, nil
	return s
}

// AllFields is every distinct field of the schema, in message order,
// building those not built yet. It reads no serializer's field list (the
// distinct fields are a tenth of all the lists hold): Complete does.
func (s *Schema) AllFields() []*Field {
	p := s.src
	if s.under != nil || p == nil {
		return s.fields
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buildAll()
	return s.fields
}

// buildAll builds every field not built yet and gives the schema its list
// of them. Under p.mu.
func (p *pending) buildAll() {
	for i := 0; p.built < len(p.fields); i++ {
		if p.fields[i] == nil {
			p.field(int32(i))
		}
	}
	p.schema.fields = p.fields
}

// checkNesting refuses serializers that nest more than maxNesting levels
// (a cycle nests without end) or that expand to more than
// MaxExpandedFields fields, from the edges the index check noted, before
// any field list is read. Each serializer is measured once, so shared
// nested serializers cost nothing extra: a naive walk of every path would
// take time exponential in the depth. (The tests hold it to a walk of the
// read field lists, nesting_test.go.)
func (p *pending) checkNesting(sers []*Serializer) error {
	type size struct {
		height, fields int
		state          uint8 // 0 not seen, 1 being visited, 2 done
	}
	sizes := make([]size, len(sers))
	var visit func(id int32, depth int) (size, error)
	visit = func(id int32, depth int) (size, error) {
		at := &sizes[id]
		name := sers[id].Name
		if at.state == 2 {
			return *at, nil
		}
		if at.state == 1 || depth > maxNesting {
			return size{}, fmt.Errorf("serializer %s nests more than %d levels (cycle?)", name, maxNesting)
		}
		at.state = 1
		var z size
		nested := 0 // fields below the nested serializers so far
		for _, e := range p.edges[p.starts[id]:p.starts[id+1]] {
			k, err := visit(p.raws[e.field].ser, depth+1)
			if err != nil {
				return size{}, err
			}
			z.height = max(z.height, k.height+1)
			nested += k.fields
			if int(e.pos)+1+nested > MaxExpandedFields {
				return size{}, fmt.Errorf("serializer %s expands to more than %d fields", name, MaxExpandedFields)
			}
		}
		z.fields = p.msgs[id].count + nested
		if z.height > maxNesting {
			return size{}, fmt.Errorf("serializer %s nests more than %d levels (cycle?)", name, maxNesting)
		}
		z.state = 2
		sizes[id] = z
		return z, nil
	}
	for _, ser := range sers {
		if _, err := visit(ser.id, 0); err != nil {
			return err
		}
	}
	return nil
}

// Writes reports whether a field of the schema writes name as its type
// (its base, or a template argument's) or its encoder, before aliases:
// whether Carrying lists any. A parsed schema answers from its message's
// fields as read, building none (Carrying completes the schema: on a Dota
// 2 replay the difference is some 4 ms); a realiased one asks the schema
// it was made from.
func (s *Schema) Writes(kind Kind, name string) bool {
	if s.under != nil {
		return s.under.Writes(kind, name)
	}
	p := s.src
	if p == nil {
		return len(s.Carrying(kind, name)) > 0
	}
	p.mu.Lock()
	if p.raws == nil { // every field is built, and what reading them needs gone
		p.mu.Unlock()
		return len(s.Carrying(kind, name)) > 0
	}
	defer p.mu.Unlock()
	for i := range p.raws {
		rf := &p.raws[i]
		if kind == KindEncoder && p.symbol(rf.encoderSym) == name || kind != KindEncoder && p.varType(rf.typeSym).hasBase(name) {
			return true
		}
	}
	return false
}

// Declared is what Declaring found.
type Declared struct {
	Field       string // the first matching field's name ("" for none)
	Serializer  string // the first serializer declaring one
	Serializers int    // how many serializers declare one
}

// Declaring finds the fields whose name match accepts over every
// serializer of the schema, in the order of Serializers and their lists:
// the lists not read yet are walked in the message, building no field.
// Safe beside decoding.
func (s *Schema) Declaring(match func(name string) bool) (d Declared) {
	if s.under != nil {
		return s.under.Declaring(match)
	}
	p := s.src
	if p != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
	}
	for _, ser := range s.Serializers {
		found := false
		note := func(name string) {
			if match(name) {
				if d.Field == "" {
					d.Field, d.Serializer = name, ser.Name
				}
				found = true
			}
		}
		if p == nil || p.msgs == nil || ser.src != p || ser.loaded.Load() {
			for _, f := range ser.Fields {
				note(f.Name)
			}
		} else {
			// The message was checked when parsed: the walk cannot fail.
			_ = p.msgs[ser.id].walk(func(fi int32) {
				if f := p.fields[fi]; f != nil {
					note(f.Name)
				} else {
					note(p.symbols[p.raws[fi].nameSym])
				}
			})
		}
		if found {
			d.Serializers++
		}
	}
	return d
}
