package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/testreplays"
)

// check's parsers: lines say what no line of a parser's tables fixes, so
// the fix lines are not taken for the whole mend: on CS2 14065 Clarity
// reads m_iClip1 and m_iClip2 off by one and has no table by field name;
// demoinfocs-golang's table by name fixes both, and its line says nothing
// more. --json carries the same as "unfixed".
func TestParsersLinesNameWhatNoLineFixes(t *testing.T) {
	path := filepath.Join(testreplays.Require(t), "cs2", "14065.dem")
	out, errw, err := runDembug("check", path)
	if err != nil {
		t.Fatalf("exit %d\n%s%s", exitCode(err), out, errw)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if _, rest, ok := strings.Cut(l, ": parsers: "); ok {
			id, _, _ := strings.Cut(rest, " ")
			lines[id] = rest
		}
	}
	c := lines["clarity"]
	if !strings.Contains(c, "; fix: ") || !strings.Contains(c, "; no table line fixes m_iClip1, m_iClip2 (its tables go by type, none by field name") {
		t.Errorf("clarity's line: %q", c)
	}
	if d := lines["demoinfocs-golang"]; d == "" || strings.Contains(d, "no table line") {
		t.Errorf("demoinfocs-golang's line: %q", d)
	}
	js, _, _ := runDembug("check", "--json", path)
	var res CheckResult
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Parsers {
		if p.Parser == "clarity" && (len(p.Unfixed) != 2 || p.Unfixed[0].Name != "m_iClip1" || !p.Unfixed[0].Field) {
			t.Errorf("clarity in --json: unfixed %+v", p.Unfixed)
		}
	}
}
