package session

import "testing"

// A string a decoder reads is previewed as itself where it is text, and
// all in escapes where it is not: never part glyphs, part escapes.
func TestPreviewString(t *testing.T) {
	for in, want := range map[string]string{
		"npc_dota_hero_axe": `"npc_dota_hero_axe"`,
		"héllo 👹":           `"héllo 👹"`,
		"\x8fé\x01":         `"\x8f\u00e9\x01"`,
		"a\tb":              `"a\tb"`,
		"":                  `""`,
	} {
		if got := previewString(in); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}
