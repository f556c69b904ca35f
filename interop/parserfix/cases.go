package parserfix

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/forecast"
	"github.com/dembug/dembug/engine/parsers"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
	"github.com/dembug/dembug/interop/digest"
)

// Replay reads the shared replay game/name, skipping the test when it is
// not there.
func Replay(tb testing.TB, game, name string) (string, []byte) {
	tb.Helper()
	path := filepath.Join(testreplays.Require(tb), game, name)
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		tb.Skipf("no %s in the shared replays (%s)", name, filepath.Dir(path))
	}
	if err != nil {
		tb.Fatal(err)
	}
	return path, data
}

// Case is one copy of a replay with a type renamed, and dembug's forecast
// for one parser on it.
type Case struct {
	writer.Rename
	Data     []byte
	Path     string // Data, written
	Forecast forecast.Result
}

// Cases are the replay data, at path, with each of Renames, written to
// dir, with dembug's forecast for the parser id on each (dembug, the
// binary Dembug built); orig is the forecast on the replay.
func Cases(tb testing.TB, dir, dembug, path string, data []byte, id string) (orig forecast.Result, cases []Case) {
	tb.Helper()
	orig = Forecast(tb, dembug, path, id)
	for _, rn := range Renames {
		c := Case{Rename: rn, Data: Rename(tb, data, rn)}
		c.Path = Write(tb, dir, rn.To+".dem", c.Data)
		c.Forecast = Forecast(tb, dembug, c.Path, id)
		cases = append(cases, c)
	}
	return orig, cases
}

// Predicts reports whether c's forecast says the parser reads the renamed
// file otherwise than the original: it differs from the original's and
// names the new type.
func (c Case) Predicts(orig forecast.Result) bool {
	return !Same(orig, c.Forecast) && Names(c.Forecast, c.To)
}

// CheckForecast holds c's forecast to the parser's readings: the forecast
// for the renamed file differs from the original's, and names the new
// type, exactly when the parser's reading of the renamed file (got)
// differs from its reading of the original (want). It returns the
// outcome in a line for the test's log.
func CheckForecast(tb testing.TB, parser string, orig forecast.Result, c Case, want, got digest.Stream) string {
	tb.Helper()
	diff := digest.Diff(want, got)
	predicts := c.Predicts(orig)
	if predicts != (diff != "") {
		say := "does not say so"
		if predicts {
			say = "says it does"
		}
		reads := "reads it as the original"
		if diff != "" {
			reads = "reads it otherwise: " + diff
		}
		tb.Errorf("%s renamed %s: %s %s, and the forecast %s\n\toriginal: %s\n\trenamed:  %s",
			c.From, c.To, parser, reads, say, Describe(orig), Describe(c.Forecast))
	}
	if !Same(orig, c.Forecast) && !Names(c.Forecast, c.To) {
		tb.Logf("%s renamed %s: the forecast changes without naming %s: %s", c.From, c.To, c.To, Describe(c.Forecast))
	}
	if diff == "" {
		return fmt.Sprintf("%-8s → %-12s %s reads it as the original; forecast: %s", c.From, c.To, parser, Describe(c.Forecast))
	}
	return fmt.Sprintf("%-8s → %-12s %s reads it otherwise (%s); forecast: %s", c.From, c.To, parser, diff, Describe(c.Forecast))
}

// Describe is a forecast in a line, with its fix lines.
func Describe(r forecast.Result) string {
	var fix []string
	for _, f := range r.Fix {
		fix = append(fix, f.Symbol+" gains "+f.Entry)
	}
	s := r.Sentence()
	if len(fix) > 0 {
		s += "; fix: " + strings.Join(fix, " ")
	}
	return s
}

// AllFixes are the fix lines of the original's forecast and of every
// case's that names its new type, each once, in that order: a copy of the
// parser with them all reads the renamed files and the original alike if
// the lines are right (their entries name different types).
func AllFixes(orig forecast.Result, cases []Case) []parsers.Fix {
	var out []parsers.Fix
	seen := map[parsers.Fix]bool{}
	add := func(fs []parsers.Fix) {
		for _, f := range fs {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	add(orig.Fix)
	for _, c := range cases {
		add(NamingFixes(c.Forecast, c.To))
	}
	return out
}

// Write writes data to a file in dir and returns its path.
func Write(tb testing.TB, dir, name string, data []byte) string {
	tb.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// SameOrNot says whether b reads as a does.
func SameOrNot(a, b digest.Stream) string {
	if d := digest.Diff(a, b); d != "" {
		return "otherwise: " + d
	}
	return "as the original"
}
