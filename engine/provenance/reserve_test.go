package provenance

import "testing"

// ReserveFields keeps the fields recorded so far, makes room for the
// fields asked for in one allocation, and at least doubles the room when
// it grows, so that a message recorded from empty is copied about once.
func TestReserveFields(t *testing.T) {
	var m Message
	grows := 0
	for i := range 10000 {
		if i%37 == 0 {
			before := cap(m.Fields)
			m.ReserveFields(37)
			if c := cap(m.Fields); c-len(m.Fields) < 37 || (c != before && c < 2*before) {
				t.Fatalf("at %d fields: room %d → %d", i, before, c)
			} else if c != before {
				grows++
			}
		}
		f := m.NextField()
		f.Update, f.Start = i, uint(i)*3
	}
	for i, f := range m.Fields {
		if f.Update != i || f.Start != uint(i)*3 {
			t.Fatalf("field %d holds %d at %d after growing", i, f.Update, f.Start)
		}
	}
	if grows > 10 {
		t.Errorf("%d allocations for 10,000 fields", grows)
	}
	m.Reset()
	if len(m.Fields) != 0 || cap(m.Fields) < 10000 {
		t.Errorf("reset: %d fields, room %d", len(m.Fields), cap(m.Fields))
	}
}
