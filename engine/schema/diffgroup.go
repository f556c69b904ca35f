package schema

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dembug/dembug/engine/game"
)

// renamedBase returns the base names that differ between two parsed
// types whose shape is the same (int32 → NetworkedInt32, or the element
// of CNetworkUtlVectorBase< int32 >), or two empty names.
func renamedBase(a, b VarType) [2]string {
	for {
		if a.Pointer != b.Pointer || a.Count != b.Count || (a.Generic == nil) != (b.Generic == nil) {
			return [2]string{}
		}
		if a.Base != b.Base {
			if a.Generic != nil && a.Generic.String() != b.Generic.String() {
				return [2]string{} // more than one name changed
			}
			return [2]string{a.Base, b.Base}
		}
		if a.Generic == nil {
			return [2]string{}
		}
		a, b = *a.Generic, *b.Generic
	}
}

// ChangeGroup is the field changes one renamed type made: a patch that
// renames a type touches every field of it, in every class.
type ChangeGroup struct {
	From, To string // base type names
	Fields   int    // field changes it covers
	Classes  int    // serializers they are in
	// Decoders lists each decoder change and how many fields made it,
	// the commonest first.
	Decoders []DecoderChange
	// As is the --as alias that reads the new name as the old one decoder
	// choice knows ("" when the new name is known, or the old one is not).
	As string
}

// DecoderChange is one decoder before and after, and how many fields.
type DecoderChange struct {
	Before, After string
	Fields        int
	Effect        string // what reading with After instead of Before does, when easy to state
}

// MinGroup is how many field changes a rename needs to be a group.
const MinGroup = 2

// GroupChanges gathers the field changes that are one type renamed (the
// same base names before and after) into groups of at least MinGroup,
// largest first, and returns the changes no group covers. g is the new
// build's game, for which names decoder choice knows.
func GroupChanges(changes []Change, g game.Game) (groups []ChangeGroup, rest []Change) {
	type acc struct {
		grp     ChangeGroup
		classes map[string]bool
		decs    map[[2]string]*DecoderChange
		members []int
	}
	by := map[[2]string]*acc{}
	for i, c := range changes {
		if c.Kind != FieldChanged || c.Renamed[0] == "" {
			continue
		}
		a := by[c.Renamed]
		if a == nil {
			a = &acc{grp: ChangeGroup{From: c.Renamed[0], To: c.Renamed[1]}, classes: map[string]bool{}, decs: map[[2]string]*DecoderChange{}}
			by[c.Renamed] = a
		}
		a.grp.Fields++
		a.classes[c.Serializer] = true
		d := a.decs[c.Decoders]
		if d == nil {
			d = &DecoderChange{Before: c.Decoders[0], After: c.Decoders[1], Effect: c.Effect}
			a.decs[c.Decoders] = d
		}
		d.Fields++
		a.members = append(a.members, i)
	}
	grouped := map[int]bool{}
	for _, a := range by {
		if a.grp.Fields < MinGroup {
			continue
		}
		a.grp.Classes = len(a.classes)
		for _, d := range a.decs {
			a.grp.Decoders = append(a.grp.Decoders, *d)
		}
		sort.Slice(a.grp.Decoders, func(i, j int) bool {
			x, y := a.grp.Decoders[i], a.grp.Decoders[j]
			if x.Fields != y.Fields {
				return x.Fields > y.Fields
			}
			return x.Before+x.After < y.Before+y.After
		})
		if IsKnownType(a.grp.From, g) && !IsKnownType(a.grp.To, g) {
			a.grp.As = "--as " + a.grp.To + "=" + a.grp.From
		}
		groups = append(groups, a.grp)
		for _, i := range a.members {
			grouped[i] = true
		}
	}
	sort.Slice(groups, func(i, j int) bool {
		if groups[i].Fields != groups[j].Fields {
			return groups[i].Fields > groups[j].Fields
		}
		return groups[i].From < groups[j].From
	})
	for i, c := range changes {
		if !grouped[i] {
			rest = append(rest, c)
		}
	}
	return groups, rest
}

