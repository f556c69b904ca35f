package demoinfocs

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dembug/dembug/engine/forecast"
	"github.com/dembug/dembug/engine/parsers"
	"github.com/dembug/dembug/internal/testreplays"
	"github.com/dembug/dembug/interop/digest"
	"github.com/dembug/dembug/interop/parserfix"
)

// The shared CS2 replay the renames are made of: one demoinfocs v5.1.0
// reads (not 14155 or 14160, where it stops for want of a CUtlBinaryBlock
// decoder).
const renamedReplay = "14065.dem"

// renamed is the CS2 replay with each type of parserfix.Renames renamed,
// dembug's forecast for demoinfocs on each, and demoinfocs' readings, as
// published, of each and of the original: made once for the tests below.
type renamed struct {
	fc     forecast.Result
	cases  []parserfix.Case
	path   string // the original
	dg     digest.Stream
	dgCase []digest.Stream
}

var (
	renamedMu   sync.Mutex
	renamedDone *renamed
	// fixedBin is demoinfocs-digest built with every fix line of the
	// renamed cases (AllFixes), fixedLines the lines.
	fixedBin   string
	fixedLines []string
)

func renamedCases(t *testing.T) *renamed {
	t.Helper()
	renamedMu.Lock()
	defer renamedMu.Unlock()
	if renamedDone != nil {
		return renamedDone
	}
	path, data := parserfix.Replay(t, "cs2", renamedReplay)
	r := &renamed{path: path}
	r.fc, r.cases = parserfix.Cases(t, workDir, parserfix.Dembug(t, workDir), path, data, "demoinfocs-golang")
	r.dg = parserfix.Published(t, path)
	if r.dg.Err != "" {
		t.Fatalf("demoinfocs does not read the original: %s", r.dg.Err)
	}
	for _, c := range r.cases {
		r.dgCase = append(r.dgCase, parserfix.Published(t, c.Path))
	}
	renamedDone = r
	return r
}

// fixed builds demoinfocs-digest, once, from a copy of demoinfocs'
// source with every fix line of the original's forecast and of the
// renamed copies' that name their new type: the GameTick_t line among
// them.
func fixed(t *testing.T) (string, []string) {
	t.Helper()
	r := renamedCases(t)
	renamedMu.Lock()
	defer renamedMu.Unlock()
	if fixedBin == "" {
		// The binary outlives the test that builds it: a folder of the
		// package's own (TestMain), not of t.
		fixedBin, fixedLines = parserfix.Build(t, workDir, "github.com/markus-wa/demoinfocs-golang/v5",
			"github.com/dembug/dembug/interop/cmd/demoinfocs-digest", parserfix.AllFixes(r.fc, r.cases))
	}
	return fixedBin, fixedLines
}

// workDir holds the renamed copies and the build of demoinfocs with fix
// lines the tests share, removed when they end.
var workDir string

func TestMain(m *testing.M) {
	// Run again by parserfix.Published, the test binary is demoinfocs as
	// published, reading one file.
	parserfix.Serve(Digest)
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

// TestDemoinfocsForecastForRenamedTypes: on copies of the shared CS2
// replay 14065 with one type renamed (bool, float32, Vector, int32,
// uint64, uint32), dembug's forecast for demoinfocs-golang v5.1.0 differs
// from its forecast on the original, and names the new type, exactly when
// demoinfocs as published reads the copy otherwise than the original (its
// entities' values, package digest). The original already reads "values"
// (GameTick_t read doubled): the forecasts are against what the game
// wrote.
func TestDemoinfocsForecastForRenamedTypes(t *testing.T) {
	r := renamedCases(t)
	t.Logf("original: %s (%d digest lines)", parserfix.Describe(r.fc), len(r.dg.Lines))
	for i, c := range r.cases {
		t.Log(parserfix.CheckForecast(t, "demoinfocs", r.fc, c, r.dg, r.dgCase[i]))
	}
}

// TestDemoinfocsFixLinesReadRenamedTypes: demoinfocs-golang v5.1.0 built
// from a copy of its source with the forecast's fix lines inserted (the
// original's, and every renamed copy's that name its new type, at once)
// reads each copy whose forecast names such a line as it then reads the
// original.
func TestDemoinfocsFixLinesReadRenamedTypes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building demoinfocs with fix lines is left out")
	}
	r := renamedCases(t)
	bin, lines := fixed(t)
	t.Logf("demoinfocs built with %d lines:\n\t%s", len(lines), strings.Join(lines, "\n\t"))
	want := parserfix.Digest(t, bin, r.path)
	if want.Err != "" {
		t.Fatalf("demoinfocs with the lines does not read the original: %s", want.Err)
	}
	if d := digest.Diff(r.dg, want); d != "" {
		t.Logf("with the lines, demoinfocs reads the original otherwise than as published (the original's own fix lines): %s", d)
	}
	fixedCases := 0
	for i, c := range r.cases {
		own := parserfix.NamingFixes(c.Forecast, c.To)
		if len(own) == 0 {
			t.Logf("%s → %s: no fix line names it (published demoinfocs reads it %s)", c.From, c.To, parserfix.SameOrNot(r.dg, r.dgCase[i]))
			continue
		}
		got := parserfix.Digest(t, bin, c.Path)
		if d := digest.Diff(want, got); d != "" {
			t.Errorf("%s → %s: with the lines, demoinfocs reads it otherwise than the original: %s", c.From, c.To, d)
			continue
		}
		fixedCases++
		t.Logf("%s → %s: with %s demoinfocs reads it as the original (%d lines)", c.From, c.To, own[0].Entry, len(got.Lines))
	}
	if fixedCases == 0 {
		t.Error("no renamed copy has a fix line")
	}
}

