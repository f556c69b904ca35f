package schema

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/wiretree"
)

// Model is how a field's path indexes continue below it.
type Model uint8

const (
	Simple        Model = iota // one value
	FixedArray                 // T[N]: next index picks the element
	FixedTable                 // pointer to a nested serializer: bool presence, then its fields
	VariableArray              // CUtlVector<T>: length, then elements
	VariableTable              // vector of nested serializers: length, then element, then field
)

var modelNames = [...]string{"simple", "fixed array", "pointer (fixed table)", "variable array", "variable table"}

func (m Model) String() string { return modelNames[m] }

// Field is one networked field.
type Field struct {
	Name          string // var_name
	VarType       string // as written in the schema
	Type          VarType
	Encoder       string
	SendNode      string
	VarSerializer string

	BitCount        int32
	BitCountSet     bool
	Low, High       float32
	LowSet, HighSet bool
	EncodeFlags     int32

	SerializerName    string
	SerializerVersion int32
	Serializer        *Serializer   // nested serializer (tables)
	Polymorphic       []*Serializer // alternatives for a polymorphic pointer; [0] is Serializer

	Model   Model
	Decoder *decoder.Decoder // value decoder (simple, fixed array); presence or length for tables and arrays
	Elem    *decoder.Decoder // element decoder of a variable array
	Problem string           // why the decoder could not be set up as the schema asks, if so
	Why     string           // why Decoder was chosen, in words
	ElemWhy string           // why Elem was chosen
	Patched string           // a correction applied to the schema's settings, if any

	// Names decoder choice did not know (alias.go): the base type that fell
	// back to the default decoder, an encoder it does not read. Alias says
	// which --as alias decoded the field instead, if one did.
	UnknownType, UnknownEncoder string
	Alias                       string
	EncoderAsWritten            string
	// Correction is the game's correction that decoded the field's type
	// (correct.go), nil where the seed's tables read it.
	Correction *Correction
	written    VarType // Type before aliases
	id         int32   // index in the parsed schema's Fields
}

// Serializer is a class's (or a nested type's) ordered field list.
type Serializer struct {
	Name    string
	Version int32
	Fields  []*Field

	id   int32                 // index in the parsed schema's Serializers
	hot  atomic.Pointer[[]Hot] // see Hot
	hots []Hot                 // what hot points to when built under src.mu
	poly atomic.Uint32         // HasPolymorphic's answer: 0 not yet asked, polyNo, polyYes

	// src reads Fields on first use for a schema ParseLazy built (nil
	// otherwise); loaded says it has (lazy.go).
	src     *pending
	loaded  atomic.Bool
	filling bool // under src.mu: Fields read, loaded not yet set
}

// Hot mirrors Fields with just what the decode loop needs, packed together
// so that walking a path touches one small array. It is built on first use:
// a Dota 2 schema has some 1,600 serializers with 100,000 fields between
// them, and a replay instantiates a few hundred. Decoders on several
// goroutines may race to build it; they build equal arrays, and the loser's
// is dropped.
func (s *Serializer) Hot() []Hot {
	if h := s.hot.Load(); h != nil && len(*h) == len(s.Fields) {
		return *h
	}
	s.Load()
	if p := s.src; p != nil && s.hot.Load() == nil {
		// The first build of a parsed schema's serializer: under the
		// lock, in the schema's slab, once.
		p.mu.Lock()
		defer p.mu.Unlock()
		if h := s.hot.Load(); h != nil {
			return *h
		}
		s.hots = p.store.hots.take(len(s.Fields))
		s.fillHot(s.hots)
		s.hot.Store(&s.hots)
		return s.hots
	}
	h := make([]Hot, len(s.Fields))
	s.fillHot(h)
	s.hot.Store(&h)
	return h
}

