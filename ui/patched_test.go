package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/sample"
)

// An encoder a correction set (the sample's simulation times: no encoder
// in the schema, simtime by name) is marked patched wherever the inspector
// prints it: the schema line and the decoder's reason. The CS2 sample
// writes simtime itself: not marked (issue 48).
func TestPatchedEncoderMarkedInInspector(t *testing.T) {
	for _, tc := range []struct {
		name    string
		data    []byte
		patched bool
	}{{"sample", sample.Replay, true}, {"sample-cs2", sample.CS2, false}} {
		hs := newHarness(t, tc.name, tc.data, 160, 48)
		hs.keys("/")
		hs.typ("m_flSimulationTime")
		hs.keys("enter")
		f := selField(hs)
		if f == nil || f.Schema == nil || f.Schema.Encoder != "simtime" || (f.Schema.Patched != "") != tc.patched {
			t.Fatalf("%s: selected %+v", tc.name, f)
		}
		text := inspectorText(hs)
		for _, want := range []string{"encoder simtime (patched: not in the schema)", "float32 with encoder simtime (patched: not in the schema) → simulation time"} {
			if strings.Contains(text, want) != tc.patched {
				t.Errorf("%s: inspector has %q: %v, want %v\n%s", tc.name, want, !tc.patched, tc.patched, text)
			}
		}
		if !strings.Contains(text, "encoder simtime") {
			t.Errorf("%s: inspector does not name the encoder:\n%s", tc.name, text)
		}
	}
}
