package schema

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dembug/dembug/engine/game"
)

// Kind says what an unknown name is: a field type's base name or an
// encoder.
type Kind string

const (
	KindType    Kind = "type"
	KindEncoder Kind = "encoder"
)

// Aliases map names decoder choice does not know onto names it does, so
// that a field of an unknown type (or with an unknown encoder) is decoded as
// if the schema had said the known one, with the field's own bit count,
// range, flags and encoder. This is how a user (or the inference) states
// "after the patch, DecalMode_t is an int32".
type Aliases struct {
	Types    map[string]string
	Encoders map[string]string
	// Seed reads by the seed's tables alone, without the game's
	// corrections (correct.go; --decoders seed): what the public
	// parsers read. It travels with the aliases because every decode
	// that takes them takes it too.
	Seed bool
}

// Empty reports whether no alias is set (the reading aside).
func (a Aliases) Empty() bool { return len(a.Types) == 0 && len(a.Encoders) == 0 }

// With returns a copy of a with one more alias.
func (a Aliases) With(kind Kind, name, as string) Aliases {
	c := Aliases{Types: copyMap(a.Types), Encoders: copyMap(a.Encoders), Seed: a.Seed}
	if kind == KindEncoder {
		c.Encoders[name] = as
	} else {
		c.Types[name] = as
	}
	return c
}

