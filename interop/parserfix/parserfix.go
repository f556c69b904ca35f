// Package parserfix holds what the tests of dembug's parser forecasts
// share (issue 42, manta/fix_test.go and demoinfocs/fix_test.go): copies
// of a shared replay with one type renamed as a game patch would rename
// it, dembug's forecast for a parser on a file as check --json gives it
// (dembug built from the root module), the parser's reading of a file as
// published (the test binary run again) and from a copy of its published
// source with the forecast's fix lines inserted, in package digest's
// lines.
//
// Nothing of the parsers is copied into dembug: the copy is made from the
// module cache into a test's temporary folder when the test runs.
package parserfix

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"testing"

	"github.com/dembug/dembug/engine/forecast"
	"github.com/dembug/dembug/engine/parsers"
	"github.com/dembug/dembug/engine/writer"
)

// Renames are the renames issue 42 asks for: each base type to a name
// neither dembug nor any parser knows, as a game update names a type anew.
var Renames = []writer.Rename{
	{From: "bool", To: "NetBool_t"},
	{From: "float32", To: "NetFloat_t"},
	{From: "Vector", To: "NetVector_t"},
	{From: "int32", To: "NetInt32_t"},
	{From: "uint64", To: "NetUInt64_t"},
	{From: "uint32", To: "NetUInt32_t"},
}

// Rename returns data with rn's type renamed in its schema, failing the
// test when the file names no such type or already names the new one.
func Rename(tb testing.TB, data []byte, rn writer.Rename) []byte {
	tb.Helper()
	if bytes.Contains(data, []byte(rn.To)) {
		tb.Fatalf("the file names %s already", rn.To)
	}
	out, n, err := writer.RenameInSchema(data, rn)
	if err != nil {
		tb.Fatalf("renaming %s: %v", rn.From, err)
	}
	if n == 0 {
		tb.Fatalf("the schema names no %s", rn.From)
	}
	return out
}

// Dembug builds dembug, once per test binary, from the root module
// into dir, and returns its path: the forecasts are what check --json
// prints.
func Dembug(tb testing.TB, dir string) string {
	tb.Helper()
	dembugMu.Lock()
	defer dembugMu.Unlock()
	if dembugBin != "" {
		return dembugBin
	}
	if _, err := exec.LookPath("go"); err != nil {
		tb.Skip("building dembug needs Go on the PATH")
	}
	root := filepath.Dir(filepath.Dir(goOutput(tb, "", "env", "GOMOD")))
	bin := filepath.Join(dir, "dembug")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build dembug in %s: %v\n%s", root, err, out)
	}
	dembugBin = bin
	return bin
}

var (
	dembugMu  sync.Mutex
	dembugBin string
)

// Forecast is dembug's forecast for the parser of that id on the file at
// path: its entry in "parsers" of dembug check --json (which exits 1 for
// a file that misaligns or reads a value wrongly: a renamed type does).
func Forecast(tb testing.TB, dembug, path, id string) forecast.Result {
	tb.Helper()
	cmd := exec.Command(dembug, "check", "--json", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if e, ok := err.(*exec.ExitError); err != nil && (!ok || e.ExitCode() != 1) {
		tb.Fatalf("dembug check --json %s: %v\n%s", path, err, stderr.Bytes())
	}
	var res struct {
		Parsers []forecast.Result `json:"parsers"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		tb.Fatalf("dembug check --json %s: %v", path, err)
	}
	for _, r := range res.Parsers {
		if r.Parser == id {
			return r
		}
	}
	tb.Fatalf("dembug check --json %s: no forecast for %s (%d parsers)", path, id, len(res.Parsers))
	return forecast.Result{}
}

var word = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_:]*`)

// Names reports whether r names type name: a type whose values it reads
// otherwise, the first read whose bits differ, or a fix line's quoted name.
func Names(r forecast.Result, name string) bool {
	has := func(s string) bool { return slices.Contains(word.FindAllString(s, -1), name) }
	for _, v := range r.Values {
		if has(v.Type) {
			return true
		}
	}
	if r.First != nil && has(r.First.Type) {
		return true
	}
	for _, f := range r.Fix {
		if bytes.Contains([]byte(f.Entry), []byte(`"`+name+`"`)) {
			return true
		}
	}
	return false
}

// Same reports whether two forecasts say the same: how the parser reads,
// which types' values differ and how, the first differing read and the
// fix lines.
func Same(a, b forecast.Result) bool {
	if a.Reads != b.Reads || a.Why != b.Why || !slices.Equal(a.Values, b.Values) || !slices.Equal(a.Fix, b.Fix) {
		return false
	}
	if (a.First == nil) != (b.First == nil) {
		return false
	}
	return a.First == nil || *a.First == *b.First
}

// NamingFixes are r's fix lines that name type name.
func NamingFixes(r forecast.Result, name string) []parsers.Fix {
	var out []parsers.Fix
	for _, f := range r.Fix {
		if bytes.Contains([]byte(f.Entry), []byte(`"`+name+`"`)) {
			out = append(out, f)
		}
	}
	return out
}
