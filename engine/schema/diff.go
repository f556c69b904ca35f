package schema

import (
	"fmt"
	"sort"
	"strings"
)

// ChangeKind says what happened to a class or field between two builds.
type ChangeKind string

const (
	ClassAdded   ChangeKind = "class added"
	ClassRemoved ChangeKind = "class removed"
	FieldAdded   ChangeKind = "field added"
	FieldRemoved ChangeKind = "field removed"
	FieldChanged ChangeKind = "field changed"
	FieldMoved   ChangeKind = "field moved" // same field, new index: every path after it shifts
)

// Change is one difference between two schemas.
type Change struct {
	Kind       ChangeKind
	Serializer string
	Field      string
	Details    []string // "bit count 13 → 14", "decoder … → …"
}

func (c Change) String() string {
	s := fmt.Sprintf("%-13s %s", c.Kind, c.Serializer)
	if c.Field != "" {
		s += "." + c.Field
	}
	if len(c.Details) > 0 {
		s += ": " + strings.Join(c.Details, "; ")
	}
	return s
}

// fieldSummary is what a parser author cares about in a field.
func fieldSummary(f *Field) map[string]string {
	m := map[string]string{
		"type":    f.VarType,
		"encoder": f.Encoder,
		"model":   f.Model.String(),
		"decoder": decoderText(f),
	}
	if f.BitCountSet {
		m["bit count"] = fmt.Sprint(f.BitCount)
	}
	if f.LowSet || f.HighSet {
		m["range"] = fmt.Sprintf("%g … %g", f.Low, f.High)
	}
	if f.EncodeFlags != 0 {
		m["flags"] = fmt.Sprint(f.EncodeFlags)
	}
	if f.Serializer != nil {
		m["serializer"] = f.Serializer.Name
	}
	return m
}

func decoderText(f *Field) string {
	switch f.Model {
	case VariableArray:
		return "length + " + f.Elem.Describe()
	case FixedTable, VariableTable:
		return f.Model.String()
	}
	return f.Decoder.Describe()
}

var summaryKeys = []string{"type", "encoder", "bit count", "range", "flags", "model", "serializer", "decoder"}

// Diff lists what changed from old to new: serializers compared by name,
// fields by name within them.
func Diff(old, new *Schema) []Change {
	var out []Change
	names := map[string]bool{}
	for _, s := range old.Serializers {
		names[s.Name] = true
	}
	for _, s := range new.Serializers {
		names[s.Name] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, name := range sorted {
		os, ns := old.byName[name], new.byName[name]
		switch {
		case os == nil:
			out = append(out, Change{Kind: ClassAdded, Serializer: name, Details: []string{fmt.Sprintf("%d fields", len(ns.Fields))}})
			continue
		case ns == nil:
			out = append(out, Change{Kind: ClassRemoved, Serializer: name, Details: []string{fmt.Sprintf("%d fields", len(os.Fields))}})
			continue
		}
		oi, ni := indexByName(os), indexByName(ns)
		// Rank among the fields both builds have: a field only "moved" when
		// its order relative to them changed, not because of an insertion.
		oRank, nRank := commonRanks(os, ni), commonRanks(ns, oi)
		for i, f := range os.Fields {
			j, ok := ni[f.Name]
			if !ok {
				out = append(out, Change{Kind: FieldRemoved, Serializer: name, Field: f.Name, Details: []string{fmt.Sprintf("was #%d, %s", i, f.VarType)}})
				continue
			}
			g := ns.Fields[j]
			a, b := fieldSummary(f), fieldSummary(g)
			var details []string
			for _, k := range summaryKeys {
				if a[k] != b[k] {
					details = append(details, fmt.Sprintf("%s %s → %s", k, orNone(a[k]), orNone(b[k])))
				}
			}
			if len(details) > 0 {
				out = append(out, Change{Kind: FieldChanged, Serializer: name, Field: f.Name, Details: details})
			}
			if oRank[f.Name] != nRank[f.Name] {
				out = append(out, Change{Kind: FieldMoved, Serializer: name, Field: f.Name, Details: []string{fmt.Sprintf("index %d → %d", i, j)}})
			}
		}
		for j, g := range ns.Fields {
			if _, ok := oi[g.Name]; !ok {
				out = append(out, Change{Kind: FieldAdded, Serializer: name, Field: g.Name, Details: []string{fmt.Sprintf("#%d, %s, %s", j, g.VarType, decoderText(g))}})
			}
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func indexByName(s *Serializer) map[string]int {
	m := make(map[string]int, len(s.Fields))
	for i, f := range s.Fields {
		m[f.Name] = i
	}
	return m
}

func commonRanks(s *Serializer, other map[string]int) map[string]int {
	m := map[string]int{}
	for _, f := range s.Fields {
		if _, ok := other[f.Name]; ok {
			m[f.Name] = len(m)
		}
	}
	return m
}
