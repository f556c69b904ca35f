package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

type stringsLine struct {
	Table string  `json:"table"`
	Index *int    `json:"index"`
	Key   *string `json:"key"`
	Value *string `json:"value"`
}

func stringsLines(t *testing.T, out string) []stringsLine {
	t.Helper()
	var got []stringsLine
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l stringsLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		if l.Table == "" || l.Index == nil || l.Key == nil {
			t.Fatalf("line lacks table, index or key: %s", sc.Text())
		}
		got = append(got, l)
	}
	return got
}

var lowerHex = regexp.MustCompile(`^([0-9a-f]{2})*$`)

// strings --json prints every entry of every table of every shared replay,
// one object each, the value lowercase hex or null; the text form one row
// per entry under a header; --table keeps one table.
func TestStringsOnEveryReplay(t *testing.T) {
	testreplays.EachFile(t, func(path string, data []byte) {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Run(nil); err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, tab := range r.Strings.Tables {
			want += tab.Len()
		}
		out, _, err := runDembug("strings", "--json", path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		lines := stringsLines(t, out)
		if len(lines) != want || want == 0 {
			t.Fatalf("%s: %d lines, %d entries", path, len(lines), want)
		}
		for _, l := range lines {
			if l.Value != nil && !lowerHex.MatchString(*l.Value) {
				t.Fatalf("%s: value %q is not lowercase hex", path, *l.Value)
			}
		}
		text, _, err := runDembug("strings", path)
		if err != nil || strings.Count(text, "\n") != want+1 || !strings.HasPrefix(text, "TABLE") {
			t.Errorf("%s: text form has %d lines for %d entries (%v)", path, strings.Count(text, "\n"), want, err)
		}
		one, _, err := runDembug("strings", "--json", "--table", "instancebaseline", path)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range stringsLines(t, one) {
			if l.Table != "instancebaseline" {
				t.Fatalf("--table instancebaseline printed %s", l.Table)
			}
		}
	})
}

// --tick stops where entities does: the Dota replay's ActiveModifiers entry
// 303 after tick 70 is the modifier written then, after tick 60 the removal
// it replaced.
func TestStringsAtATick(t *testing.T) {
	path, _ := testreplays.Read(t, "dota2")
	if filepath.Base(path) != "auto-20240102-2233.dem" {
		t.Skip("needs auto-20240102-2233.dem")
	}
	at := func(tick string) string {
		out, _, err := runDembug("strings", "--json", "--tick", tick, "--table", "ActiveModifiers", path)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range stringsLines(t, out) {
			if *l.Index == 303 {
				return *l.Value
			}
		}
		return ""
	}
	if v := at("70"); !strings.HasPrefix(v, "0801109481b104180220b403") {
		t.Errorf("entry 303 after tick 70 = %s", v)
	}
	if v := at("60"); v != "080210c883de04180120b203" {
		t.Errorf("entry 303 after tick 60 = %s", v)
	}
}

// Errors come as the other commands give them: a table the file lacks is
// named with the ones it has; a file that does not exist is named.
func TestStringsErrors(t *testing.T) {
	path, _ := testreplays.Read(t, "dota2")
	_, _, err := runDembug("strings", "--table", "nope", path)
	if err == nil || !strings.Contains(err.Error(), `no string table "nope"`) || !strings.Contains(err.Error(), "instancebaseline") {
		t.Errorf("unknown table: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "missing.dem")
	if _, _, err := runDembug("strings", missing); err == nil || !strings.Contains(err.Error(), "missing.dem") {
		t.Errorf("missing file: %v", err)
	}
	cut := filepath.Join(t.TempDir(), "cut.dem")
	_, data := testreplays.Read(t, "dota2")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runDembug("strings", "--json", cut)
	if err == nil || !strings.Contains(err.Error(), "byte") || len(stringsLines(t, out)) == 0 {
		t.Errorf("truncated file: %v, %d lines printed", err, len(stringsLines(t, out)))
	}
}
