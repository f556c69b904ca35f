package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dembug/dembug/sample"
)

// trace --headers writes each update's header, re-read part by part, and
// the deletion list: the sample's tick-15 creep creates (a 3-bit class id,
// max_classes 5) and empty list, and its tick-60 list, which deletes creep
// 301.
func TestTraceHeaders(t *testing.T) {
	type part struct {
		Name  string
		Bits  uint
		Value uint64
	}
	type row struct {
		In       string
		Entity   *int32
		Op       string
		Bits     uint
		Parts    []part
		Entities []uint64
	}
	read := func(tick int64) []row {
		var out bytes.Buffer
		if err := TraceWith(&out, sample.Replay, tick, -1, TraceOptions{Headers: true}); err != nil {
			t.Fatal(err)
		}
		var rows []row
		for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var r row
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("%v: %s", err, l)
			}
			if r.In != "" {
				rows = append(rows, r)
			}
		}
		return rows
	}
	rows := read(15)
	// Two creates, then an empty deletion list: a count of 0 in 6 bits.
	if len(rows) != 3 || rows[0].Op != "create" || *rows[0].Entity != 300 || rows[2].In != "deletions" || rows[2].Bits != 6 {
		t.Fatalf("tick 15 headers: %+v", rows)
	}
	sum := uint(0)
	for _, p := range rows[0].Parts {
		sum += p.Bits
	}
	if len(rows[0].Parts) != 5 || rows[0].Parts[2] != (part{"class id", 3, 1}) || rows[0].Parts[3] != (part{"serial", 17, 11}) || sum != rows[0].Bits {
		t.Errorf("creep 300's create header: %+v", rows[0])
	}
	rows = read(60)
	if len(rows) != 2 || rows[0].Op != "delete" || rows[1].In != "deletions" || len(rows[1].Entities) != 1 || rows[1].Entities[0] != 301 {
		t.Errorf("tick 60: %+v", rows)
	}
}
