package session

import (
	"testing"

	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/internal/testreplays"
)

// posIn is the position of the message with inner index inner among
// command cmd's messages in the index, or -1: a test's own look-up, beside
// the pass's.
func posIn(ix *Index, cmd, inner int) int {
	for j := 0; ix.Msg(cmd, j) != nil; j++ {
		if ix.Msg(cmd, j).Index == inner {
			return j
		}
	}
	return -1
}

// A pass hands every packet-entities message over at the Ref the index
// gives it, from the start of the file and resumed from each keyframe.
func TestPassRefsAreTheIndexs(t *testing.T) {
	testreplays.EachFile(t, func(path string, data []byte) {
		ix := BuildIndex(path, data)
		check := func(ks *replay.Keyframes, before int) int {
			n := 0
			p, err := openPass(start{data: data, ks: ks, before: before}, Visitor{
				Record: func(at Ref, loc Location) *provenance.Message {
					if at != (Ref{loc.Command, posIn(ix, loc.Command, loc.Message), -1, -1}) {
						t.Fatalf("%s: Record at %+v, the index has %+v", path, at, loc)
					}
					return nil
				},
				Entities: func(at Ref, loc Location, _ *messages.PacketEntities, _ entity.Result, _ *provenance.Message) {
					m := ix.Msg(at.Cmd, at.Msg)
					if m == nil || m.Index != loc.Message || m.PE == nil || at.Upd != -1 || at.Field != -1 {
						t.Fatalf("%s: Entities at %+v (command %d message %d): not the index's message", path, at, loc.Command, loc.Message)
					}
					n++
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			for {
				if _, err := p.Step(); err != nil {
					break
				}
			}
			return n
		}
		if n := check(nil, 0); n == 0 {
			t.Fatalf("%s: no packet-entities message handed over", path)
		}
		// Keyframes closer together than the index pass's, for these
		// short files.
		ks := &replay.Keyframes{Interval: len(data) / 4, Budget: KeyframeBudget}
		p, _ := openPass(start{data: data}, Visitor{})
		for {
			if _, err := p.Step(); err != nil {
				break
			}
			ks.Observe(p.r)
		}
		for _, k := range ks.List() {
			p, _ := openPass(start{data: data, ks: ks, before: k.Command + 1}, Visitor{})
			if p.from != k.Command {
				t.Fatalf("%s: a pass before command %d starts at %d, not at its keyframe", path, k.Command+1, p.from)
			}
			if n := check(ks, k.Command+1); n == 0 {
				t.Errorf("%s: resumed at command %d, no packet-entities message handed over", path, k.Command)
			}
		}
		if ks.Len() < 2 {
			t.Fatalf("%s: %d keyframes", path, ks.Len())
		}
	})
}