// fillHot fills h, zero, from Fields.
func (s *Serializer) fillHot(h []Hot) {
	for i, f := range s.Fields {
		// Field by field, the pointers only when set: while the collector
		// marks, a whole Hot written is a bulk write barrier.
		x := &h[i]
		x.Model, x.Poly, x.Count = f.Model, len(f.Polymorphic) > 0, int32(f.Type.Count)
		if f.Decoder != nil {
			x.Dec = f.Decoder
		}
		if f.Elem != nil {
			x.Elem = f.Elem
		}
		if f.Serializer != nil {
			x.Sub = f.Serializer
		}
	}
}

// HasPolymorphic reports whether a polymorphic pointer is reachable from s,
// so that names below it depend on entity state.
func (s *Serializer) HasPolymorphic() bool {
	yes, _ := s.reachesPoly(0)
	return yes
}

const (
	polyNo  = 1
	polyYes = 2
)

// reachesPoly answers for s, and keeps the answer in s when it is whole: a
// polymorphic field found, or every serializer below looked at, so that a
// schema whose serializers share nested ones is walked once. A walk cut at
// maxNesting (a cycle, which only a hand-built schema has: Parse refuses
// them) keeps no "no". Only whole answers are stored, and atomically:
// decoders on several goroutines (a keyframe's resumes) may walk at once.
func (s *Serializer) reachesPoly(depth int) (yes, whole bool) {
	switch s.poly.Load() {
	case polyYes:
		return true, true
	case polyNo:
		return false, true
	}
	if depth > maxNesting {
		return false, false
	}
	whole = true
	for _, f := range s.Fields {
		if len(f.Polymorphic) > 0 {
			s.poly.Store(polyYes)
			return true, true
		}
		if f.Serializer != nil {
			y, w := f.Serializer.reachesPoly(depth + 1)
			if y {
				s.poly.Store(polyYes)
				return true, true
			}
			whole = whole && w
		}
	}
	if whole {
		s.poly.Store(polyNo)
	}
	return false, whole
}

// Nested is the serializer a table field leads into, given the field's own
// value v: for a polymorphic pointer, the alternative v (the serializer index
// read after the presence bit) names when it is in range; else, and for 0 or
// an index out of range, the declared serializer. It is the one rule every
// walk of a serializer path uses (the engine's state, the writer, the rows).
func (f *Field) Nested(v decoder.Value) *Serializer {
	if pi := v.Int64(); pi > 0 && pi < int64(len(f.Polymorphic)) {
		return f.Polymorphic[pi]
	}
	return f.Serializer
}

// Hot is the decode-time summary of a field.
type Hot struct {
	Model Model
	Poly  bool  // polymorphic pointer
	Count int32 // fixed array length
	Dec   *decoder.Decoder
	Elem  *decoder.Decoder
	Sub   *Serializer
}

// Schema is every serializer of a replay.
type Schema struct {
	Game        game.Game
	Serializers []*Serializer
	Aliases     Aliases // what it was parsed with
	// fields is every distinct field, in message order (AllFields); nil
	// in a parsed schema until it is complete.
	fields []*Field
	// src builds the fields and field lists of a parsed schema on first
	// use (lazy.go); nil in a realiased one.
	src *pending
	// under is the parsed schema a Realias copy shares serializers with,
	// lazy what rebuilds the ones it does not.
	under     *Schema
	lazy      *lazySerializers
	indexOnce sync.Once
	index     *carriers // see Realias
	byName    map[string]*Serializer
	// TickInterval is the file's tick interval (svc_ServerInfo) its
	// simulation times are read with; 0 when it gave none (each game's
	// usual one, simTickInterval).
	TickInterval float32
	// plain, plainFields: see PlainSerializers, PlainFields.
	plain, plainFields bool
	// WatchAlso, when set before the fields are built, watches the
	// fields it picks for value evidence too (watch.go): a forecast of
	// how another parser reads the file watches the fields it reads
	// otherwise.
	WatchAlso func(*Field) bool
}

// PlainSerializers reports whether the parse read every serializer
// message as Valve writes it: a name symbol, a version and field indexes,
// as one-byte-tag varints (checkIndexes), nothing else. False when
// unknown, as for a Realias copy.
func (s *Schema) PlainSerializers() bool { return s.plain }

