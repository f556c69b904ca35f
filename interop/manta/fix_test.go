package manta

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/dembug/dembug/engine/forecast"
	"github.com/dembug/dembug/interop/digest"
	"github.com/dembug/dembug/interop/parserfix"
)

// The shared Dota replay the renames are made of.
const renamedReplay = "auto-20240102-2233.dem"

// workDir holds the renamed copies the tests share, removed when they end.
var workDir string

func TestMain(m *testing.M) {
	// Run again by parserfix.Published, the test binary is Manta as
	// published, reading one file.
	parserfix.Serve(func(data []byte, _ ...string) digest.Stream { return Digest(data) })
	d, err := os.MkdirTemp("", "dembug-parserfix-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	workDir = d
	code := m.Run()
	os.RemoveAll(d)
	os.Exit(code)
}

// renamed is the Dota replay with each type of parserfix.Renames renamed,
// dembug's forecast for Manta on each, and Manta's readings, as
// published, of each and of the original: made once for the tests below.
// Manta takes the build from the game directory alone, so the files
// Manta reads name it there (withServerGameDir); the renames touch the
// schema alone.
type renamed struct {
	fc     forecast.Result
	cases  []parserfix.Case
	path   string   // the original as Manta reads it
	paths  []string // each case as Manta reads it
	dg     digest.Stream
	dgCase []digest.Stream
}

var (
	renamedMu   sync.Mutex
	renamedDone *renamed
)

func renamedCases(t *testing.T) *renamed {
	t.Helper()
	renamedMu.Lock()
	defer renamedMu.Unlock()
	if renamedDone != nil {
		return renamedDone
	}
	path, data := parserfix.Replay(t, "dota2", renamedReplay)
	r := &renamed{}
	r.fc, r.cases = parserfix.Cases(t, workDir, parserfix.Dembug(t, workDir), path, data, "manta")
	r.path = parserfix.Write(t, workDir, "manta-original.dem", withServerGameDir(t, data))
	r.dg = parserfix.Published(t, r.path)
	if r.dg.Err != "" {
		t.Fatalf("Manta does not read the original: %s", r.dg.Err)
	}
	for _, c := range r.cases {
		path := parserfix.Write(t, workDir, "manta-"+c.To+".dem", withServerGameDir(t, c.Data))
		r.paths = append(r.paths, path)
		r.dgCase = append(r.dgCase, parserfix.Published(t, path))
	}
	renamedDone = r
	return r
}

// TestMantaForecastForRenamedTypes: on copies of the shared Dota replay
// with one type renamed (bool, float32, Vector, int32, uint64, uint32),
// dembug's forecast for Manta v1.5.0 differs from its forecast on the
// original, and names the new type, exactly when Manta as published reads
// the copy otherwise than the original (every entity update with all the
// entity's values, package digest).
func TestMantaForecastForRenamedTypes(t *testing.T) {
	r := renamedCases(t)
	t.Logf("original: %s (%d digest lines)", parserfix.Describe(r.fc), len(r.dg.Lines))
	for i, c := range r.cases {
		t.Log(parserfix.CheckForecast(t, "Manta", r.fc, c, r.dg, r.dgCase[i]))
	}
}

// TestMantaFixLinesReadRenamedTypes: Manta v1.5.0 built from a copy of
// its source with the forecast's fix lines inserted (the original's, and
// every renamed copy's that name its new type, at once) reads each copy
// whose forecast names such a line as it then reads the original.
func TestMantaFixLinesReadRenamedTypes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building Manta with fix lines is left out")
	}
	r := renamedCases(t)
	bin, lines := parserfix.Build(t, t.TempDir(), "github.com/dotabuff/manta", "github.com/dembug/dembug/interop/cmd/manta-digest",
		parserfix.AllFixes(r.fc, r.cases))
	t.Logf("Manta built with %d lines:\n\t%s", len(lines), strings.Join(lines, "\n\t"))
	want := parserfix.Digest(t, bin, r.path)
	if want.Err != "" {
		t.Fatalf("Manta with the lines does not read the original: %s", want.Err)
	}
	if d := digest.Diff(r.dg, want); d != "" {
		t.Logf("with the lines, Manta reads the original otherwise than as published (the original's own fix lines): %s", d)
	}
	fixed := 0
	for i, c := range r.cases {
		own := parserfix.NamingFixes(c.Forecast, c.To)
		if len(own) == 0 {
			t.Logf("%s → %s: no fix line names it (published Manta reads it %s)", c.From, c.To, parserfix.SameOrNot(r.dg, r.dgCase[i]))
			continue
		}
		got := parserfix.Digest(t, bin, r.paths[i])
		if d := digest.Diff(want, got); d != "" {
			t.Errorf("%s → %s: with the lines, Manta reads it otherwise than the original: %s", c.From, c.To, d)
			continue
		}
		fixed++
		t.Logf("%s → %s: with %s Manta reads it as the original (%d lines)", c.From, c.To, own[0].Entry, len(got.Lines))
	}
	if fixed == 0 {
		t.Error("no renamed copy has a fix line")
	}
}
