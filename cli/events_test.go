package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/gameevents"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

type eventLine struct {
	Tick *int32                     `json:"tick"`
	ID   *int32                     `json:"id"`
	Name *string                    `json:"name"`
	Keys map[string]json.RawMessage `json:"keys"`
}

func eventLines(t *testing.T, out string) []eventLine {
	t.Helper()
	var got []eventLine
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l eventLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		if l.Tick == nil || l.ID == nil || l.Keys == nil {
			t.Fatalf("line lacks tick, id or keys: %s", sc.Text())
		}
		got = append(got, l)
	}
	return got
}

type countLine struct {
	Name  *string `json:"name"`
	ID    *int32  `json:"id"`
	Count int     `json:"count"`
}

func countLines(t *testing.T, out string) []countLine {
	t.Helper()
	var got []countLine
	for _, s := range strings.Split(strings.TrimSpace(out), "\n") {
		if s == "" {
			continue
		}
		var l countLine
		if err := json.Unmarshal([]byte(s), &l); err != nil {
			t.Fatalf("%v: %s", err, s)
		}
		got = append(got, l)
	}
	return got
}

func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// On every shared replay: every event is named, its keys by the list;
// --count lists every defined event, zeros included, and its counts add up
// to the events printed; the text form has one line per event.
func TestEventsOnEveryReplay(t *testing.T) {
	testreplays.EachFile(t, func(path string, _ []byte) {
		out, errOut, err := runDembug("events", path, "--json")
		if err != nil || errOut != "" {
			t.Fatalf("%s: %v %s", path, err, errOut)
		}
		events := eventLines(t, out)
		for _, e := range events {
			if e.Name == nil || *e.Name == "" {
				t.Errorf("%s: an event without a name: tick %d id %d", path, *e.Tick, *e.ID)
			}
			for k := range e.Keys {
				if k == "" || (k[0] >= '0' && k[0] <= '9') {
					t.Errorf("%s: %s has a key named %q", path, *e.Name, k)
				}
			}
		}
		out, _, err = runDembug("events", path, "--count", "--json")
		if err != nil {
			t.Fatal(err)
		}
		counts := countLines(t, out)
		total, zeros := 0, 0
		for _, c := range counts {
			if c.Name == nil {
				t.Errorf("%s: counted an event with no list entry", path)
			}
			total += c.Count
			if c.Count == 0 {
				zeros++
			}
		}
		if total != len(events) || len(counts) < 100 || zeros == 0 {
			t.Errorf("%s: --count has %d rows (%d zeros) adding to %d; %d events", path, len(counts), zeros, total, len(events))
		}
		text, _, _ := runDembug("events", path)
		if n := strings.Count(text, "\n"); n != len(events) {
			t.Errorf("%s: %d text lines, %d JSON events", path, n, len(events))
		}
		t.Logf("%s: %d events, %d defined", filepath.Base(path), len(events), len(counts))
	})
}

