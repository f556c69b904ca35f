package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/testreplays"
)

func TestCheckDota2(t *testing.T) {
	path, data := testreplays.Read(t, "dota2")
	res, r := Check(path, data)
	if res.Error != "" || res.Misaligned != 0 || res.FirstMisaligned != "" {
		t.Fatalf("check: error %q, %d misaligned (%s)", res.Error, res.Misaligned, res.FirstMisaligned)
	}
	if res.Game != "dota2" || res.LastTick != 812 || res.Commands != 426 {
		t.Fatalf("game %s, last tick %d, %d commands; want dota2, 812, 426", res.Game, res.LastTick, res.Commands)
	}
	if res.EntityUpdates < 10000 || res.Fields < 30000 {
		t.Fatalf("only %d updates and %d fields decoded", res.EntityUpdates, res.Fields)
	}
	// Plausible values: every hero's position inside the map, health and
	// mana within their maxima, player names readable.
	heroes := 0
	for _, e := range r.Entities().Entities {
		if e == nil || !strings.HasPrefix(e.Class.Name, "CDOTA_Unit_Hero_") {
			continue
		}
		heroes++
		vals := map[string]float64{}
		walkValues(e, func(name string, f float64) { vals[name] = f })
		for _, axis := range []string{"X", "Y"} {
			pos := vals["CBodyComponent.m_cell"+axis]*128 + vals["CBodyComponent.m_vec"+axis]
			if pos < 0 || pos > 32768 {
				t.Errorf("%s %s position %g outside the map", e.Class.Name, axis, pos)
			}
		}
		if h, mh := vals["m_iHealth"], vals["m_iMaxHealth"]; h < 0 || h > mh || mh <= 0 {
			t.Errorf("%s health %g of %g", e.Class.Name, h, mh)
		}
		if m, mm := vals["m_flMana"], vals["m_flMaxMana"]; m < 0 || m > mm+0.01 {
			t.Errorf("%s mana %g of %g", e.Class.Name, m, mm)
		}
	}
	if heroes < 5 {
		t.Fatalf("only %d heroes live at the end", heroes)
	}
}

func TestCheckCommandExitCodeAndJSON(t *testing.T) {
	path, _ := testreplays.Read(t, "dota2")
	var out, errw bytes.Buffer
	cmd := Root(&out, &errw)
	cmd.SetArgs([]string{"check", "--json", path})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("check failed: %v; stderr %s", err, errw.String())
	}
	var res map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("not JSON: %v: %s", err, out.String())
	}
	for _, k := range []string{"last_tick", "entity_updates", "fields", "misaligned"} {
		if _, ok := res[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, out.String())
		}
	}
	if res["misaligned"].(float64) != 0 {
		t.Fatalf("misaligned %v", res["misaligned"])
	}
}

func TestCheckFailsOnGarbage(t *testing.T) {
	var out, errw bytes.Buffer
	cmd := Root(&out, &errw)
	cmd.SetArgs([]string{"check", "/nonexistent/file.dem"})
	err := cmd.Execute()
	if ee, ok := err.(*ExitError); !ok || ee.Code != 1 {
		t.Fatalf("want exit 1, got %v", err)
	}
	if lines := strings.Count(strings.TrimSpace(errw.String()), "\n") + 1; lines != 1 || !strings.Contains(errw.String(), "cannot read") {
		t.Fatalf("stderr should be one clear line, got %q", errw.String())
	}
}

// Several files decode in parallel but report in the order given, a file
// that cannot be read among them included.
func TestCheckSeveralFilesInOrder(t *testing.T) {
	var paths []string
	for _, g := range []string{"cs2", "dota2", "deadlock"} {
		paths = append(paths, testreplays.Files(t, g)...)
	}
	paths = append(paths[:2], append([]string{"/nonexistent/file.dem"}, paths[2:]...)...)
	var out, errw bytes.Buffer
	cmd := Root(&out, &errw)
	cmd.SetArgs(append([]string{"check", "--json"}, paths...))
	if ee, ok := cmd.Execute().(*ExitError); !ok || ee.Code != 1 {
		t.Fatalf("want exit 1 for the unreadable file, stderr %s", errw.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(paths) {
		t.Fatalf("%d lines for %d files:\n%s", len(lines), len(paths), out.String())
	}
	for i, l := range lines {
		var res CheckResult
		if err := json.Unmarshal([]byte(l), &res); err != nil {
			t.Fatalf("line %d not JSON: %v", i, err)
		}
		if res.File != paths[i] {
			t.Fatalf("line %d is %s, want %s", i, res.File, paths[i])
		}
		if unreadable := paths[i] == "/nonexistent/file.dem"; unreadable != (res.Error != "") || (!unreadable && (res.Misaligned != 0 || res.Fields == 0)) {
			t.Fatalf("%s: error %q, %d misaligned, %d fields", res.File, res.Error, res.Misaligned, res.Fields)
		}
	}
}
