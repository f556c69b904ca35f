package ui

import (
	"testing"

	"github.com/dembug/dembug/cli"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/brokendemo"
)

// dembug check and the TUI name the same first suspect of a patched
// replay: both ask session's locateFirstSuspect. The patches reach its three
// ways: an inferred name read first in a baseline and in a message, and a
// bit count a patch changed (no unknown name: the what-if search), and
// hand-built replays with a dropped bit and a wrong decoder.
func TestCheckAndTUIShareTheFirstSuspect(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	patches := map[string]func() ([]byte, int, error){
		"renamed QAngle": func() ([]byte, int, error) {
			return writer.RenameInSchema(data, writer.Rename{From: "QAngle", To: "PatchedQAngle"})
		},
		"renamed float32": func() ([]byte, int, error) {
			return writer.RenameInSchema(data, writer.Rename{From: "float32", To: "Float32_v2"})
		},
		"m_flCycle bits": func() ([]byte, int, error) { return writer.SetBitCount(data, "m_flCycle", 14) },
		// A dropped path bit (a bit edit, where the two used to differ)
		// and a wrong decoder, in hand-built replays.
		"dropped path bit": func() ([]byte, int, error) { d, _ := brokendemo.DroppedPathBit(); return d, 1, nil },
		"wrong decoder":    func() ([]byte, int, error) { return brokendemo.WrongDecoder(), 1, nil },
	}
	for name, patch := range patches {
		t.Run(name, func(t *testing.T) {
			patched, n, err := patch()
			if err != nil || n == 0 {
				t.Fatalf("patch: %d, %v", n, err)
			}
			res, _ := cli.Check("patched.dem", patched)
			want := res.FirstSuspicious
			if want == nil {
				t.Fatalf("check names no suspect: %+v", res)
			}
			hs := newHarness(t, "patched.dem", patched, 160, 48)
			l := hs.m.suspect
			if l == nil || l.s == nil {
				t.Fatalf("the TUI found no first suspect; check names %+v", want)
			}
			got := l.s
			if got.At.Cmd != want.Command || got.At.Msg != want.Message || hs.m.ix.Commands[got.At.Cmd].Tick != want.Tick ||
				got.Entity != want.Entity || got.Class != want.Class || got.Name != want.Field || got.Bit != want.BitOffset ||
				got.Decoder != want.Decoder || got.InBaseline != (want.In == "baseline") {
				t.Fatalf("TUI's first suspect %+v\ncheck's %+v", got, want)
			}
			if !l.selects() {
				return // the grading pass's suspect stands: a baseline read, or the diagnosis's own
			}
			pe := hs.m.ix.Msg(l.cmd, l.msg).PE
			if s := pe.Suspect; s == nil || s.Name != want.Field || s.At != got.At || s.Why() != l.why {
				t.Fatalf("the message's suspect is %+v, check names %s", s, want.Field)
			}
			t.Logf("%s: %s of #%d %s at bit %d (%v)", name, got.Name, got.Entity, got.Class, got.Bit, got.Basis)
		})
	}
}
