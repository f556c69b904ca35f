package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// On every stock replay and the broadcast capture, the game's reading
// leaves no values verdict: check exits 0 with no values: line, and every
// correction the file's fields read is confirmed or unchecked, never
// contradicted.
func TestStockReplaysPassCheck(t *testing.T) {
	paths := []string{filepath.Join(testreplays.Require(t), "deadlock", "broadcast-2025-02-27")}
	testreplays.EachFile(t, func(path string, _ []byte) { paths = append(paths, path) })
	confirmed := 0
	for _, path := range paths {
		out, errw, err := runDembug("check", path)
		if err != nil || strings.Contains(out, ": values: ") || strings.Contains(out, ": correction: ") {
			t.Errorf("%s: exit %d\n%s%s", path, exitCode(err), out, errw)
		}
		js, _, _ := runDembug("check", "--json", path)
		var res CheckResult
		if err := json.Unmarshal([]byte(js), &res); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, c := range res.Corrections {
			switch c.Status {
			case "confirmed":
				confirmed++
			case "contradicted":
				t.Errorf("%s: %+v", path, c)
			}
		}
	}
	if confirmed == 0 {
		t.Fatal("no correction confirmed on any shared replay")
	}
}

// renamedCopy writes a shared replay of game g with type from renamed to
// to, as a patch would leave it.
func renamedCopy(t *testing.T, g, from, to string) string {
	t.Helper()
	_, data := testreplays.Read(t, g)
	patched, n, err := writer.RenameInSchema(data, writer.Rename{From: from, To: to})
	if err != nil || n == 0 {
		t.Fatalf("rename %s: %d symbols, %v", from, n, err)
	}
	path := filepath.Join(t.TempDir(), g+"-"+to+".dem")
	if err := os.WriteFile(path, patched, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A renamed signed type, and a renamed corrected type, hide nothing from
// check: exit 1 naming the new type; --as NEW=ORIGINAL then decodes like
// the stock file (every trace line's value the same). A renamed unsigned
// type stays quiet.
func TestRenamedTypesFailCheck(t *testing.T) {
	for _, c := range []struct{ game, from, to string }{
		{"cs2", "int32", "NetInt32_t"},
		{"cs2", "GameTick_t", "GameTickNew_t"},
		{"dota2", "int32", "NetInt32_t"},
		{"dota2", "PlayerID_t", "PlayerSlot_t"},
	} {
		path := renamedCopy(t, c.game, c.from, c.to)
		out, errw, err := runDembug("check", path)
		if exitCode(err) != 1 || !strings.Contains(out, ": values: type "+c.to+" reads like") || !strings.Contains(out, "rerun with: dembug check") {
			t.Errorf("%s %s → %s: exit %d\n%s%s", c.game, c.from, c.to, exitCode(err), out, errw)
			continue
		}
		if c.from == "GameTick_t" && !strings.Contains(out, "within a quarter of the server tick") {
			t.Errorf("the tick verdict does not say how the values track the server tick:\n%s", out)
		}
		as := c.to + "=" + c.from
		if out, errw, err := runDembug("check", "--as", as, path); err != nil || strings.Contains(out, ": values: ") {
			t.Errorf("check --as %s: exit %d\n%s%s", as, exitCode(err), out, errw)
		}
		orig, _ := testreplays.Read(t, c.game)
		want, _, err := runDembug("trace", "--all-ticks", orig)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := runDembug("trace", "--all-ticks", "--as", as, path)
		if err != nil {
			t.Fatal(err)
		}
		if values(t, got) != values(t, want) {
			t.Errorf("%s under --as %s does not decode like the original", c.to, as)
		}
	}
	for _, c := range []struct{ game, from string }{{"cs2", "uint32"}, {"dota2", "uint32"}, {"dota2", "uint16"}} {
		path := renamedCopy(t, c.game, c.from, "Renamed_t")
		if out, errw, err := runDembug("check", path); err != nil || strings.Contains(out, ": values: ") {
			t.Errorf("%s %s renamed: exit %d\n%s%s", c.game, c.from, exitCode(err), out, errw)
		}
	}
}

// values is a trace's (tick, name, value) lines, joined.
func values(t *testing.T, trace string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(trace), "\n") {
		var r struct {
			Tick  int32
			Name  string
			Value any
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		v, _ := json.Marshal(r.Value)
		b.WriteString(r.Name + "=" + string(v) + "\n")
	}
	return b.String()
}

// CS2 tick fields track the server's tick as the game wrote them
// (m_nNextThinkTick beside m_nTickBase), and read twice it under the
// seed's reading; Dota player ids are -1 and 0…9, item ids above 2^32.
func TestGamesValuesInTrace(t *testing.T) {
	ratio := func(path string, args ...string) (float64, bool) {
		out, _, err := runDembug(append([]string{"trace", "--all-ticks", path}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		base := map[int32]float64{}
		var rs []float64
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var r struct {
				Tick  int32
				Name  string
				Value float64
			}
			if json.Unmarshal([]byte(line), &r) != nil {
				continue
			}
			switch {
			case r.Name == "m_nTickBase":
				base[r.Tick] = r.Value
			case r.Name == "m_nNextThinkTick" && r.Value > 1 && base[r.Tick] > 0: // (the seed reads -1, never, as 1)
				rs = append(rs, r.Value/base[r.Tick])
			}
		}
		if len(rs) == 0 {
			return 0, false
		}
		slices.Sort(rs)
		return rs[len(rs)/2], true // the median
	}
	seen := 0
	for _, path := range testreplays.Files(t, "cs2") {
		r, ok := ratio(path)
		if !ok {
			continue // no think beside a tick base in this short file
		}
		seen++
		if r < 0.95 || r > 1.05 {
			t.Errorf("%s: m_nNextThinkTick / m_nTickBase %.3f, want about 1", path, r)
		}
		if r, _ := ratio(path, "--decoders", "seed"); r < 1.9 || r > 2.1 {
			t.Errorf("%s: under the seed's reading m_nNextThinkTick / m_nTickBase %.3f, want about 2", path, r)
		}
	}
	if seen == 0 {
		t.Fatal("no CS2 replay has m_nNextThinkTick beside m_nTickBase")
	}

	dota, _ := testreplays.Read(t, "dota2")
	out, _, err := runDembug("trace", "--all-ticks", "--baselines", dota)
	if err != nil {
		t.Fatal(err)
	}
	players := map[int64]bool{}
	var widest uint64
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			Name, Type string
			Value      json.Number
		}
		if json.Unmarshal([]byte(line), &r) != nil {
			continue
		}
		switch r.Type {
		case "PlayerID_t", "PlayerID_t[2]", "PlayerID_t[10]", "PlayerID_t[15]":
			v, err := r.Value.Int64()
			if err != nil || v < -1 || v > 9 {
				t.Errorf("%s: player id %s", r.Name, r.Value)
			}
			players[v] = true
		case "itemid_t", "itemid_t[10]":
			if v, err := strconv.ParseUint(r.Value.String(), 10, 64); err == nil {
				widest = max(widest, v)
			}
		}
	}
	if !players[-1] || !players[9] || !players[0] {
		t.Errorf("Dota player ids read %v, want -1 and 0…9", players)
	}
	if widest < 1<<32 {
		t.Errorf("the widest item id reads %d, want above 2^32", widest)
	}
}