// String is the group's one line: the rename, how far it reaches, what it
// does to decoding, and the alias that undoes it.
func (g ChangeGroup) String() string {
	var decs []string
	for i, d := range g.Decoders {
		if i == 3 {
			decs = append(decs, fmt.Sprintf("… %d more", len(g.Decoders)-i))
			break
		}
		s := "decoder " + d.Before + " → " + d.After
		if d.Before == d.After {
			s = "decoder unchanged (" + d.Before + ")"
		} else if d.Effect != "" {
			s += ": " + d.Effect
		}
		if len(g.Decoders) > 1 {
			s += fmt.Sprintf(" (%d)", d.Fields)
		}
		decs = append(decs, s)
	}
	s := fmt.Sprintf("type %s → %s: %d fields in %d classes; %s", g.From, g.To, g.Fields, g.Classes, strings.Join(decs, "; "))
	if g.As != "" {
		s += "; rerun with " + g.As
	}
	return s
}

// decoderEffect says what reading field after's way instead of before's
// does to the bits and values, for the decoders whose difference is easy
// to state: varints of one width read the same bits.
func decoderEffect(before, after *Field) string {
	b, bLen := readVarint(before)
	a, aLen := readVarint(after)
	switch {
	case bLen != aLen:
	case b == 32 && a == 32:
		return "the same bits, other values"
	case b == 32 && a == 64 || b == 64 && a == 32:
		return "the same bits while a value fits 32 bits; a longer one is cut or misaligns"
	}
	return "other bits: the decode misaligns where it reads one"
}

// readVarint is the width of the varint a field's values are read as (0
// for anything else), and whether a length comes first (a variable
// array's elements).
func readVarint(f *Field) (bits int, length bool) {
	d := f.Decoder
	switch f.Model {
	case VariableArray:
		d, length = f.Elem, true
	case FixedTable, VariableTable:
		return 0, false
	}
	if d == nil {
		return 0, length
	}
	return d.Family.VarintBits(), length
}

// RepeatGroup is one field added to (or removed from) many classes alike:
// a base class's field, which every class deriving from it lists.
type RepeatGroup struct {
	Kind    ChangeKind
	Field   string
	What    string   // its type and decoder, as the change says
	Classes []string // sorted
}

// MinRepeat is how many classes a field added or removed alike needs to
// be one line.
const MinRepeat = 3

// GroupRepeated gathers the fields added or removed alike (same name,
// type and decoder) in at least MinRepeat classes, largest first, and
// returns the changes left.
func GroupRepeated(changes []Change) (groups []RepeatGroup, rest []Change) {
	type key struct {
		kind        ChangeKind
		field, what string
	}
	by := map[key][]int{}
	for i, c := range changes {
		if (c.Kind != FieldAdded && c.Kind != FieldRemoved) || len(c.Details) == 0 {
			continue
		}
		what := c.Details[0]
		if _, after, ok := strings.Cut(what, ", "); ok && (strings.HasPrefix(what, "#") || strings.HasPrefix(what, "was #")) {
			what = after // the index differs from class to class
		}
		k := key{c.Kind, c.Field, what}
		by[k] = append(by[k], i)
	}
	grouped := map[int]bool{}
	for k, idx := range by {
		if len(idx) < MinRepeat {
			continue
		}
		g := RepeatGroup{Kind: k.kind, Field: k.field, What: k.what}
		for _, i := range idx {
			g.Classes = append(g.Classes, changes[i].Serializer)
			grouped[i] = true
		}
		sort.Strings(g.Classes)
		groups = append(groups, g)
	}
	sort.Slice(groups, func(i, j int) bool {
		if len(groups[i].Classes) != len(groups[j].Classes) {
			return len(groups[i].Classes) > len(groups[j].Classes)
		}
		return groups[i].Field < groups[j].Field
	})
	for i, c := range changes {
		if !grouped[i] {
			rest = append(rest, c)
		}
	}
	return groups, rest
}

func (g RepeatGroup) String() string {
	eg := g.Classes
	more := ""
	if len(eg) > 3 {
		eg, more = eg[:3], ", …"
	}
	return fmt.Sprintf("%-13s %s (%s) in %d classes: %s%s", g.Kind, g.Field, g.What, len(g.Classes), strings.Join(eg, ", "), more)
}
