package compare

import (
	"bytes"
	"testing"
)

// FuzzParseTrace reads any bytes as a parser's trace: no panic; an error
// or reads whose lines lie in the input, each with the keys a read needs and
// a tick and entity a replay can hold; and element names in dembug's form,
// which reading again keeps.
func FuzzParseTrace(f *testing.F) {
	f.Add([]byte(`{"tick":1,"entity":2,"name":"m_vec[3].m_x","value":1.5}` + "\n"))
	f.Add([]byte(`{"tick":20,"entity":442,"name":"m_angEyeAngles","value":[0.33,159.3,0],"bit_offset":290,"bits":43,"path":[2]}` + "\n" + `{"tick":20,"entity":1,"name":"m_a.7","value":"x","in":"baseline"}`))
	f.Add([]byte("{\"tick\":1}\n{]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		reads, err := ParseTrace(bytes.NewReader(data))
		if err != nil {
			return
		}
		lines := bytes.Count(data, []byte("\n")) + 1
		for i := range reads {
			r := &reads[i]
			if r.Line < 1 || r.Line > lines || r.Value == nil {
				t.Fatalf("read %d: line %d of %d, value %q", i, r.Line, lines, r.Value)
			}
			if r.Tick != int64(int32(r.Tick)) || r.Entity < 0 || r.Entity >= 1<<14 {
				t.Fatalf("read %d: tick %d, entity %d: no read a replay can hold", i, r.Tick, r.Entity)
			}
			if n := normalName(r.Name); n != r.Name {
				t.Fatalf("read %d: name %q reads again as %q", i, r.Name, n)
			}
		}
	})
}
