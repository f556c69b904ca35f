package views

import (
	"fmt"
	"strings"
)

// Count writes n with its noun, singular for one: "1 field", "3 fields".
// The plural adds an s; other plurals are given as "entity|entities".
func Count(n int, noun string) string {
	one, many := noun, noun+"s"
	if i := strings.IndexByte(noun, '|'); i >= 0 {
		one, many = noun[:i], noun[i+1:]
	}
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// WithArticle writes word after its indefinite article: "a create", "an
// update" (by its first letter: the words it is given are dembug's own).
func WithArticle(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
