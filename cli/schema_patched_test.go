package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/testreplays"
)

// schema marks an encoder the schema does not have (the simulation times
// of the shared replays, Dota's and CS2's, set by name) as patched, in text
// and JSON; the built-in CS2 sample, whose schema writes simtime itself, is
// not marked.
func TestSchemaMarksPatchedEncoders(t *testing.T) {
	dota, _ := testreplays.Read(t, "dota2")
	cs2, _ := testreplays.Read(t, "cs2")
	for _, tc := range []struct {
		path    string
		patched bool
	}{{dota, true}, {cs2, true}, {filepath.Join("..", "testdata", "sample-cs2.dem"), false}} {
		path, game := tc.path, filepath.Base(tc.path)
		text, _, err := runDembug("schema", path)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, line := range strings.Split(text, "\n") {
			if !strings.Contains(line, " m_flSimulationTime ") {
				continue
			}
			found++
			if got := strings.Contains(line, "simtime (patched: not in the schema)"); got != tc.patched {
				t.Errorf("%s: %q marked patched: %v, want %v", game, line, got, tc.patched)
			}
		}
		out, _, err := runDembug("schema", "--json", path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var s SchemaSerializer
			if err := json.Unmarshal([]byte(line), &s); err != nil {
				t.Fatal(err)
			}
			for _, f := range s.Fields {
				if f.Name != "m_flSimulationTime" {
					continue
				}
				found++
				if f.Encoder != "simtime" || (f.Patched != "") != tc.patched || tc.patched && !strings.Contains(f.Patched, "not in the schema") {
					t.Errorf("%s: %s.%s encoder %q patched %q, want patched %v", game, s.Serializer, f.Name, f.Encoder, f.Patched, tc.patched)
				}
			}
		}
		if found < 2 {
			t.Errorf("%s: m_flSimulationTime printed %d times", game, found)
		}
	}
}
