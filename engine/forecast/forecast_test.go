package forecast_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/forecast"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/parsers"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// forecastOf checks data as check does and forecasts the parser id.
func forecastOf(t *testing.T, data []byte, id string) forecast.Result {
	t.Helper()
	ch, err := infer.Run(data, schema.Aliases{}, infer.Options{Infer: true, Watch: forecast.Watch})
	if ch == nil {
		t.Fatal(err)
	}
	r := ch.First
	found := map[string]parsers.Kind{}
	for _, f := range ch.Findings {
		if k, ok := forecast.KindOfType(f.As); ok {
			found[f.Unknown] = k
		}
	}
	var brk *forecast.Break
	if b := ch.Break; r.FirstMisaligned != nil && b != nil {
		brk = &forecast.Break{Type: b.Name, Kind: found[b.Name], First: forecast.First{Tick: r.FirstMisaligned.Loc.Tick,
			Entity: b.Entity, Class: b.Class, Field: b.FieldName, Type: b.Name, BitOffset: b.Bit, InBaseline: b.InBaseline}}
	}
	truth := func(f *schema.Field) (parsers.Kind, bool) {
		k, ok := found[f.UnknownType]
		return k, ok && f.UnknownType != ""
	}
	for _, res := range forecast.Of(r, data, schema.Aliases{}, truth, brk) {
		if res.Parser == id {
			return res
		}
	}
	t.Fatalf("no forecast of %s", id)
	return forecast.Result{}
}

func hasFix(res forecast.Result, entry string) bool {
	for _, f := range res.Fix {
		if f.Entry == entry {
			return true
		}
	}
	return false
}

func valuesOf(res forecast.Result, typ string) *forecast.TypeValues {
	for i := range res.Values {
		if res.Values[i].Type == typ {
			return &res.Values[i]
		}
	}
	return nil
}

// On a stock CS2 replay demoinfocs-golang reads the ticks doubled (the
// values, with their fix); on 14155 it misaligns at the first binary
// block, a type v5.1.0 lacks.
func TestDemoinfocsOnStockCS2(t *testing.T) {
	dir := testreplays.Require(t)
	data := readFile(t, filepath.Join(dir, "cs2", "14065.dem"))
	res := forecastOf(t, data, "demoinfocs-golang")
	v := valuesOf(res, "GameTick_t")
	if res.Reads != forecast.Values || v == nil || !strings.Contains(v.How, "doubled") || !hasFix(res, `"GameTick_t": signedDecoder,`) {
		t.Fatalf("14065: %+v", res)
	}
	res = forecastOf(t, readFile(t, filepath.Join(dir, "cs2", "14155.dem")), "demoinfocs-golang")
	if res.Reads != forecast.Misaligns || res.First == nil || res.First.Type != "CUtlBinaryBlock" || res.First.Entity < 0 {
		t.Fatalf("14155: %+v (first %+v)", res, res.First)
	}
}

// A value the game sends plus one (m_iClip1 and m_iClip2 on 14065) is
// mended by a line of demoinfocs-golang's table by field name; Clarity has
// no such table, so its forecast names the fields no line fixes, and why,
// beside the lines that fix its types, while demoinfocs-golang's names
// none.
func TestUnfixedFieldsNamed(t *testing.T) {
	dir := testreplays.Require(t)
	data := readFile(t, filepath.Join(dir, "cs2", "14065.dem"))
	clarity := forecastOf(t, data, "clarity")
	var names []string
	for _, u := range clarity.Unfixed {
		if !u.Field || !strings.Contains(u.Why, "none by field name") {
			t.Errorf("clarity: unfixed %+v, want a field, no table by name", u)
		}
		names = append(names, u.Name)
	}
	if strings.Join(names, " ") != "m_iClip1 m_iClip2" || !hasFix(clarity, `DECODERS.put("GameTick_t", new IntVarSignedDecoder());`) {
		t.Errorf("clarity: unfixed %v, fix %+v", names, clarity.Fix)
	}
	if g := clarity.UnfixedGroups(); len(g) != 1 || len(g[0].Names) != 2 {
		t.Errorf("clarity: groups %+v", g)
	}
	dig := forecastOf(t, data, "demoinfocs-golang")
	if len(dig.Unfixed) != 0 || !hasFix(dig, `"m_iClip2": ammoDecoder,`) {
		t.Errorf("demoinfocs-golang: unfixed %+v, fix %+v", dig.Unfixed, dig.Fix)
	}
}

// A renamed type: Manta reads the renamed int32 doubled, a renamed bool
// misaligns at its first read, a renamed uint32 as before; the fix names
// the new type in Manta's idiom.
func TestMantaOnRenamedTypes(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	stock := forecastOf(t, data, "manta")
	for _, c := range []struct{ from, to, reads, entry string }{
		{"int32", "NetInt32_t", forecast.Values, `"NetInt32_t": signedDecoder,`},
		{"bool", "NetBool_t", forecast.Misaligns, `"NetBool_t": booleanDecoder,`},
		{"uint32", "NetUint32_t", stock.Reads, ""},
	} {
		patched, n, err := writer.RenameInSchema(data, writer.Rename{From: c.from, To: c.to})
		if err != nil || n == 0 {
			t.Fatal(err)
		}
		res := forecastOf(t, patched, "manta")
		if res.Reads != c.reads {
			t.Errorf("%s renamed: reads %s, want %s: %+v", c.from, res.Reads, c.reads, res)
		}
		if c.entry == "" {
			if strings.Contains(res.Sentence(), c.to) {
				t.Errorf("%s renamed: the forecast names %s: %s", c.from, c.to, res.Sentence())
			}
			continue
		}
		if !hasFix(res, c.entry) || !strings.Contains(res.Sentence(), c.to) {
			t.Errorf("%s renamed: %s; fix %+v", c.from, res.Sentence(), res.Fix)
		}
	}
	if stock.Reads != forecast.Values || valuesOf(stock, "PlayerID_t") == nil || !hasFix(stock, `"MatchID_t": unsigned64Factory,`) {
		t.Errorf("stock Dota: %s; fix %+v", stock.Sentence(), stock.Fix)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("%s: %v", path, err)
	}
	return b
}