// PlainFields reports whether every field message the parse read held
// only the numbers its definition gives (1 to 12, and 1 and 2 in each
// polymorphic alternative). False when unknown, as for a Realias copy.
func (s *Schema) PlainFields() bool { return s.plainFields }

// Serializer returns the serializer for a class's network name, its field
// list read.
func (s *Schema) Serializer(name string) *Serializer {
	if s.under == nil {
		ser := s.byName[name]
		ser.Load()
		return ser
	}
	return s.lazy.lookup(s.under.byName[name])
}

// rawField is a ProtoFlattenedSerializerField_t as read and checked: its
// symbols, its settings and, for a nested serializer's field, the
// serializer's place. The Field is built from it on first use (field.go).
type rawField struct {
	typeSym, nameSym, encoderSym, sendNodeSym, serNameSym, varSerSym int32
	serVersion                                                       int32
	bitCount, flags                                                  int32
	low, high                                                        float32
	bitCountSet, lowSet, highSet, hasSerName                         bool
	poly                                                             [][2]int32 // polymorphic alternatives: name symbol, version
	ser                                                              int32      // nested serializer's id, when hasSerName
	polySers                                                         []int32    // the alternatives' ids
}

// Parse builds the schema from a CSVCMsg_FlattenedSerializer body.
func Parse(b []byte, g game.Game) (*Schema, error) { return ParseWith(b, g, Aliases{}) }

// ParseWith is Parse with aliases for names decoder choice does not know.
func ParseWith(b []byte, g game.Game, aliases Aliases) (*Schema, error) {
	return ParseWithTick(b, g, aliases, 0)
}

// ParseWithTick is ParseWith for a file whose svc_ServerInfo gives its
// tick interval (0: none): simulation times are ticks of it.
func ParseWithTick(b []byte, g game.Game, aliases Aliases, tickInterval float32) (*Schema, error) {
	s, err := ParseLazyWithTick(b, g, aliases, tickInterval)
	if err != nil {
		return nil, err
	}
	s.Complete()
	return s, nil
}

// ParseLazy is ParseLazyWithTick for a file that gives no tick interval.
func ParseLazy(b []byte, g game.Game, aliases Aliases) (*Schema, error) {
	return ParseLazyWithTick(b, g, aliases, 0)
}

