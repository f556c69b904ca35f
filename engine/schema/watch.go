package schema

import "github.com/dembug/dembug/engine/decoder"

// MaxWatched bounds the fields whose values feed value evidence (a
// decoder's Watch is 16 bits).
const MaxWatched = 1<<16 - 2

// watch gives f, a field of a type decoder choice does not know read by
// the default decoder, a default decoder of its own numbered for value
// evidence: the decode counts what its values look like (package
// evidence), and check says when they show the type read wrongly. A
// corrected field (correct.go) is numbered too, its decoder copied, so
// that every file's values are held against the correction. The decoder
// reads exactly as the shared one does. Fields are numbered as they are
// built (field.go): in the order a replay first uses them, then in
// message order for the rest. Under p.mu.
func (p *pending) watch(f *Field) {
	also := p.schema.WatchAlso != nil && p.schema.WatchAlso(f)
	if (f.UnknownType == "" && f.Correction == nil && !also) || len(p.watched) >= MaxWatched {
		return
	}
	w := uint16(len(p.watched) + 1)
	known := f.Correction != nil || also
	switch {
	case known && f.Model == VariableArray && f.Elem != nil && f.Elem != decDefault:
		d := *f.Elem
		d.Watch, f.Elem = w, &d
	case known && (f.Model == Simple || f.Model == FixedArray) && f.Decoder != nil && f.Decoder != decDefault:
		d := *f.Decoder
		d.Watch, f.Decoder = w, &d
	case f.Model == VariableArray && f.Elem == decDefault:
		f.Elem = &decoder.Decoder{Family: decoder.FamDefault, Watch: w}
	case (f.Model == Simple || f.Model == FixedArray) && f.Decoder == decDefault:
		f.Decoder = &decoder.Decoder{Family: decoder.FamDefault, Watch: w}
	default:
		return
	}
	p.watched = append(p.watched, f)
}

// WatchedField returns the field a decoder's Watch number stands for, or
// nil.
func (s *Schema) WatchedField(w uint16) *Field {
	p := s.Root().src
	if p == nil || w == 0 {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if int(w) > len(p.watched) {
		return nil
	}
	return p.watched[w-1]
}

// Root is the parsed schema a realiased one shares its fields with (s
// itself when parsed): watch numbers are the root's.
func (s *Schema) Root() *Schema {
	for s.under != nil {
		s = s.under
	}
	return s
}

// WatchCount is how many fields are watched so far: Watch numbers run 1
// to it. A schema still building its fields numbers more as it builds
// them.
func (s *Schema) WatchCount() int {
	p := s.Root().src
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.watched)
}
