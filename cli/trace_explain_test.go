package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/dembug/dembug/internal/testreplays"
	"github.com/dembug/dembug/sample"
)

type traceStep struct {
	Kind      string `json:"kind"`
	Label     string `json:"label"`
	BitOffset *uint  `json:"bit_offset"`
	Bits      uint   `json:"bits"`
	Raw       string `json:"raw"`
	Text      string `json:"text"`
}

type traceLine struct {
	Name      string      `json:"name"`
	Decoder   string      `json:"decoder"`
	BitOffset uint        `json:"bit_offset"`
	Bits      uint        `json:"bits"`
	In        string      `json:"in"`
	Explain   []traceStep `json:"explain"`
}

// checkTraceExplain traces a tick with --explain and checks every read:
// its steps cover exactly its bits, in order, and end in what they mean.
func checkTraceExplain(t *testing.T, data []byte, tick int64, o TraceOptions) (reads, baseline int) {
	t.Helper()
	var out bytes.Buffer
	o.Explain = true
	if err := TraceWith(&out, data, tick, -1, o); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l traceLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		reads++
		if l.In == "baseline" {
			baseline++
		}
		if len(l.Explain) == 0 {
			t.Fatalf("%s (%s) has no steps", l.Name, l.Decoder)
		}
		at := l.BitOffset
		for _, s := range l.Explain {
			if s.Kind != "bits" {
				if s.Text == "" {
					t.Fatalf("%s: step %+v says nothing", l.Name, s)
				}
				continue
			}
			if s.BitOffset == nil || *s.BitOffset != at {
				t.Fatalf("%s (%s): step %q not at bit %d: %+v", l.Name, l.Decoder, s.Label, at, l.Explain)
			}
			at += s.Bits
		}
		if at != l.BitOffset+l.Bits {
			t.Fatalf("%s (%s): steps read %d bits, the decode %d: %+v", l.Name, l.Decoder, at-l.BitOffset, l.Bits, l.Explain)
		}
	}
	return reads, baseline
}

// trace --explain gives each read of the sample its walk-through.
func TestTraceExplainSample(t *testing.T) {
	if n, _ := checkTraceExplain(t, sample.Replay, 30, TraceOptions{}); n == 0 {
		t.Fatal("no reads at tick 30")
	}
}

// And each read of a real replay's tick, instance baselines included.
func TestTraceExplainReplay(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	n, b := checkTraceExplain(t, data, 0, TraceOptions{Baselines: true})
	if n == 0 {
		t.Fatal("no reads at tick 0")
	}
	if b == 0 {
		t.Fatalf("%d reads explained, none in a baseline", n)
	}
	t.Logf("%d reads explained, %d of them in baselines", n, b)
}
