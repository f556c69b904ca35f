package diagnose

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/dembug/dembug/engine/provenance"
)

// SeverityOf grades one anomaly: strong from Threshold up, weak below.
func SeverityOf(a Anomaly) Severity {
	if a.Score >= Threshold {
		return SevStrong
	}
	return SevWeak
}

// String names a severity: "strong", "weak" or "none".
func (s Severity) String() string {
	switch s {
	case SevStrong:
		return "strong"
	case SevWeak:
		return "weak"
	}
	return "none"
}

// Counted says whether an anomaly is one at all: a read by the default
// decoder is the seed's rule for enums and ids, not a symptom (the
// inspector still explains it), so it is neither marked nor tallied.
func Counted(a Anomaly) bool { return a.Rule != Fallback }

// Where locates one anomaly in a file.
type Where struct {
	Tick    int32  `json:"tick"`
	Command int    `json:"command"`
	Message int    `json:"message"`
	Entity  int32  `json:"entity"`
	Class   string `json:"class"`
	Field   string `json:"field"`
	Bit     uint   `json:"bit_offset"`
	At      string `json:"at"` // Bit as byte.bit in hex (0x1a.3)
	Detail  string `json:"detail"`
	// Key is the caller's own name for the place (the debugger's index
	// of the finding), not printed.
	Key int `json:"-"`
}

// FieldCount is how often a rule tripped on one field.
type FieldCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Group is every anomaly of one rule in a file: how many, the first, and
// the fields they fell on (most first).
type Group struct {
	Rule     Rule
	Severity Severity
	Count    int
	Example  Where
	Fields   []FieldCount
}

// Tally groups a file's anomalies by rule, leaving out muted rules and
// fields. The zero value is ready to use.
type Tally struct {
	mutedRules  map[Rule]bool
	mutedFields map[string]bool
	groups      map[groupKey]*group
	order       []groupKey
	muted       int
}

// groupKey: a rule's strong and weak findings (a denormal in a float
// field or in a float array's element) are two groups.
type groupKey struct {
	rule Rule
	sev  Severity
}

type group struct {
	Group
	fields map[string]int
}

// MuteRule leaves rule r out of the tally from now on (on: true) or
// counts it again (on: false).
func (t *Tally) MuteRule(r Rule, on bool) { setMuted(&t.mutedRules, r, on) }

// MuteField leaves field name out of the tally: the name itself and every
// element or member under it ("m_vecX" mutes "m_vecX.0001").
func (t *Tally) MuteField(name string, on bool) { setMuted(&t.mutedFields, name, on) }

func setMuted[K comparable](m *map[K]bool, k K, on bool) {
	if !on {
		delete(*m, k)
		return
	}
	if *m == nil {
		*m = map[K]bool{}
	}
	(*m)[k] = true
}

// MutedRules and MutedFields list what is muted, sorted.
func (t *Tally) MutedRules() []Rule { return slices.Sorted(maps.Keys(t.mutedRules)) }

func (t *Tally) MutedFields() []string { return slices.Sorted(maps.Keys(t.mutedFields)) }

// Muted says whether an anomaly of rule r on field name is muted.
func (t *Tally) Muted(r Rule, name string) bool {
	if t.mutedRules[r] {
		return true
	}
	if len(t.mutedFields) == 0 || name == "" {
		return false
	}
	for {
		if t.mutedFields[name] {
			return true
		}
		i := strings.LastIndexByte(name, '.')
		if i < 0 {
			return false
		}
		name = name[:i]
	}
}

// Reset forgets what was counted, keeping what is muted.
func (t *Tally) Reset() {
	t.groups, t.order, t.muted = nil, nil, 0
}

// MutedCount is how many anomalies muting left out.
func (t *Tally) MutedCount() int { return t.muted }