// ParseLazyWithTick is ParseWithTick that leaves each serializer's field
// list, and each field, to be built when first used (lazy.go, field.go): a
// replay decodes the classes it creates, a tenth of a Dota 2 schema's
// 1,600 serializers and 100,000 field indexes, and about half its 1,800
// fields. Everything is read and checked as ParseWith does, so it fails
// where ParseWith fails, with the same error. Serializers lists every
// serializer; call Complete (AllFields does) before walking the Fields of
// all of them. The schema reads b until it is complete: b must not change
// meanwhile.
//
// Every replay opened pays for it, so it is written for speed: the field
// indexes are read by plain loops (indexes.go) and symbols are substrings
// of one string.
func ParseLazyWithTick(b []byte, g game.Game, aliases Aliases, tickInterval float32) (*Schema, error) {
	// Count first so the big slices are allocated once: by hand for the
	// usual shape, else by the cursor, which also finds what is malformed.
	nSer, nSym, nField, symBytes, ok := countTop(b)
	c := wiretree.NewCursor(b)
	for !ok && c.Step() {
		switch c.Num {
		case 1:
			nSer++
		case 2:
			nSym++
			symBytes += len(c.Bytes())
		case 3:
			nField++
		}
	}
	if err := c.Err(); err != nil {
		return nil, fmt.Errorf("CSVCMsg_FlattenedSerializer: %w", err)
	}
	// The symbols are substrings of one string: one allocation, not one
	// per symbol.
	// The slices and maps below are a released schema's when there is one
	// (reuse.go).
	st := takeStorage()
	symBuf := make([]byte, 0, symBytes)
	symEnds := room(st.symEnds, nSym)
	raws := room(st.raws, nField)
	rsers := room(st.rsers, nSer)
	plainFields := true
	for c = wiretree.NewCursor(b); c.Step(); {
		switch c.Num {
		case 1:
			// Read below, in one pass with the check of its indexes
			// against the fields, which come after it.
			rsers = append(rsers, rawSerializer{msg: c.Bytes(), at: c.Offset()})
		case 2:
			symBuf = append(symBuf, c.Bytes()...)
			symEnds = append(symEnds, int32(len(symBuf)))
		case 3:
			raws = raws[:len(raws)+1]
			fieldPlain, err := parseFieldInto(&raws[len(raws)-1], c.Bytes())
			plainFields = plainFields && fieldPlain
			if err != nil {
				// A malformed serializer before it is the first error,
				// as when each was read where it stands.
				for i := range rsers {
					if _, err := rsers[i].read(nil, nil); err != nil {
						return nil, rsers[i].error(err)
					}
				}
				return nil, fmt.Errorf("CSVCMsg_FlattenedSerializer: field at byte %d: %w", c.Offset(), err)
			}
		}
	}
	// Each serializer's name, version and field indexes, checked against
	// the fields; each index of a nested serializer's field noted for the
	// nesting check (its field list is read on first use, lazy.go).
	hasSer := room(st.hasSer, len(raws))[:len(raws)]
	for i := range raws {
		hasSer[i] = raws[i].hasSerName
	}
	edges := st.edges[:0]
	starts := room(st.starts, len(rsers)+1)[:len(rsers)+1]
	plain := true
	for i := range rsers {
		var err error
		if edges, err = rsers[i].read(hasSer, edges); err != nil {
			return nil, rsers[i].error(err)
		}
		starts[i+1] = int32(len(edges))
		plain = plain && rsers[i].fast
	}
	// symBuf is never written again: the string is over it, not a copy.
	symAll := unsafe.String(unsafe.SliceData(symBuf), len(symBuf))
	symbols := room(st.symbols, len(symEnds))[:len(symEnds)]
	for i, end := range symEnds {
		start := int32(0)
		if i > 0 {
			start = symEnds[i-1]
		}
		symbols[i] = symAll[start:end]
	}
	sym := func(i int32, what string) (string, error) {
		if i < 0 || int(i) >= len(symbols) {
			return "", fmt.Errorf("%s symbol %d out of range (%d symbols)", what, i, len(symbols))
		}
		return symbols[i], nil
	}
	// The symbols a field must have, checked in the order building it
	// would read them.
	for i := range raws {
		rf := &raws[i]
		name, err := sym(rf.nameSym, "var_name")
		if err != nil {
			return nil, fmt.Errorf("field %d: %w", i, err)
		}
		if _, err = sym(rf.typeSym, "var_type"); err != nil {
			return nil, fmt.Errorf("field %d (%s): %w", i, name, err)
		}
		if rf.hasSerName {
			if _, err = sym(rf.serNameSym, "field_serializer_name"); err != nil {
				return nil, fmt.Errorf("field %d (%s): %w", i, name, err)
			}
		}
	}
	if st.byName == nil {
		st.byName = make(map[string]*Serializer, len(rsers))
	} else {
		clear(st.byName)
	}
	if st.types == nil {
		st.types, st.memo = make(map[string]VarType, len(raws)/4), make(choiceMemo, len(raws)/4)
	} else {
		clear(st.types)
		clear(st.memo)
	}
	s := &Schema{Game: g, Aliases: aliases, byName: st.byName, TickInterval: tickInterval, plain: plain, plainFields: plainFields}
	st.raws, st.rsers, st.symEnds, st.symbols, st.hasSer, st.edges, st.starts = raws, rsers, symEnds, symbols, hasSer, edges, starts
	st.fields = room(st.fields, len(raws))[:len(raws)]
	st.sers = room(st.sers, len(rsers))[:len(rsers)]
	st.serPtrs = room(st.serPtrs, len(rsers))
	p := &pending{schema: s, msgs: rsers, edges: edges, starts: starts, raws: raws, symbols: symbols,
		fields: st.fields, types: st.types, memo: st.memo, store: st}
	s.src = p
	sers := st.sers
	s.Serializers = st.serPtrs
	for i := range rsers {
		rs := &rsers[i]
		name, err := sym(rs.nameSym, "serializer_name")
		if err != nil {
			return nil, fmt.Errorf("serializer %d: %w", i, err)
		}
		ser := &sers[i]
		ser.Name, ser.Version, ser.id, ser.src = name, rs.version, int32(i), p
		if rs.bad != -1 {
			return nil, fmt.Errorf("serializer %s: field index %d out of range (%d fields)", name, rs.bad, len(raws))
		}
		s.Serializers = append(s.Serializers, ser)
		s.byName[name] = ser
	}
	// A nested serializer is the one of its name and version, else the
	// last of its name. A name nearly always has one version: byName
	// answers, and the scan is for the rest (no map of every version).
	byVersion := func(name string, v int32) *Serializer {
		if ser := s.byName[name]; ser == nil || ser.Version == v {
			return ser
		}
		for i := len(s.Serializers) - 1; i >= 0; i-- { // the last, as byName
			if ser := s.Serializers[i]; ser.Name == name && ser.Version == v {
				return ser
			}
		}
		return s.byName[name]
	}
	// Resolve nested serializers; the fields themselves are built on
	// first use.
	for i := range raws {
		rf := &raws[i]
		if !rf.hasSerName {
			continue
		}
		name, serName := symbols[rf.nameSym], symbols[rf.serNameSym]
		ser := byVersion(serName, rf.serVersion)
		if ser == nil {
			return nil, fmt.Errorf("field %s: serializer %s version %d not found", name, serName, rf.serVersion)
		}
		rf.ser = ser.id
		for _, alt := range rf.poly {
			altName, err := sym(alt[0], "polymorphic serializer")
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", name, err)
			}
			ps := byVersion(altName, alt[1])
			if ps == nil {
				return nil, fmt.Errorf("field %s: polymorphic serializer %s not found", name, altName)
			}
			rf.polySers = append(rf.polySers, ps.id)
		}
	}
	// Nested serializers may be referenced before they are defined, so a
	// cycle check runs once everything is linked.
	if err := p.checkNesting(s.Serializers); err != nil {
		return nil, err
	}
	return s, nil
}

