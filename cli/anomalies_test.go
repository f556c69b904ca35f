package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/testreplays"
)

// Every shared replay decodes right (independent parsers agree field for
// field), so no anomaly rule may fire strongly on one: the only anomaly
// worth a look is the real cut of a 64-bit item id to 32 bits.
func TestSharedReplaysHaveNoStrongAnomaly(t *testing.T) {
	testreplays.EachFile(t, func(path string, data []byte) {
		res, _ := CheckWith(path, data, CheckOptions{Anomalies: true})
		if res.Anomalies == nil {
			t.Fatalf("%s: no anomalies list", path)
		}
		for _, g := range res.Anomalies {
			if g.Severity == "strong" && g.Rule != "varint-overflow" {
				t.Errorf("%s: %d × %s (strong), first %+v, fields %v", path, g.Count, g.Rule, g.Example, g.Fields)
			}
			if g.Rule == "huge-array" || g.Rule == "not-utf8" {
				t.Errorf("%s: %s fires on a replay that decodes right: %+v", path, g.Rule, g.Example)
			}
		}
	})
}

// check --json carries the grouped anomalies; the Dota item id's cut shows
// the whole value read (under the seed's reading: the game's reads item
// ids as the 64 bits they are, and check fails the seed's on its values).
func TestCheckJSONAnomalies(t *testing.T) {
	path, _ := testreplays.Read(t, "dota2")
	out, errw, err := runDembug("check", "--json", "--decoders", "seed", path)
	if exitCode(err) != 1 {
		t.Fatalf("check: %v; %s", err, errw)
	}
	var res struct {
		Anomalies []struct {
			Rule, Severity string
			Count          int
			Example        struct {
				Tick                     int32
				Class, Field, At, Detail string
				Command, Message, Entity int
				BitOffset                uint `json:"bit_offset"`
			}
			Fields []struct {
				Name  string
				Count int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var found bool
	for _, g := range res.Anomalies {
		if g.Rule != "varint-overflow" {
			continue
		}
		found = true
		e := g.Example
		if g.Severity != "weak" || g.Count < 1 || e.Field != "m_iItemID" || e.Class != "CDOTAWearableItem" || !strings.Contains(e.Detail, "read 25787853485") ||
			!strings.Contains(e.Detail, "18049709") || !strings.HasPrefix(e.At, "0x") || e.BitOffset == 0 || len(g.Fields) == 0 || g.Fields[0].Name != "m_iItemID" {
			t.Errorf("varint-overflow group %+v", g)
		}
	}
	if !found {
		t.Errorf("no varint-overflow in %s", out)
	}
}

// check --anomalies prints the grouped list; --mute leaves a rule or a
// field (with its elements) out.
func TestCheckAnomaliesListAndMute(t *testing.T) {
	var path string
	for _, p := range testreplays.Files(t, "cs2") {
		if strings.HasSuffix(p, "14011.dem") {
			path = p
		}
	}
	if path == "" {
		t.Skip("no cs2/14011.dem")
	}
	out, _, err := runDembug("check", "--anomalies", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "164 × denormal, denormal float (weak): 82 × CBodyComponent.m_PredFloatVariables.0007, 82 × CBodyComponent.m_PredFloatVariables.0008") ||
		!strings.Contains(out, "first at tick 11") {
		t.Errorf("grouped list:\n%s", out)
	}
	out, _, err = runDembug("check", "--anomalies", "--mute", "CBodyComponent.m_PredFloatVariables", "--mute", "dangling-handle", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "no anomalies (171 muted)") {
		t.Errorf("muted list:\n%s", out)
	}
}