// Add counts one anomaly at w (w.Field names the field, w.Detail is
// filled from a).
func (t *Tally) Add(a Anomaly, w Where) {
	if !Counted(a) {
		return
	}
	if t.Muted(a.Rule, w.Field) {
		t.muted++
		return
	}
	if t.groups == nil {
		t.groups = map[groupKey]*group{}
	}
	k := groupKey{a.Rule, SeverityOf(a)}
	g := t.groups[k]
	if g == nil {
		w.Detail = a.Detail
		g = &group{Group: Group{Rule: a.Rule, Severity: k.sev, Example: w}, fields: map[string]int{}}
		t.groups[k] = g
		t.order = append(t.order, k)
	}
	g.Count++
	if w.Field != "" {
		g.fields[w.Field]++
	}
}

// AddMessage counts every anomaly of a diagnosed message; at carries the
// message's tick, command and message index.
func (t *Tally) AddMessage(m *provenance.Message, rep Report, at Where) {
	for i, as := range rep.Anomalies {
		if len(as) == 0 {
			continue
		}
		f := &m.Fields[i]
		w := at
		if f.Update >= 0 && f.Update < len(m.Updates) {
			u := &m.Updates[f.Update]
			w.Entity, w.Class = u.Index, u.Class
		}
		w.Field, w.Bit = f.Name, f.Start
		for _, a := range as {
			t.Add(a, w)
		}
	}
	if rep.End != nil {
		w := at
		if s := rep.First; s != nil {
			w.Entity, w.Class, w.Field, w.Bit = s.Entity, s.Class, s.Name, s.Bit
		}
		t.Add(*rep.End, w)
	}
}

// Groups returns the groups (one per rule and severity), strong first, then by count (most first),
// then in the order first seen. Each group's fields are sorted the same
// way.
func (t *Tally) Groups() []Group {
	out := make([]Group, 0, len(t.order))
	for _, r := range t.order {
		g := t.groups[r]
		gr := g.Group
		gr.Fields = make([]FieldCount, 0, len(g.fields))
		for n, c := range g.fields {
			gr.Fields = append(gr.Fields, FieldCount{n, c})
		}
		sort.Slice(gr.Fields, func(i, j int) bool {
			a, b := gr.Fields[i], gr.Fields[j]
			return a.Count > b.Count || a.Count == b.Count && a.Name < b.Name
		})
		out = append(out, gr)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Severity != out[j].Severity {
			return out[i].Severity == SevStrong
		}
		return out[i].Count > out[j].Count
	})
	return out
}

// Count is the number of anomalies tallied (muted ones aside), and how
// many of them are strong.
func (t *Tally) Count() (all, strong int) {
	for _, g := range t.groups {
		all += g.Count
		if g.Severity == SevStrong {
			strong += g.Count
		}
	}
	return all, strong
}

// Rules lists every rule, in the order they are declared.
var Rules = []Rule{NonFinite, Denormal, AbsurdFloat, VarintTooLong, VarintOverflow, OutOfTypeRange, NotUTF8, ControlChars,
	DanglingHandle, HugeArray, Fallback, PathOutside, PathOrder, UnreadBits, OverRead, BadDeletion}

// ids are the rules' short names, stable for scripts (check --json,
// --mute).
var ids = map[Rule]string{
	NonFinite: "non-finite", Denormal: "denormal", AbsurdFloat: "absurd-float", VarintTooLong: "varint-too-long",
	VarintOverflow: "varint-overflow", OutOfTypeRange: "out-of-type-range", NotUTF8: "not-utf8", ControlChars: "control-chars",
	DanglingHandle: "dangling-handle", HugeArray: "huge-array", Fallback: "fallback", PathOutside: "path-outside",
	PathOrder: "path-order", UnreadBits: "unread-bits", OverRead: "over-read", BadDeletion: "bad-deletion",
}

// ID is the rule's short name ("denormal", "varint-overflow"); a rule
// without one (a decode error) is its name with hyphens for spaces.
func (r Rule) ID() string {
	if id, ok := ids[r]; ok {
		return id
	}
	return strings.ReplaceAll(string(r), " ", "-")
}

// RuleNamed finds a rule by its short name or its name, case and the
// choice of space or hyphen aside.
func RuleNamed(name string) (Rule, bool) {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", " ") }
	for _, r := range Rules {
		if norm(string(r)) == norm(name) || norm(r.ID()) == norm(name) {
			return r, true
		}
	}
	return "", false
}
