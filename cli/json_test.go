package cli

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/dembug/dembug/internal/testreplays"
)

func cs2Replay(t *testing.T, name string) string {
	for _, p := range testreplays.Files(t, "cs2") {
		if strings.HasSuffix(p, name) {
			return p
		}
	}
	t.Skipf("no cs2/%s", name)
	return ""
}

// trace --json lines carry a stable decoder family, the offset as byte.bit
// and binary blocks as hex; entities writes binary blocks as hex too.
func TestJSONFamilyOffsetAndHex(t *testing.T) {
	path := cs2Replay(t, "14160.dem")
	out, _, err := runDembug("trace", "--tick", "1", path)
	if err != nil {
		t.Fatal(err)
	}
	at := regexp.MustCompile(`^0x[0-9a-f]+\.[0-7]$`)
	blocks := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			Family, At, Type string
			BitOffset        uint `json:"bit_offset"`
			Value            any
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if l.Family == "" || strings.Contains(l.Family, " ") || !at.MatchString(l.At) {
			t.Fatalf("family %q, at %q: %s", l.Family, l.At, sc.Text())
		}
		if l.Family == "binary_block" {
			blocks++
			s, ok := l.Value.(string)
			if _, err := hex.DecodeString(s); !ok || err != nil {
				t.Errorf("binary block written as %q, not hex", l.Value)
			}
		}
	}
	if blocks == 0 {
		t.Fatal("no binary block traced at tick 1")
	}
	ents, _, err := runDembug("entities", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ents, `"CBodyComponent.m_SerializePoseRecipeAG2Slots.0000.m_topology":"c310105204"`) || strings.Contains(ents, `\ufffd`) {
		t.Error("entities does not write binary blocks as hex")
	}
}

func TestSchemaAndStatsJSON(t *testing.T) {
	path := cs2Replay(t, "14160.dem")
	out, _, err := runDembug("schema", "--json", "--class", "CBodyComponentBaseAnimGraph", path)
	if err != nil {
		t.Fatal(err)
	}
	var ser SchemaSerializer
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &ser); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, f := range ser.Fields {
		if f.Name == "m_vecX" {
			found = f.Family == "quantized" && f.BitCount != nil && *f.BitCount == 15 && f.Model == "simple"
		}
	}
	if ser.Serializer != "CBodyComponentBaseAnimGraph" || !found {
		t.Errorf("schema --json: %.400s", out)
	}
	out, _, err = runDembug("stats", "--json", path)
	if err != nil {
		t.Fatal(err)
	}
	var st Stats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	sum := int64(0)
	for _, f := range st.Families {
		sum += f.Calls
	}
	if len(st.Families) < 5 || st.TotalCalls == 0 || sum != st.TotalCalls || st.Families[0].Family != "unsigned" {
		t.Errorf("stats --json: %.400s", out)
	}
}
