package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// entityLines parses entities' output: index → fields.
func entityLines(t *testing.T, out string) map[int]map[string]any {
	t.Helper()
	got := map[int]map[string]any{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e struct {
			Index  int
			Fields map[string]any
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		got[e.Index] = e.Fields
	}
	return got
}

// A fixed-count struct array (CDOTA's m_vecDataTeam.m_iSuggestedNeutralItems,
// T[N]) has no length sent, only its elements' fields: entities prints
// them (860 decoded values on the Dota replay were missing).
func TestEntitiesPrintFixedCountStructArrays(t *testing.T) {
	path, _ := testreplays.Read(t, "dota2")
	out, _, err := runDembug("entities", path)
	if err != nil {
		t.Fatal(err)
	}
	n, found := 0, false
	for _, fs := range entityLines(t, out) {
		n += len(fs)
		if _, ok := fs["m_vecDataTeam.0000.m_iSuggestedNeutralItems.0000.nSuggestion"]; ok {
			found = true
		}
	}
	if !found {
		t.Error("m_vecDataTeam.0000.m_iSuggestedNeutralItems.0000.nSuggestion not printed")
	}
	if n != 76299 {
		t.Errorf("%d values printed, want 76299", n)
	}
}

// povDemo rewrites the Dota replay as a client's POV demo writes it: the
// signon commands carry a tick later than the game's first ones.
func povDemo(t *testing.T, signonTick int32) string {
	_, data := testreplays.Read(t, "dota2")
	cr, err := container.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	f := writer.NewFile()
	for {
		c, err := cr.Next()
		if err != nil {
			break
		}
		tick := c.Tick
		if tick == -1 && c.Kind != container.FileHeader {
			tick = signonTick
		}
		f.Command(c.Kind, tick, append([]byte(nil), c.Body...), c.Compressed)
	}
	path := filepath.Join(t.TempDir(), "pov.dem")
	if err := os.WriteFile(path, f.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// entities --tick and trace --tick on a POV demo whose signon carries a
// later tick than asked for: the tick bounds the game, not the signon.
func TestTickOnAPOVDemo(t *testing.T) {
	pov := povDemo(t, 4005)
	orig, _ := testreplays.Read(t, "dota2")
	want, _, err := runDembug("entities", "--tick", "400", orig)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := runDembug("entities", "--tick", "400", pov)
	if err != nil {
		t.Fatal(err)
	}
	if len(entityLines(t, want)) < 100 || got != want {
		t.Errorf("entities --tick 400 on the POV demo: %d entities, want %d (the original's)", len(entityLines(t, got)), len(entityLines(t, want)))
	}
	tr, _, err := runDembug("trace", "--tick", "400", pov)
	if err != nil || !strings.Contains(tr, `"tick":400`) {
		t.Errorf("trace --tick 400 on the POV demo: %v, %.200s", err, tr)
	}
}
