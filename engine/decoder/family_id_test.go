package decoder

import (
	"strings"
	"testing"
)

// Every family has a short, stable, distinct name for scripts.
func TestFamilyIDs(t *testing.T) {
	seen := map[string]Family{}
	for _, f := range Families() {
		id := f.ID()
		if id == "" || id == "unknown" || strings.ContainsAny(id, " -") {
			t.Errorf("%s: id %q", f, id)
		}
		if g, ok := seen[id]; ok {
			t.Errorf("%s and %s share id %q", f, g, id)
		}
		seen[id] = f
	}
}
