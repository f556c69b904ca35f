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
	// Renamed is, for a field whose type changed name only, the base
	// names before and after (see GroupChanges); Decoders the decoders.
	Renamed  [2]string
	Decoders [2]string
	// Effect says, for a renamed type, what reading with the new decoder
	// instead of the old does (decoderEffect).
	Effect string
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
	old.Complete()
	new.Complete()
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
		oKeys, nKeys := fieldKeys(os), fieldKeys(ns)
		oi, ni := indexByName(oKeys), indexByName(nKeys)
		// Rank among the fields both builds have: a field only "moved" when
		// its order relative to them changed, not because of an insertion.
		oRank, nRank := commonRanks(oKeys, ni), commonRanks(nKeys, oi)
		for i, f := range os.Fields {
			j, found := ni[oKeys[i]]
			if !found {
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
				c := Change{Kind: FieldChanged, Serializer: name, Field: f.Name, Details: details}
				if a["type"] != b["type"] {
					c.Renamed, c.Decoders = renamedBase(f.Type, g.Type), [2]string{a["decoder"], b["decoder"]}
					c.Effect = decoderEffect(f, g)
					if len(f.Polymorphic) > 0 || f.Serializer != nil {
						c.Renamed = [2]string{}
					}
				}
				out = append(out, c)
			}
			if oRank[oKeys[i]] != nRank[oKeys[i]] {
				out = append(out, Change{Kind: FieldMoved, Serializer: name, Field: f.Name, Details: []string{fmt.Sprintf("index %d → %d", i, j)}})
			}
		}
		for j, g := range ns.Fields {
			if _, found := oi[nKeys[j]]; !found {
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

// fieldKeys names each field of s for matching across builds: its name,
// or for a name a serializer repeats (CBasePlayerPawn has two m_vecX) the
// name and its occurrence, "m_vecX#2".
func fieldKeys(s *Serializer) []string {
	seen := map[string]int{}
	keys := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		seen[f.Name]++
		keys[i] = f.Name
		if n := seen[f.Name]; n > 1 {
			keys[i] = fmt.Sprintf("%s#%d", f.Name, n)
		}
	}
	return keys
}

func indexByName(keys []string) map[string]int {
	m := make(map[string]int, len(keys))
	for i, k := range keys {
		m[k] = i
	}
	return m
}

func commonRanks(keys []string, other map[string]int) map[string]int {
	m := map[string]int{}
	for _, k := range keys {
		if _, ok := other[k]; ok {
			m[k] = len(m)
		}
	}
	return m
}
