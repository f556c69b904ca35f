package session

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/testdata"
)

// wireValue finds a named row's value.
func wireValue(rows []WireRow, name string) (string, bool) {
	for _, r := range rows {
		if strings.HasPrefix(r.Name, name) {
			return r.Value, true
		}
	}
	return "", false
}

// Every command and inner message of the sample opens as a wire tree, and
// the modelled ones have their fields named with the sample's values.
func TestWireRowsOfTheSample(t *testing.T) {
	ix := BuildIndex("sample.dem", testdata.Sample)
	if !ix.Done || ix.Err != nil {
		t.Fatalf("index: done %v, error %+v", ix.Done, ix.Err)
	}
	seen := map[string]string{}
	for i := range ix.Commands {
		c := &ix.Commands[i]
		for msg := -1; msg < len(c.Msgs()); msg++ {
			name := c.Kind.String()
			if msg >= 0 {
				name = c.Msgs()[msg].Name
			}
			body, err := bodyOf(testdata.Sample, c, msg)
			if err != nil {
				t.Fatalf("command #%d message %d: %v", c.Index, msg, err)
			}
			if msg >= 0 && len(body) != c.Msgs()[msg].Size {
				t.Fatalf("command #%d message %d: %d bytes, the index says %d", c.Index, msg, len(body), c.Msgs()[msg].Size)
			}
			rows, err := WireRows(name, body)
			if err != nil {
				t.Fatalf("command #%d %s: %v", c.Index, name, err)
			}
			for _, r := range rows {
				if name == "net_Tick" && r.Name == "tick" && strings.Contains(r.Value, "zigzag") {
					t.Errorf("command #%d: net_Tick's tick (a uint32) reads %q", c.Index, r.Value)
				}
				if r.Offset < 0 || r.Offset+r.Len > len(body) {
					t.Fatalf("command #%d %s: field %d at %d+%d outside %d bytes", c.Index, name, r.Field, r.Offset, r.Len, len(body))
				}
			}
			if _, ok := seen[name]; !ok {
				v, _ := wireValue(rows, map[string]string{
					"DEM_FileHeader": "game_directory", "svc_ServerInfo": "max_classes", "net_Tick": "tick",
					"svc_CreateStringTable": "name", "DEM_ClassInfo": "network_name", "DEM_FileInfo": "playback_ticks",
				}[name])
				seen[name] = v
			}
		}
	}
	for name, want := range map[string]string{
		"DEM_FileHeader": `"/opt/srcds/dota_v10000/game/dota" (game dota2, from the last element; build 10000, from dota_v10000)`, "svc_ServerInfo": "5 (class ids take floor(log2 5) + 1 = 3 bits)", "net_Tick": "27000",
		"svc_CreateStringTable": `"instancebaseline"`, "DEM_ClassInfo": `"CDOTAGamerulesProxy"`, "DEM_FileInfo": "89 (the last tick)",
	} {
		if seen[name] != want {
			t.Errorf("%s: %q, want %q", name, seen[name], want)
		}
	}
}
