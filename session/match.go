package session

import (
	"strings"
	"sync"
)

// Matcher tests field names and classes against a query, case-insensitively.
// It remembers the names it has tested: a file has a few thousand, read
// millions of times. Safe for concurrent use.
type Matcher struct {
	q     string
	mu    sync.Mutex
	names map[string]bool
	// fields, when set, is the exact field names the matcher looks for
	// (a type's fields: NewFieldsMatcher); no class matches then.
	fields map[string]bool
}

// NewFieldsMatcher matches the fields named exactly one of names, at any
// depth of a path (m_nNextThinkTick matches m_pWeapon.m_nNextThinkTick):
// the fields of one type, say. q names the set in notes.
func NewFieldsMatcher(q string, names []string) *Matcher {
	m := &Matcher{q: q, names: map[string]bool{}, fields: map[string]bool{}}
	for _, n := range names {
		m.fields[n] = true
	}
	return m
}

// NewMatcher prepares a query.
func NewMatcher(q string) *Matcher {
	return &Matcher{q: strings.ToLower(strings.TrimSpace(q)), names: map[string]bool{}}
}

// Query is the query, lower-cased.
func (m *Matcher) Query() string { return m.q }

// FieldName reports whether a field name matches.
func (m *Matcher) FieldName(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	ok, seen := m.names[name]
	if !seen {
		if m.fields != nil {
			for part := range strings.SplitSeq(name, ".") {
				ok = ok || m.fields[part]
			}
		} else {
			ok = strings.Contains(strings.ToLower(name), m.q)
		}
		m.names[name] = ok
	}
	return ok
}

// Class reports whether a class name matches.
func (m *Matcher) Class(c string) bool {
	return m.fields == nil && strings.Contains(strings.ToLower(c), m.q)
}
