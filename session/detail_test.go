package session

import (
	"testing"

	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/testdata"
)

// Load finds a packet-entities message by its Ref alone: the decode it
// returns has the updates the index pass counted there, forward and back.
func TestLoadByRef(t *testing.T) {
	ix := BuildIndex("sample.dem", testdata.Sample)
	if !ix.Done || ix.Err != nil {
		t.Fatalf("index: done %v, error %+v", ix.Done, ix.Err)
	}
	var refs []Ref
	for i := range ix.Commands {
		for j, m := range ix.Commands[i].Msgs() {
			if m.PE != nil && len(m.PE.Updates) > 0 {
				refs = append(refs, Ref{Cmd: i, Msg: j, Upd: -1, Field: -1})
			}
		}
	}
	if len(refs) < 3 {
		t.Fatalf("%d packet-entities messages with updates", len(refs))
	}
	refs = refs[:min(len(refs), 40)]
	// Forward, then the first again (back: a fresh decode, past the cache).
	order := append(append([]Ref(nil), refs...), refs[0])
	dec := newLiveDecoder(testdata.Sample, schema.Aliases{})
	for n, r := range order {
		if n == len(order)-1 {
			dec.cache = nil
		}
		det, err := dec.Load(1, r)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		want := len(ix.Msg(r.Cmd, r.Msg).PE.Updates)
		if det.Cmd != r.Cmd || det.Msg != r.Msg || det.Rec == nil || len(det.Rec.Updates) != want {
			t.Fatalf("%+v: detail %d/%d with %v, want %d updates", r, det.Cmd, det.Msg, det.Rec != nil, want)
		}
	}
	if _, err := dec.Load(1, Ref{Cmd: refs[0].Cmd, Msg: len(ix.Commands[refs[0].Cmd].Msgs()), Upd: -1, Field: -1}); err == nil {
		t.Errorf("a position past the command's messages loaded")
	}
}
