package schema

import "github.com/dembug/dembug/engine/decoder"

// MaxWatched bounds the fields whose values feed value evidence (a
// decoder's Watch is 16 bits).
const MaxWatched = 1<<16 - 2

// watch gives f, a field of a type decoder choice does not know read by
// the default decoder, a default decoder of its own numbered for value
// evidence: the decode counts what its values look like (package
// evidence), and check says when they show the type read wrongly. The
// decoder reads exactly as the shared default one does.
func (s *Schema) watch(f *Field) {
	if f.UnknownType == "" || len(s.Watched) >= MaxWatched {
		return
	}
	d := &decoder.Decoder{Family: decoder.FamDefault, Watch: uint16(len(s.Watched) + 1)}
	switch {
	case f.Model == VariableArray && f.Elem == decDefault:
		f.Elem = d
	case (f.Model == Simple || f.Model == FixedArray) && f.Decoder == decDefault:
		f.Decoder = d
	default:
		return
	}
	s.Watched = append(s.Watched, f)
}

// WatchedField returns the field a decoder's Watch number stands for, or
// nil.
func (s *Schema) WatchedField(w uint16) *Field {
	s = s.Root()
	if w == 0 || int(w) > len(s.Watched) {
		return nil
	}
	return s.Watched[w-1]
}

// Root is the parsed schema a realiased one shares its fields with (s
// itself when parsed): watch numbers are the root's.
func (s *Schema) Root() *Schema {
	for s.under != nil {
		s = s.under
	}
	return s
}

// WatchCount is how many fields are watched: Watch numbers run 1 to it.
func (s *Schema) WatchCount() int {
	return len(s.Root().Watched)
}
