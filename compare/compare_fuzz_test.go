package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/testdata"
)

// traceOf writes reads as trace lines, the keys dembug trace prints.
func traceOf(reads []Read) []byte {
	var b bytes.Buffer
	for i := range reads {
		r := &reads[i]
		line, _ := json.Marshal(map[string]any{"tick": r.Tick, "entity": r.Entity, "name": r.Name, "value": r.Value,
			"bit_offset": r.Offset, "bits": r.Bits, "path": r.Path})
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// FuzzCompareTrace sets any trace beside the built-in sample's decode: no
// panic, and a result that adds up: their reads each compared or extra,
// no more equal than compared, every difference on a line of the trace and
// said in a sentence, the first difference the first of all.
func FuzzCompareTrace(f *testing.F) {
	ours, err := Ours(testdata.Sample, schema.Aliases{}, nil)
	if err != nil || len(ours) < 40 {
		f.Fatalf("the sample's reads: %d, %v", len(ours), err)
	}
	f.Add(traceOf(ours[:40]))
	f.Add(traceOf(ours[10:12]))
	wrong := append([]Read(nil), ours[:20]...)
	wrong[5].Value = json.RawMessage(`12345`)
	wrong[7].Bits++
	wrong[9], wrong[10] = wrong[10], wrong[9]
	f.Add(traceOf(wrong))
	f.Add([]byte(fmt.Sprintf(`{"tick":%d,"entity":%d,"name":"m_x[3].m_y","value":1}`+"\n", ours[0].Tick, ours[0].Entity)))
	f.Fuzz(func(t *testing.T, data []byte) {
		theirs, err := ParseTrace(bytes.NewReader(data))
		if err != nil || len(theirs) == 0 {
			return
		}
		res := Compare(ours, theirs, Options{All: true})
		lines := bytes.Count(data, []byte("\n")) + 1
		if res.Theirs != len(theirs) || res.Compared+res.Extra != res.Theirs || res.Equal > res.Compared || res.Missing > len(ours) {
			t.Fatalf("theirs %d of %d read, compared %d, equal %d, extra %d, missing %d", res.Theirs, len(theirs), res.Compared, res.Equal, res.Extra, res.Missing)
		}
		if (res.First == nil) != (len(res.All) == 0) || res.First != nil && (res.First.Tick != res.All[0].Tick || res.First.Field != res.All[0].Field || res.First.What != res.All[0].What) {
			t.Fatalf("first difference %+v, of %d", res.First, len(res.All))
		}
		for i := range res.All {
			d := &res.All[i]
			if d.Theirs != nil && (d.Theirs.Line < 1 || d.Theirs.Line > lines) || d.Theirs == nil && d.Ours == nil || d.Sentence() == "" {
				t.Fatalf("difference %d: %+v", i, d)
			}
		}
		_ = res.TickHint()
	})
}
