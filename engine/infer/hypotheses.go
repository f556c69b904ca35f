package infer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
)

// Group is the known names under which an unknown name's fields decode
// identically (the same model and decoders for every field): one test
// stands for all of them.
type Group struct {
	Names   []string // the most natural first
	Fields  int
	Current bool // decodes as the aliases in force already do
	tied    []string
}

// Hypotheses groups every known name of the kind by how the fields
// carrying the unknown name would decode under it.
func Hypotheses(s *schema.Schema, base schema.Aliases, kind schema.Kind, name string) []Group {
	known := schema.KnownTypes(s.Game)
	if kind == schema.KindEncoder {
		known = schema.KnownEncoders()
	}
	carrying := s.Carrying(kind, name)
	current := signature(schema.Under(carrying, base, s.Game))
	by := map[string]*Group{}
	var order []string
	for _, k := range known {
		fields := schema.Under(carrying, base.With(kind, name, k), s.Game)
		sig := signature(fields)
		g := by[sig]
		if g == nil {
			g = &Group{Fields: len(fields), Current: sig == current}
			by[sig] = g
			order = append(order, sig)
		}
		g.Names = append(g.Names, k)
	}
	out := make([]Group, 0, len(order))
	for _, sig := range order {
		g := by[sig]
		sort.SliceStable(g.Names, func(i, j int) bool { return preference(g.Names[i]) < preference(g.Names[j]) })
		out = append(out, *g)
	}
	return out
}

// preferred orders the names of a group: the plain types a reader thinks in
// first, then the rest as sorted.
var preferred = []string{
	"int32", "uint32", "float32", "bool", "uint64", "int64", "CUtlString", "Vector", "QAngle",
	"CHandle", "CNetworkedQuantizedFloat", "GameTime_t", "coord", "simtime", "normal",
}

func preference(name string) int {
	for i, p := range preferred {
		if p == name {
			return i
		}
	}
	return len(preferred)
}

func signature(fields []*schema.Field) string {
	var b strings.Builder
	for _, f := range fields {
		b.WriteString(f.Model.String())
		for _, d := range []*decoder.Decoder{f.Decoder, f.Elem} {
			if d != nil {
				if d.Family == decoder.FamDefault {
					d = &decoder.Decoder{Family: decoder.FamUnsigned} // reads alike
				}
				b.WriteString("|" + d.Describe())
			}
		}
		b.WriteByte(';')
	}
	return b.String()
}

// UnknownRead is an unknown name read where the first misaligned message goes
// wrong.
type UnknownRead struct {
	Kind schema.Kind
	Name string
	// Where it is first read: an update of the message, and either a
	// field of the message or (InBaseline) of the class's baseline.
	Update, Field int
	InBaseline    bool
	Bit           uint // bit offset of the value, in the message or the baseline
	Entity        int32
	Class         string
	FieldName     string
	Decoder       string
	// BaselineFailed: it is read in a baseline of the message that did not
	// decode to its end (only those are recorded).
	BaselineFailed bool
	// PathMismatch: a field path did not fit the field (its unknown type
	// gave it the wrong shape).
	PathMismatch bool
	// EnumLike: every value the default decoder read for it was a short
	// varint of a small number, as enums and ids are (the seed's reason for
	// reading them so): weak evidence that the default is right for it.
	EnumLike bool
}

// Observed is what one evaluation saw of the first misaligned message:
// its record and the baselines of the classes it creates that did not
// decode to their end, each recorded as the create read it.
type Observed struct {
	Rec       *provenance.Message
	Baselines map[int32]*provenance.Message
	Data      map[int32][]byte // each of those baselines' bits
}

