// Package signon runs a replay through its start-up for tests and
// benchmarks: the header, schema, string tables, class info, baselines and
// the first full entity snapshot, and no further.
package signon

import (
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
)

// End opens data and decodes it up to and including its first full
// packet-entities message, failing tb on any error.
func End(tb testing.TB, data []byte) *replay.Replay {
	tb.Helper()
	r, err := replay.Open(data)
	if err != nil {
		tb.Fatal(err)
	}
	full := false
	r.Hooks.Entities = func(_ replay.Location, m *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
		full = full || !m.IsDelta
	}
	if err := r.Run(func(*container.Command) bool { return full }); err != nil {
		tb.Fatal(err)
	}
	r.Hooks.Entities = nil
	return r
}