// TestDemoinfocsGameTickFix: on every stock shared CS2 replay demoinfocs
// v5.1.0 reads, dembug's forecast for it has the GameTick_t fix line, and
// demoinfocs built with it reads m_nNextThinkTick tracking m_nTickBase
// (the median of NextThinkTick over the TickBase at the same tick, for
// every NextThinkTick above 1, within 0.9–1.1), where the published one
// reads it doubled (1.8–2.2).
func TestDemoinfocsGameTickFix(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building demoinfocs with fix lines is left out")
	}
	const line = `"GameTick_t": signedDecoder,`
	for _, path := range testreplays.Files(t, "cs2") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			published := parserfix.Published(t, path, "m_nNextThinkTick", "m_nTickBase")
			if published.Err != "" {
				t.Skipf("demoinfocs as published does not read it: %s", published.Err)
			}
			fc := parserfix.Forecast(t, parserfix.Dembug(t, workDir), path, "demoinfocs-golang")
			if !slices.ContainsFunc(fc.Fix, func(f parsers.Fix) bool { return f.Entry == line }) {
				t.Fatalf("the forecast has no line %s: %s", line, parserfix.Describe(fc))
			}
			bin, lines := fixed(t)
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasSuffix(l, ": fieldTypeDecoders: "+line) }) {
				t.Fatalf("demoinfocs was built without %s: %v", line, lines)
			}
			out := parserfix.Digest(t, bin, path, "m_nNextThinkTick", "m_nTickBase")
			if out.Err != "" {
				t.Fatalf("demoinfocs with the line does not read it: %s", out.Err)
			}
			was, n0 := thinkOverTickBase(t, published)
			now, n1 := thinkOverTickBase(t, out)
			if n0 == 0 && n1 == 0 {
				// No entity waits for a think tick (14011): every one is
				// -1, which the published reads as 1.
				pub, fix := values(published, "m_nNextThinkTick"), values(out, "m_nNextThinkTick")
				if len(pub) == 0 || !slices.Equal(slices.Compact(slices.Sorted(slices.Values(pub))), []string{"1"}) ||
					!slices.Equal(slices.Compact(slices.Sorted(slices.Values(fix))), []string{"-1"}) || len(fix) != len(pub) {
					t.Errorf("no m_nNextThinkTick above 1 at a tick with m_nTickBase; published reads %d values (%v…), with %s %d (%v…)",
						len(pub), pub[:min(3, len(pub))], line, len(fix), fix[:min(3, len(fix))])
				}
				t.Logf("no entity waits for a think tick: published demoinfocs reads every m_nNextThinkTick as 1 (%d reads), with %s every one as -1", len(pub), line)
				return
			}
			if was < 1.8 || was > 2.2 {
				t.Errorf("published demoinfocs: median NextThinkTick/TickBase %.3f over %d reads, want about 2 (read doubled)", was, n0)
			}
			if now < 0.9 || now > 1.1 {
				t.Errorf("demoinfocs with %s: median NextThinkTick/TickBase %.3f over %d reads, want about 1", line, now, n1)
			}
			t.Logf("median m_nNextThinkTick/m_nTickBase: published %.3f (%d reads), with %s %.3f (%d reads)", was, n0, line, now, n1)
		})
	}
}

// thinkOverTickBase is the median of m_nNextThinkTick over m_nTickBase
// at the same tick (the largest any entity holds), for every
// NextThinkTick above 1, from Digest's field lines; and how many.
func thinkOverTickBase(t *testing.T, s digest.Stream) (float64, int) {
	t.Helper()
	base := map[string]float64{}
	type read struct {
		tick string
		v    float64
	}
	var thinks []read
	for _, l := range s.Lines {
		f := strings.Fields(l) // TICK INDEX NAME VALUE
		if len(f) != 4 {
			t.Fatalf("line %q", l)
		}
		v, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		switch f[2] {
		case "m_nTickBase":
			base[f[0]] = max(base[f[0]], v)
		case "m_nNextThinkTick":
			if v > 1 {
				thinks = append(thinks, read{f[0], v})
			}
		}
	}
	var ratios []float64
	for _, r := range thinks {
		if b := base[r.tick]; b > 0 {
			ratios = append(ratios, r.v/b)
		}
	}
	if len(ratios) == 0 {
		return 0, 0
	}
	slices.Sort(ratios)
	return ratios[len(ratios)/2], len(ratios)
}

// values are the values of the field name in Digest's field lines.
func values(s digest.Stream, name string) []string {
	var out []string
	for _, l := range s.Lines {
		if f := strings.Fields(l); len(f) == 4 && f[2] == name {
			out = append(out, f[3])
		}
	}
	return out
}