// CS2 14011's events, as the file holds them: its first weapon_fire, and
// the windows and names select what they say.
func TestEventsCS2Values(t *testing.T) {
	path := filepath.Join(testreplays.Require(t), "cs2", "14011.dem")
	out, _, err := runDembug("events", path, "--json", "--tick", "3..7")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"tick":3,"id":158,"name":"weapon_fire","keys":{"userid":2,"userid_pawn":2090860690,"weapon":"weapon_galilar","silenced":false}}`
	if first, _, _ := strings.Cut(out, "\n"); first != want {
		t.Errorf("first event in 3..7:\n%s\nwant\n%s", first, want)
	}
	for _, e := range eventLines(t, out) {
		if *e.Tick < 3 || *e.Tick > 7 {
			t.Errorf("tick %d outside 3..7", *e.Tick)
		}
	}
	out, _, err = runDembug("events", path, "--name", "weapon_fire", "--name", "player_hurt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 18 {
		t.Errorf("%d weapon_fire and player_hurt events, want 15 + 3:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if f := strings.Fields(l); len(f) < 2 || (f[1] != "weapon_fire" && f[1] != "player_hurt") {
			t.Errorf("line %q", l)
		}
	}
	out, _, _ = runDembug("events", path, "--count", "--name", "weapon_fire,player_death")
	if rows := strings.Split(strings.TrimSpace(out), "\n"); len(rows) != 2 || !strings.Contains(out, "       0  player_death") || !strings.Contains(out, "      15  weapon_fire") {
		t.Errorf("--count of two names:\n%s", out)
	}
	// #ID names an event by its id, with a list as without one.
	byID, _, _ := runDembug("events", path, "--name", "#158")
	byName, _, _ := runDembug("events", path, "--name", "weapon_fire")
	if byID != byName || strings.Count(byID, "\n") != 15 {
		t.Errorf("--name #158:\n%s\n--name weapon_fire:\n%s", byID, byName)
	}
	if out, _, _ := runDembug("events", path, "--count", "--name", "#158"); out != "      15  weapon_fire\n" {
		t.Errorf("--count --name #158: %q", out)
	}
	_, errOut, _ := runDembug("events", path, "--name", "player_deth")
	if !strings.Contains(errOut, `defines no event "player_deth" (did you mean player_death?)`) {
		t.Errorf("a misspelt name: %q", errOut)
	}
	if _, _, err := runDembug("events", path, "--tick", "9..3"); err == nil {
		t.Error("a window ending before it starts is accepted")
	}
}

// The Deadlock broadcast capture's events are read like a file's.
func TestEventsCapture(t *testing.T) {
	dir := filepath.Join(testreplays.Require(t), "deadlock", "broadcast-2025-02-27")
	if _, err := os.Stat(dir); err != nil {
		t.Skip(err)
	}
	out, errOut, err := runDembug("events", dir, "--json")
	if err != nil || errOut != "" {
		t.Fatal(err, errOut)
	}
	events := eventLines(t, out)
	if len(events) == 0 {
		t.Fatal("no events")
	}
	for _, e := range events {
		if e.Name == nil {
			t.Errorf("unnamed event %d at %d", *e.ID, *e.Tick)
		}
	}
	t.Logf("%d events", len(events))
}

// A replay written without its event list says so and gives each event by
// its id and its values by position: the same events, ids and values as
// the original's.
func TestEventsWithoutTheList(t *testing.T) {
	orig := filepath.Join(testreplays.Require(t), "cs2", "14011.dem")
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	stripped, n, err := writer.DropInner(data, gameevents.ListMessage)
	if err != nil || n != 1 {
		t.Fatalf("dropped %d lists: %v", n, err)
	}
	path := writeTemp(t, "nolist.dem", stripped)
	out, errOut, err := runDembug("events", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "the file sends no game event list") || !strings.Contains(errOut, "given by id") {
		t.Errorf("no note of the missing list: %q", errOut)
	}
	got := eventLines(t, out)
	wantOut, _, _ := runDembug("events", orig, "--json")
	want := eventLines(t, wantOut)
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d events without the list, %d with", len(got), len(want))
	}
	for i := range got {
		if got[i].Name != nil || *got[i].ID != *want[i].ID || *got[i].Tick != *want[i].Tick || len(got[i].Keys) != len(want[i].Keys) {
			t.Errorf("event %d: %+v, with the list %+v", i, got[i], want[i])
		}
		if v, ok := got[i].Keys["0"]; len(got[i].Keys) > 0 && !ok {
			t.Errorf("event %d: keys not by position: %v", i, got[i].Keys)
		} else if len(got[i].Keys) > 0 {
			// The first key's value is the one the original names.
			found := false
			for _, w := range want[i].Keys {
				found = found || string(w) == string(v)
			}
			if !found {
				t.Errorf("event %d: value %s is none of %v", i, v, want[i].Keys)
			}
		}
	}
	text, _, _ := runDembug("events", path)
	if !strings.HasPrefix(text, "      1  #35 0=1\n") {
		t.Errorf("text without the list starts %q", text[:min(len(text), 60)])
	}
	out, _, _ = runDembug("events", path, "--count", "--json")
	counts := countLines(t, out)
	total := 0
	for _, c := range counts {
		if c.Name != nil || c.ID == nil || c.Count == 0 {
			t.Errorf("a count without the list: %+v", c)
		}
		total += c.Count
	}
	if total != len(got) {
		t.Errorf("counts add to %d, %d events", total, len(got))
	}
	out, _, _ = runDembug("events", path, "--name", "#158")
	if strings.Count(out, "#158") != 15 {
		t.Errorf("--name #158 without the list:\n%s", out)
	}
}

// A broken event message is reported with its place and skipped; the
// events around it still print and the exit code is 1.
func TestEventsBrokenMessage(t *testing.T) {
	_, data := testreplays.Read(t, "cs2")
	for _, body := range [][]byte{{0x1a, 0x05, 0x08}, {0x12, 0x01}, {0x1a, 0x02, 0x12, 0x05}} {
		bad, err := writer.InsertInner(data, 20, writer.Inner{Type: gameevents.EventMessage, Body: body})
		if err != nil {
			t.Fatal(err)
		}
		path := writeTemp(t, "broken.dem", bad)
		out, errOut, err := runDembug("events", path)
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Code != 1 {
			t.Errorf("% x: error %v, want exit 1", body, err)
		}
		if !strings.Contains(errOut, "CMsgSource1LegacyGameEvent") || !strings.Contains(errOut, "(skipped)") || !strings.Contains(errOut, "byte ") {
			t.Errorf("% x: %q", body, errOut)
		}
		if !strings.Contains(out, "hltv_versioninfo") && !strings.Contains(out, "cs_round_start_beep") {
			t.Errorf("% x: the other events are gone:\n%s", body, out)
		}
	}
}

func TestParseTickWindow(t *testing.T) {
	for _, c := range []struct {
		in       string
		from, to int64
		hf, ht   bool
		bad      bool
	}{
		{"", 0, 0, false, false, false},
		{"3..7", 3, 7, true, true, false},
		{"3..", 3, 0, true, false, false},
		{"..7", 0, 7, false, true, false},
		{"5", 5, 5, true, true, false},
		{"-1..0", -1, 0, true, true, false},
		{"7..3", 0, 0, false, false, true},
		{"a..3", 0, 0, false, false, true},
		{"1..2..3", 0, 0, false, false, true},
	} {
		w, err := ParseTickWindow(c.in)
		if (err != nil) != c.bad {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if !c.bad && (w.From != c.from || w.To != c.to || w.HasFrom != c.hf || w.HasTo != c.ht) {
			t.Errorf("%q: %+v", c.in, w)
		}
	}
	w, _ := ParseTickWindow("3..7")
	if w.Holds(2) || !w.Holds(3) || !w.Holds(7) || w.Holds(8) {
		t.Error("Holds")
	}
}
