package entity

import (
	"errors"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
)

// Each way an update header or deletion list can contradict the data or the
// table fails with a HeaderError of its own fault (diagnose names the
// assumption from it), wrapping the reader's error where the data ran out
// so that the record still says it over-read; with and without recording.
func TestHeaderErrorsSayTheirFault(t *testing.T) {
	type message struct {
		name     string
		delta    bool
		updates  int32
		write    func(w *bitio.Writer)
		fault    HeaderFault
		overRead bool
	}
	for _, m := range []message{
		{"update of no entity", true, 1, func(w *bitio.Writer) { w.UBitVar(4); w.Bits(0, 2); w.Bits(0, 8) }, NoSuchEntity, false},
		{"create of no class", false, 1, func(w *bitio.Writer) {
			w.UBitVar(0)
			w.Bits(2, 2)          // create
			w.Bits(1, 1)          // class id 1: no class has it
			w.Bits(0, SerialBits) // serial
			w.VarUint32(0)        // spawn group
			w.Bits(0, 8)
		}, UnknownClass, false},
		{"header past the data", true, 1, func(w *bitio.Writer) {}, BadHeader, true},
		{"index past the table", true, 1, func(w *bitio.Writer) { w.UBitVar(MaxEntities + 7); w.Bits(0, 2) }, BadHeader, false},
		{"deletion list past the data", true, 0, func(w *bitio.Writer) { w.UBitVar(500); w.Bits(0, 8) }, BadDeletions, false},
	} {
		for _, record := range []bool{false, true} {
			tb := NewTable()
			tb.Game = game.Dota2
			tb.SetClassCount(2)
			var w bitio.Writer
			m.write(&w)
			pe := &messages.PacketEntities{IsDelta: m.delta, UpdatedEntries: m.updates, EntityData: w.Bytes()}
			var rec *provenance.Message
			if record {
				rec = &provenance.Message{}
			}
			res := tb.Apply(pe, rec)
			var he *HeaderError
			if !errors.As(res.Err, &he) || he.Fault != m.fault {
				t.Errorf("%s (recording %v): %v, want a header error of fault %d", m.name, record, res.Err, m.fault)
				continue
			}
			var over *bitio.OverflowError
			if got := errors.As(res.Err, &over); got != m.overRead {
				t.Errorf("%s: wraps the reader's overflow %v, want %v (%v)", m.name, got, m.overRead, res.Err)
			}
			if record && (rec.Err == nil || (rec.Problem == provenance.OverRead) != m.overRead) {
				t.Errorf("%s: recorded %v, problem %v", m.name, rec.Err, rec.Problem)
			}
		}
	}
}