func copyMap(m map[string]string) map[string]string {
	c := make(map[string]string, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	return c
}

// Equal reports whether a and b alias the same names alike.
func (a Aliases) Equal(b Aliases) bool {
	return a.Seed == b.Seed && sameMap(a.Types, b.Types) && sameMap(a.Encoders, b.Encoders)
}

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Flags renders the aliases as the --as flags that set them, sorted.
func (a Aliases) Flags() []string {
	var out []string
	for k, v := range a.Types {
		out = append(out, "--as "+k+"="+v)
	}
	for k, v := range a.Encoders {
		out = append(out, "--as "+k+"="+v)
	}
	sort.Strings(out)
	return out
}

// ParseAliases reads --as values, each NAME=KNOWN. Whether NAME is a type
// or an encoder is decided by KNOWN: no known encoder shares a name with a
// known type, so "mycoord=coord" aliases an encoder and
// "DecalMode_t=int32" a type.
func ParseAliases(specs []string, g game.Game) (Aliases, error) {
	a := Aliases{Types: map[string]string{}, Encoders: map[string]string{}}
	for _, s := range specs {
		name, as, ok := strings.Cut(s, "=")
		name, as = strings.TrimSpace(name), strings.TrimSpace(as)
		if !ok || name == "" || as == "" {
			return a, fmt.Errorf("--as %q: want NAME=KNOWN, for example DecalMode_t=int32 or mycoord=coord", s)
		}
		switch {
		case knownEncoders[as]:
			a.Encoders[name] = as
		case IsKnownType(as, g) || CorrectionFor(as, g) != nil:
			a.Types[name] = as
		default:
			return a, fmt.Errorf("--as %s: %q is neither a type nor an encoder that decoder choice knows (%s; encoders: %s)",
				s, as, knownTypesText(g), strings.Join(KnownEncoders(), " "))
		}
	}
	return a, nil
}

// knownEncoders are the encoders decoder choice reads ("qangle" is what
// real schemas give an angle read by its bit count, so it is known too).
var knownEncoders = map[string]bool{
	"coord": true, "simtime": true, "runetime": true, "normal": true, "fixed64": true,
	"qangle": true, "qangle_pitch_yaw": true, "qangle_precise": true,
}

// KnownEncoders lists them, sorted.
func KnownEncoders() []string { return sortedKeys(knownEncoders) }

// settingTypes are the types whose decoder decoderFor picks from the
// field's settings (bit count, range, flags, encoder).
var settingTypes = []string{
	"float32", "CNetworkedQuantizedFloat", "Vector", "Vector2D", "Vector4D", "VectorWS", "Quaternion",
	"QAngle", "uint64", "CStrongHandle", "CHandle", "CEntityHandle",
}

// KnownTypes lists every base type decoder choice has a rule for in game
// g, sorted: the inference's candidates for an unknown type.
func KnownTypes(g game.Game) []string {
	m := map[string]bool{}
	for k := range fixedDecoders {
		m[k] = true
	}
	if g != game.Dota2 {
		for k := range cs2FixedDecoders {
			m[k] = true
		}
	}
	for _, k := range settingTypes {
		m[k] = true
	}
	return sortedKeys(m)
}

// knownTypesText lists the types --as may name in game g; for a game
// not known yet (flags are read before the file), every game's, saying
// which hold only in CS2 and Deadlock (stats of a Dota 2 file lists those
// among its unknown names) and which are corrections and of what games.
func knownTypesText(g game.Game) string {
	if g != game.Unknown {
		return fmt.Sprintf("types: %s; corrected types: %s", strings.Join(KnownTypes(g), " "), strings.Join(correctedTypes(g), " "))
	}
	dota := map[string]bool{}
	for _, k := range KnownTypes(game.Dota2) {
		dota[k] = true
	}
	var cs2 []string
	for _, k := range KnownTypes(game.CS2) {
		if !dota[k] {
			cs2 = append(cs2, k)
		}
	}
	var corr []string
	for _, c := range corrections {
		var gs []string
		for _, h := range c.Games {
			gs = append(gs, h.String())
		}
		corr = append(corr, fmt.Sprintf("%s (%s)", c.Type, strings.Join(gs, ", ")))
	}
	return fmt.Sprintf("types of every game: %s; of CS2 and Deadlock only: %s; corrected types: %s",
		strings.Join(KnownTypes(game.Dota2), " "), strings.Join(cs2, " "), strings.Join(corr, " "))
}

// IsKnownType reports whether decoder choice has a rule for base in g.
func IsKnownType(base string, g game.Game) bool {
	if _, ok := fixedDecoders[base]; ok {
		return true
	}
	if _, ok := cs2FixedDecoders[base]; ok && g != game.Dota2 {
		return true
	}
	for _, k := range settingTypes {
		if k == base {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// aliasType returns t with every base name the aliases map replaced.
func aliasType(t VarType, types map[string]string) (VarType, bool) {
	changed := false
	if as, ok := types[t.Base]; ok {
		t.Base, changed = as, true
	}
	if t.Generic != nil {
		if g, ok := aliasType(*t.Generic, types); ok {
			t.Generic, changed = &g, true
		}
	}
	return t, changed
}

// applyAliases rewrites a field's type and encoder as the aliases say,
// noting what was done in f.Alias. The names as written stay in VarType
// and EncoderAsWritten.
func applyAliases(f *Field, a Aliases) {
	f.written, f.EncoderAsWritten = f.Type, f.Encoder
	if len(a.Types) > 0 {
		if t, ok := aliasType(f.Type, a.Types); ok {
			f.Type = t
			f.Alias = "type " + f.VarType + " read as " + t.String()
		}
	}
	if as, ok := a.Encoders[f.Encoder]; ok && f.Encoder != "" {
		note := "encoder " + f.Encoder + " read as " + as
		if f.Alias != "" {
			note = f.Alias + "; " + note
		}
		f.Alias, f.Encoder = note, as
	}
}

// markUnknown notes the names decoder choice did not know: the base type
// whose decoder fell back to the default, and an encoder outside
// knownEncoders. It runs after aliases, so an aliased name is known.
func markUnknown(f *Field, g game.Game) {
	if f.EncoderAsWritten != "" && !knownEncoders[f.Encoder] {
		f.UnknownEncoder = f.EncoderAsWritten
	}
	// A known type read by the default decoder where the seed's table
	// says so (a handle as a Dota 2 vector element) is not unknown.
	switch {
	case f.Model == VariableArray && f.Elem == decDefault && f.Type.Generic != nil && !IsKnownType(f.Type.Generic.Base, g):
		f.UnknownType = f.Type.Generic.Base
	case (f.Model == Simple || f.Model == FixedArray) && f.Decoder == decDefault && !IsKnownType(f.Type.Base, g):
		f.UnknownType = f.Type.Base
	}
}

// Unknown is one name decoder choice does not know, with where it occurs.
type Unknown struct {
	Kind   Kind
	Name   string
	Fields int      // distinct schema fields carrying it
	Sample []string // up to three of their names
}

// Unknowns lists every unknown type and encoder of the schema, sorted by
// kind then name.
func (s *Schema) Unknowns() []Unknown {
	type key struct {
		k Kind
		n string
	}
	by := map[key]*Unknown{}
	add := func(k Kind, name, where string) {
		u := by[key{k, name}]
		if u == nil {
			u = &Unknown{Kind: k, Name: name}
			by[key{k, name}] = u
		}
		u.Fields++
		if len(u.Sample) < 3 {
			u.Sample = append(u.Sample, where)
		}
	}
	// Every distinct field once (a field nested in many classes is one):
	// Fields is a tenth the length of every serializer's list.
	for _, f := range s.AllFields() {
		if f.UnknownType != "" {
			add(KindType, f.UnknownType, f.Name)
		}
		if f.UnknownEncoder != "" {
			add(KindEncoder, f.UnknownEncoder, f.Name)
		}
	}
	out := make([]Unknown, 0, len(by))
	for _, u := range by {
		out = append(out, *u)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind > out[j].Kind // types first
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Carries reports whether f is a field of the unknown name (kind, name),
// whether or not an alias now decodes it.
func (f *Field) Carries(kind Kind, name string) bool {
	if kind == KindEncoder {
		return f.EncoderAsWritten == name
	}
	return f.written.hasBase(name)
}

// under is a copy of f with its decoder chosen afresh from the schema as
// written, under aliases a.
func (f *Field) under(a Aliases, g game.Game) *Field {
	c := *f
	c.Type, c.Encoder = f.written, f.EncoderAsWritten
	c.Alias, c.Patched, c.Problem, c.Why, c.ElemWhy = "", "", "", "", ""
	c.UnknownType, c.UnknownEncoder, c.Decoder, c.Elem, c.Correction = "", "", nil, nil, nil
	applyAliases(&c, a)
	applyCorrection(&c, g, a.Seed)
	patchField(&c, g)
	chooseModel(&c, g)
	markUnknown(&c, g)
	return &c
}

// Carrying returns every field of the schema carrying the name: from the
// carrier index of a parsed schema, by a scan of a realiased one's.
func (s *Schema) Carrying(kind Kind, name string) []*Field {
	if s.under == nil {
		return s.carrierIndex().carriers[Name{kind, name}]
	}
	var out []*Field
	for _, f := range s.fields {
		if f.Carries(kind, name) {
			out = append(out, f)
		}
	}
	return out
}

// Under returns copies of fields as they would be under aliases a in game
// g; the fields are not changed.
func Under(fields []*Field, a Aliases, g game.Game) []*Field {
	out := make([]*Field, len(fields))
	for i, f := range fields {
		out[i] = f.under(a, g)
	}
	return out
}

// Name is a type or encoder name, and which of the two it is.
type Name struct {
	Kind Kind
	Name string
}

// Written is the field's type as the schema writes it (VarType parsed),
// before aliases and corrections: what another parser looks it up by.
func (f *Field) Written() VarType { return f.written }

// WrittenNames are the names the field's schema entry writes, before
// aliases: its base type, a template argument's base, its encoder.
func (f *Field) WrittenNames() []Name {
	k := []Name{{KindType, f.written.Base}}
	if f.written.Generic != nil {
		k = append(k, Name{KindType, f.written.Generic.Base})
	}
	if f.EncoderAsWritten != "" {
		k = append(k, Name{KindEncoder, f.EncoderAsWritten})
	}
	return k
}

// UnknownNames are the field's names decoder choice did not know.
func (f *Field) UnknownNames() []Name {
	var out []Name
	if f.UnknownType != "" {
		out = append(out, Name{KindType, f.UnknownType})
	}
	if f.UnknownEncoder != "" {
		out = append(out, Name{KindEncoder, f.UnknownEncoder})
	}
	return out
}

// NewUnknowns lists the unknown names of s that the schema of an earlier
// build does not carry: what a patch brought.
func (s *Schema) NewUnknowns(earlier *Schema) map[Name]bool {
	if earlier == nil {
		return nil
	}
	old := earlier.carrierIndex().carriers
	out := map[Name]bool{}
	for _, u := range s.Unknowns() {
		if k := (Name{u.Kind, u.Name}); old[k] == nil {
			out[k] = true
		}
	}
	return out
}
