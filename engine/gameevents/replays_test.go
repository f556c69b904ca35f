package gameevents

import (
	"path/filepath"
	"testing"

	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

// On every shared replay the list comes in the signon, before any event,
// and every event has its entry and holds one value of the declared type
// per key.
func TestSharedReplaysEventsMatchTheirList(t *testing.T) {
	testreplays.EachFile(t, func(path string, data []byte) {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		var tr Tracker
		events := 0
		var failed error
		r.Hooks.Inner = func(l replay.Location, m *messages.Inner) {
			ev, isEvent, err := tr.Handle(m.Type, m.Body)
			if err != nil && failed == nil {
				failed = err
			}
			if !isEvent || err != nil {
				return
			}
			events++
			if ev.Desc == nil {
				t.Errorf("%s tick %d: event %d: %s", filepath.Base(path), l.Tick, ev.ID, ev.Why())
			}
			for _, m := range ev.Mismatches() {
				t.Errorf("%s tick %d: %s: %s", filepath.Base(path), l.Tick, ev.Label(), m)
			}
		}
		if err := r.Run(nil); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if failed != nil {
			t.Errorf("%s: %v", path, failed)
		}
		if tr.Lists != 1 || len(tr.Defined) < 100 {
			t.Errorf("%s: %d lists, %d events defined", path, tr.Lists, len(tr.Defined))
		}
		t.Logf("%s: %d events defined, %d sent", filepath.Base(path), len(tr.Defined), events)
	})
}
