package session

import (
	"strings"
	"testing"
	"time"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// allMatches is every update of a recorded decode from the start whose
// class or a field name contains q, in file order.
func allMatches(t *testing.T, ix *Index, data []byte, q string) []Ref {
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	var out []Ref
	var rec provenance.Message
	r.Hooks.Record = func(replay.Location) *provenance.Message { return &rec }
	r.Hooks.Entities = func(loc replay.Location, _ *messages.PacketEntities, _ entity.Result, m *provenance.Message) {
		for u := range m.Updates {
			h := Ref{loc.Command, posIn(ix, loc.Command, loc.Message), u, -1}
			for fi, f := range m.UpdateFields(u) {
				if strings.Contains(strings.ToLower(f.Name), q) {
					h.Field = fi
					break
				}
			}
			if h.Field < 0 && strings.Contains(strings.ToLower(m.Updates[u].Class), q) {
				h.Field = 0
			}
			if h.Field >= 0 {
				out = append(out, h)
			}
		}
	}
	r.Run(nil)
	return out
}

// A filter scan finds every matching update; a search from any place
// finds the next one after it, resuming from a keyframe, and wraps.
func TestScansFindWhatARecordedDecodeFinds(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	ix := BuildIndex("dota.dem", data)
	for _, q := range []string{"m_ihealth", "cdota_unit_hero"} {
		want := allMatches(t, ix, data, q)
		if len(want) < 10 {
			t.Fatalf("%q: only %d matches", q, len(want))
		}
		f := newFilter(data, schema.Aliases{}, NewMatcher(q), len(ix.Commands))
		var got []Ref
		for {
			st := f.Step(time.Millisecond)
			got = append(got, st.Hits...)
			if st.Done {
				break
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%q: the filter found %d updates, the recorded decode %d", q, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%q: match %d is %+v, want %+v", q, i, got[i], want[i])
			}
		}
		for _, i := range []int{0, 1, len(want) / 3, len(want) / 2, len(want) - 2, len(want) - 1} {
			at := want[i]
			next := want[(i+1)%len(want)]
			s := newSearch(data, schema.Aliases{}, ix.Keyframes, NewMatcher(q), at, len(ix.Commands))
			var hit *Ref
			for hit == nil {
				st := s.Step(time.Millisecond)
				if len(st.Hits) > 0 {
					hit = &st.Hits[0]
				} else if st.Done {
					t.Fatalf("%q: no match after %+v", q, at)
				}
			}
			if *hit != next {
				t.Fatalf("%q: search after %+v found %+v, want %+v", q, at, *hit, next)
			}
		}
	}
}

// The index pass summarises every update as a recorded decode records it,
// and the grading pass marks exactly the fields such a decode grades.
func TestGradesAgreeWithDiagnosis(t *testing.T) {
	testreplays.EachFile(t, func(path string, data []byte) {
		ix := BuildIndex(path, data)
		g := newGrader(data, schema.Aliases{}, ix.Keyframes)
		for !ix.GradeDone {
			ix.ApplyGrades(g.Step(time.Hour))
		}
		// The same, by hand.
		want := 0
		r, _ := replay.Open(data)
		var rec provenance.Message
		r.Hooks.Record = func(replay.Location) *provenance.Message { return &rec }
		r.Hooks.Entities = func(loc replay.Location, _ *messages.PacketEntities, _ entity.Result, m *provenance.Message) {
			pe := ix.Msg(loc.Command, posIn(ix, loc.Command, loc.Message)).PE
			if len(pe.Updates) != len(m.Updates) {
				t.Fatalf("%s: command %d: %d updates indexed, %d recorded", path, loc.Command, len(pe.Updates), len(m.Updates))
			}
			exists := diagnoseLookup(r)
			for u, up := range m.Updates {
				iu := &pe.Updates[u]
				if int32(iu.Entity) != up.Index || iu.Op != up.Op || ix.ClassName(iu) != up.Class || iu.Fields() != up.NumFields ||
					uint(iu.Start) != up.Start || uint(pe.UpdateEnd(u)) != up.End || iu.Skipped() != up.Skipped {
					t.Fatalf("%s: command %d update %d indexed %+v (%s), recorded %+v", path, loc.Command, u, *iu, ix.ClassName(iu), up)
				}
				for fi := range up.NumFields {
					sv := gradeField(&m.Fields[up.FirstField+fi], exists)
					if got := pe.FieldSev(Ref{Cmd: loc.Command, Msg: posIn(ix, loc.Command, loc.Message), Upd: u, Field: int(fi)}); got != sv {
						t.Fatalf("%s: command %d update %d field %d graded %v, want %v", path, loc.Command, u, fi, got, sv)
					}
					if sv != 0 {
						want++
					}
				}
			}
		}
		r.Run(nil)
		t.Logf("%s: %d graded fields, %d stops", path, want, len(ix.Anoms))
	})
}

func diagnoseLookup(r *replay.Replay) diagnose.Lookup { return diagnose.LookupIn(r.Entities) }

func gradeField(f *provenance.Field, exists diagnose.Lookup) diagnose.Severity {
	return diagnose.Grade(diagnose.Field(f, exists))
}

// The index accounts for the updates of a message decoding breaks in as a
// recording decode does: the first messages exactly (decoded again), the
// others up to where decoding stopped. A patched replay breaks in many.
func TestIndexAccountsForBrokenUpdates(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	patched, n, err := writer.RenameInSchema(data, writer.Rename{From: "QAngle", To: "PatchedQAngle"})
	if err != nil || n == 0 {
		t.Fatalf("patch: %d symbols, %v", n, err)
	}
	ix := BuildIndex("patched.dem", patched)
	r, _ := replay.Open(patched)
	var rec provenance.Message
	r.Hooks.Record = func(replay.Location) *provenance.Message { return &rec }
	broken := 0
	r.Hooks.Entities = func(loc replay.Location, _ *messages.PacketEntities, res entity.Result, m *provenance.Message) {
		pe := ix.Msg(loc.Command, posIn(ix, loc.Command, loc.Message)).PE
		if res.Err == nil {
			return
		}
		broken++
		if pe.Err == nil || len(pe.Updates) != len(m.Updates) {
			t.Fatalf("command %d: %d updates indexed (error %v), %d recorded (error %v)", loc.Command, len(pe.Updates), pe.Err, len(m.Updates), res.Err)
		}
		for u, up := range m.Updates {
			end := up.End
			if up.Err != nil {
				end = res.EndBit // the update it broke in runs to where decoding stopped
			}
			iu := &pe.Updates[u]
			if uint(iu.Start) != up.Start || uint(pe.UpdateEnd(u)) != end || UpdateFailed(iu) != (up.Err != nil) || int32(iu.Entity) != up.Index {
				t.Fatalf("command %d (broken message %d) update %d: indexed %+v ending at %d, recorded %+v", loc.Command, broken, u, *iu, pe.UpdateEnd(u), up)
			}
		}
	}
	r.Run(nil)
	if broken <= maxRedecodes {
		t.Fatalf("%d messages broke: the test reaches no message past the %d decoded again", broken, maxRedecodes)
	}
}
