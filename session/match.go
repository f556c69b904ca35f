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
		ok = strings.Contains(strings.ToLower(name), m.q)
		m.names[name] = ok
	}
	return ok
}

// Class reports whether a class name matches.
func (m *Matcher) Class(c string) bool { return strings.Contains(strings.ToLower(c), m.q) }
