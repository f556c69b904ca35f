package compare

import (
	"errors"
	"strings"
	"testing"
)

// A read whose tick or entity does not fit what a replay can hold is an
// error naming its line, never cut to fit (a tick of 2^62 was dropped,
// entity 2^32+1 compared as entity 1).
func TestParseTraceRefusesWhatDoesNotFit(t *testing.T) {
	const good = `{"tick":100,"entity":1,"name":"m_x","value":1}` + "\n"
	for _, c := range []struct{ line, want string }{
		{`{"tick":4611686018427387904,"entity":1,"name":"m_x","value":1}`, "tick 4611686018427387904 is no demo tick"},
		{`{"tick":2147483648,"entity":1,"name":"m_x","value":1}`, "tick 2147483648 is no demo tick"},
		{`{"tick":-2147483649,"entity":1,"name":"m_x","value":1}`, "tick -2147483649 is no demo tick"},
		{`{"tick":100,"entity":4294967297,"name":"m_x","value":1}`, "entity 4294967297: entity indexes run 0…16383"},
		{`{"tick":100,"entity":16384,"name":"m_x","value":1}`, "entity 16384: entity indexes run 0…16383"},
		{`{"tick":100,"entity":-1,"name":"m_x","value":1}`, "entity -1: entity indexes run 0…16383"},
		// Through encoding/json (a key with an escape leaves the fast path).
		{`{"tick":4611686018427387904,"entity":1,"n\u0061me":"m_x","value":1}`, "tick 4611686018427387904 is no demo tick"},
	} {
		reads, err := ParseTrace(strings.NewReader(good + c.line + "\n"))
		var le *LineError
		if !errors.As(err, &le) || le.Line != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %d reads, %v; want line 2 saying %q", c.line, len(reads), err, c.want)
		}
	}
	edge := good + `{"tick":2147483647,"entity":16383,"name":"m_x","value":1}` + "\n" + `{"tick":-1,"entity":0,"name":"m_x","value":1}` + "\n"
	if reads, err := ParseTrace(strings.NewReader(edge)); err != nil || len(reads) != 3 || reads[1].Tick != 2147483647 || reads[1].Entity != 16383 {
		t.Errorf("the largest tick and entity: %v, %+v", err, reads)
	}
}