// countTop counts the serializers, symbols (and their bytes) and fields of
// a CSVCMsg_FlattenedSerializer written as Valve writes it: fields 1, 2
// and 3, each length-delimited with a one-byte tag. ok is false, the
// counts zero, for anything else (other fields, a malformed length), which
// the cursor then reads.
func countTop(b []byte) (nSer, nSym, nField, symBytes int, ok bool) {
	for i := 0; i < len(b); {
		tag := b[i]
		var l uint64
		j := i + 1
		switch {
		case j < len(b) && b[j] < 0x80:
			l, j = uint64(b[j]), j+1
		case j+1 < len(b) && b[j+1] < 0x80:
			l, j = uint64(b[j]&0x7f)|uint64(b[j+1])<<7, j+2
		default:
			var k int
			if l, k = protowire.ConsumeVarint(b[j:]); k < 0 {
				return 0, 0, 0, 0, false
			}
			j += k
		}
		if l > uint64(len(b)-j) {
			return 0, 0, 0, 0, false
		}
		switch tag {
		case 1<<3 | 2:
			nSer++
		case 2<<3 | 2:
			nSym++
			symBytes += int(l)
		case 3<<3 | 2:
			nField++
		default:
			return 0, 0, 0, 0, false
		}
		i = j + int(l)
	}
	return nSer, nSym, nField, symBytes, true
}

// maxNesting bounds serializer nesting; real schemas nest a few levels.
const maxNesting = 16

// MaxExpandedFields bounds the fields of one serializer with its nested
// serializers expanded in place (the tree a fully written entity fills and
// the debugger lists). Real classes expand to a few hundred.
const MaxExpandedFields = 1 << 16

