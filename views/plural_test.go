package views

import "testing"

func TestWithArticle(t *testing.T) {
	for word, want := range map[string]string{"update": "an update", "create": "a create", "leave": "a leave", "delete": "a delete", "entity": "an entity", "": "a "} {
		if got := WithArticle(word); got != want {
			t.Errorf("%q: %q, want %q", word, got, want)
		}
	}
}