// Suspects lists the unknown names read by the first misaligned message
// up to where it stops making sense, in baselines or in its own data, in
// order of evidence: a path that does not fit a field of the name first,
// then names in a baseline that failed to decode, then names read in the
// message's data (those read as short varints, as enums are, last), each
// in the order they are first read.
func Suspects(ob *Observed, stopBit uint) []UnknownRead {
	seen := map[schema.Name]int{}
	var out []UnknownRead
	add := func(f *provenance.Field, u int, entity int32, class string, inBaseline bool) {
		for _, kn := range unknownNames(f.Schema) {
			if i, ok := seen[kn]; ok {
				out[i].BaselineFailed = out[i].BaselineFailed || inBaseline
				continue
			}
			seen[kn] = len(out)
			out = append(out, UnknownRead{Kind: kn.Kind, Name: kn.Name, Update: u, Field: -1, InBaseline: inBaseline, Bit: f.Start,
				Entity: entity, Class: class, FieldName: f.Name, Decoder: f.Decoder.Describe(), BaselineFailed: inBaseline})
		}
	}
	// A path that did not fit a field whose type is unknown: its shape
	// (from the type) is what is wrong, and there is no value read to
	// see it by.
	mismatch := func(m *provenance.Message, u int, bit uint, inBaseline bool) {
		if m == nil || m.ErrField == nil || u < 0 || u >= len(ob.Rec.Updates) {
			return
		}
		eu := &ob.Rec.Updates[u]
		for _, kn := range unknownNames(m.ErrField) {
			if _, ok := seen[kn]; !ok {
				seen[kn] = len(out)
				out = append(out, UnknownRead{Kind: kn.Kind, Name: kn.Name, Update: u, Field: -1, InBaseline: inBaseline, Bit: bit,
					Entity: eu.Index, Class: eu.Class, FieldName: m.ErrField.Name, Decoder: "(path does not fit)",
					BaselineFailed: inBaseline, PathMismatch: true})
			}
		}
	}
	rec := ob.Rec
	for ui := range rec.Updates {
		if u := &rec.Updates[ui]; u.Op == provenance.Create && u.Start <= stopBit {
			if b := ob.Baselines[u.ClassID]; b != nil {
				mismatch(b, ui, b.EndBit, true)
			}
		}
	}
	mismatch(rec, len(rec.Updates)-1, rec.EndBit, false)
	for ui := range rec.Updates {
		u := &rec.Updates[ui]
		if u.Start > stopBit {
			break
		}
		if u.Op == provenance.Create {
			if b := ob.Baselines[u.ClassID]; b != nil {
				for i := range b.Fields {
					add(&b.Fields[i], ui, u.Index, u.Class, true)
				}
			}
		}
		for fi := u.FirstField; fi < u.FirstField+u.NumFields && fi < len(rec.Fields); fi++ {
			f := &rec.Fields[fi]
			if f.Start > stopBit {
				break
			}
			n := len(out)
			add(f, ui, u.Index, u.Class, false)
			for i := n; i < len(out); i++ {
				out[i].Field, out[i].EnumLike = fi, true
			}
			for _, kn := range unknownNames(f.Schema) {
				if i := seen[kn]; !out[i].InBaseline && !enumLike(f) {
					out[i].EnumLike = false
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	if len(out) > MaxNames {
		out = out[:MaxNames]
	}
	return out
}

func rank(s UnknownRead) int {
	switch {
	case s.PathMismatch:
		return -1
	case s.BaselineFailed:
		return 0
	case s.EnumLike:
		return 2
	}
	return 1
}

// enumLike reports whether a value read by the default decoder looks like
// what the default is right for: a varint of at most two bytes.
func enumLike(f *provenance.Field) bool {
	return f.Decoder != nil && f.Decoder.Family == decoder.FamDefault && f.Bits <= 16
}

func evidence(h hypothesis, was Score) string {
	best := h.sc
	s := fmt.Sprintf("%d of %d messages from the first misaligned one decode aligned", best.Messages, best.Messages)
	if best.Failed {
		s = fmt.Sprintf("the first misaligned message reads on to bit %d (was %d)", best.Progress, was.Progress)
	}
	if h.fixes > 0 {
		s += fmt.Sprintf("; %d baseline(s) that failed decode to their last bit", h.fixes)
	}
	return s
}

// rankNew moves the names new since the earlier build to the front, in
// their order: a patch's new names are what broke it, far more often than
// names the earlier build decoded fine with.
func (c *Fork) rankNew(sus []UnknownRead) []UnknownRead {
	if len(c.New) == 0 {
		return sus
	}
	sort.SliceStable(sus, func(i, j int) bool {
		return c.New[schema.Name{Kind: sus[i].Kind, Name: sus[i].Name}] && !c.New[schema.Name{Kind: sus[j].Kind, Name: sus[j].Name}]
	})
	return sus
}

// unknownNames are f's unknown names (none for a nil field).
func unknownNames(f *schema.Field) []schema.Name {
	if f == nil {
		return nil
	}
	return f.UnknownNames()
}