// rawSerializer is a ProtoFlattenedSerializer_t: a name, a version and
// its fields as indexes into the message's field list, kept as the message
// until the fields can be linked.
type rawSerializer struct {
	nameSym, version int32
	count            int // field indexes
	msg              []byte
	at               int   // byte offset in the schema message
	bad              int32 // the last index outside the fields, or -1
	fast             bool  // written as checkIndexes reads it
}

// read reads the serializer's name and version, and counts and checks its
// field indexes against the fields (hasSer: whether each names a nested
// serializer), appending to edges an edge for each index of a nested one.
func (rs *rawSerializer) read(hasSer []bool, edges []nestEdge) ([]nestEdge, error) {
	if rs.nameSym, rs.version, rs.count, edges, rs.bad, rs.fast = checkIndexes(rs.msg, hasSer, edges); rs.fast {
		return edges, nil
	}
	rs.count, rs.bad = 0, -1
	pos := int32(0)
	err := rs.walk(func(fi int32) {
		rs.count++
		if fi < 0 || int(fi) >= len(hasSer) {
			rs.bad = fi
			return
		}
		if hasSer[fi] {
			edges = append(edges, nestEdge{pos: pos, field: fi})
		}
		pos++
	})
	return edges, err
}

// error is err, the serializer's message not read, where it stands.
func (rs *rawSerializer) error(err error) error {
	return fmt.Errorf("CSVCMsg_FlattenedSerializer: serializer at byte %d: %w", rs.at, err)
}

// walk reads the serializer message, calling fn with each field index,
// packed or not. Valve sends them unpacked, hundreds to a serializer: a
// run of them takes the cursor's fast path.
func (rs *rawSerializer) walk(fn func(int32)) error {
	c := wiretree.NewCursor(rs.msg)
	for {
		for v, ok := c.NextVarintOf(3); ok; v, ok = c.NextVarintOf(3) {
			fn(int32(v))
		}
		if !c.Next() {
			return c.Err()
		}
		switch {
		case c.Num == 1:
			rs.nameSym = int32(c.V)
		case c.Num == 2:
			rs.version = int32(c.V)
		case c.Num == 3 && c.Type == protowire.BytesType:
			if err := wiretree.PackedVarints(c.Data, func(v uint64) { fn(int32(v)) }); err != nil {
				return err
			}
		case c.Num == 3:
			fn(int32(c.V))
		}
	}
}

// parseFieldInto reads a ProtoFlattenedSerializerField_t into *rf, which
// must be zero.
func parseFieldInto(rf *rawField, d []byte) (plain bool, err error) {
	rf.encoderSym, rf.sendNodeSym, rf.varSerSym = -1, -1, -1
	plain = true
	c := wiretree.NewCursor(d)
	for c.Step() {
		v := c.V
		switch c.Num {
		case 1:
			rf.typeSym = int32(v)
		case 2:
			rf.nameSym = int32(v)
		case 3:
			rf.bitCount, rf.bitCountSet = int32(v), true
		case 4:
			rf.low, rf.lowSet = wiretree.Float32(v), true
		case 5:
			rf.high, rf.highSet = wiretree.Float32(v), true
		case 6:
			rf.flags = int32(v)
		case 7:
			rf.serNameSym, rf.hasSerName = int32(v), true
		case 8:
			rf.serVersion = int32(v)
		case 9:
			rf.sendNodeSym = int32(v)
		case 10:
			rf.encoderSym = int32(v)
		case 11:
			var p [2]int32
			pc := wiretree.NewCursor(c.Bytes())
			for pc.Step() {
				if pc.Num == 1 || pc.Num == 2 {
					p[pc.Num-1] = int32(pc.V)
				} else {
					plain = false
				}
			}
			if err := pc.Err(); err != nil {
				return false, err
			}
			rf.poly = append(rf.poly, p)
		case 12:
			rf.varSerSym = int32(v)
		default:
			plain = false
		}
	}
	return plain, c.Err()
}
