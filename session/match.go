package session

import "strings"

// Matcher tests field names and classes against a query, case-insensitively.
type Matcher struct {
	q     string
	names []bool // per interned name id
}

// NewMatcher prepares a query over the index's field names.
func NewMatcher(ix *Index, q string) *Matcher {
	m := &Matcher{q: strings.ToLower(strings.TrimSpace(q))}
	m.names = make([]bool, len(ix.Names))
	for i, n := range ix.Names {
		m.names[i] = strings.Contains(strings.ToLower(n), m.q)
	}
	return m
}

// FieldName reports whether interned field name id matches.
func (m *Matcher) FieldName(id int32) bool { return int(id) < len(m.names) && m.names[id] }

// Class reports whether a class name matches.
func (m *Matcher) Class(c string) bool { return strings.Contains(strings.ToLower(c), m.q) }

// Update reports whether update r matches by class or by a field name.
func (m *Matcher) Update(ix *Index, r UpdateRef) bool {
	u := ix.Update(int(r.Cmd), int(r.Msg), int(r.Upd))
	if u == nil {
		return false
	}
	if m.Class(u.Class) {
		return true
	}
	for _, id := range ix.FieldNames(r) {
		if m.FieldName(id) {
			return true
		}
	}
	return false
}
