package infer_test

import (
	"bytes"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/container"
	ev "github.com/dembug/dembug/engine/evidence"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// valueFinding returns the finding resting on values for name, or nil.
func valueFinding(ch *infer.Checked, name string) *infer.Finding {
	for i, f := range ch.Findings {
		if f.Unknown == name && f.Basis == infer.BasisValues {
			return &ch.Findings[i]
		}
	}
	return nil
}

// TestRenamedSignedTypesAreInferredFromValues simulates the patch that
// breaks nothing: a signed type renamed in the schema falls to the default
// decoder, which reads the same bits unsigned. The file still aligns; its
// values must show the rename as a signed type, and reading it as the
// inferred type must give the original file's entities exactly. Unsigned
// types renamed the same way must never be called signed.
func TestRenamedSignedTypesAreInferredFromValues(t *testing.T) {
	found := map[string]int{}
	testreplays.EachFile(t, func(path string, data []byte) {
		name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		want, orig := entitiesOf(t, data, schema.Aliases{})
		game := orig.Game.String()
		for _, from := range []string{"int32", "uint8", "uint16", "uint32", "Color", "CUtlStringToken", "CHandle"} {
			to := "Patched" + from
			patched, n, err := writer.RenameInSchema(data, writer.Rename{From: from, To: to})
			if err != nil {
				t.Fatalf("%s: rename %s: %v", name, from, err)
			}
			if n == 0 {
				continue
			}
			ch, err := infer.Run(patched, schema.Aliases{}, infer.Options{Infer: true})
			if err != nil || ch.First.Stats.Misaligned != 0 {
				t.Fatalf("%s %s: %v, %d misaligned: the rename should break nothing", name, to, err, ch.First.Stats.Misaligned)
			}
			f := valueFinding(ch, to)
			if !strings.HasPrefix(from, "int") {
				if f != nil && strings.HasPrefix(f.As, "int") {
					t.Errorf("%s: unsigned %s renamed %s called signed: %+v", name, from, to, *f)
				}
				continue
			}
			if f == nil || f.As != "int32" || f.Values < ev.MinNonzero || f.Fields == 0 {
				t.Errorf("%s: %s renamed %s: want a values finding as int32, got %+v", name, from, to, f)
				continue
			}
			found[game]++
			if !strings.Contains(f.Evidence, "values in") || !strings.Contains(f.Reads, "as int32") {
				t.Errorf("%s %s: evidence %q, reads %q say too little", name, to, f.Evidence, f.Reads)
			}
			got, _ := entitiesOf(t, patched, schema.Aliases{Types: map[string]string{to: f.As}})
			if !bytes.Equal(got, want) {
				t.Errorf("%s: under --as %s=%s the entities differ from the original's", name, to, f.As)
			}
		}
	})
	for _, g := range testreplays.Games {
		if found[g] == 0 {
			t.Errorf("no renamed signed type inferred from values in %s", g)
		}
	}
}

// TestRealUnknownsOnValues: the shared Dota replay's player ids are signed
// values read unsigned (every one even but the -1s), its item ids need
// more than 32 bits; Deadlock's HeroID_t (55, 19, 6: both parities) is
// unsigned and no unknown name of any shared replay with both parities in
// its values is called signed.
//
// Under the seed's reading (the game's corrections read the Dota 2 ids
// right by default) player and item ids are the unknown types they show.
func TestRealUnknownsOnValues(t *testing.T) {
	testreplays.EachFile(t, func(path string, data []byte) {
		ch, err := infer.Run(data, schema.Aliases{Seed: true}, infer.Options{Infer: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, ne := range infer.ValueEvidence(ch.First) {
			if _, od := ne.Tally.Distinct(); ne.Verdict.Kind == ev.Signed && ne.Tally.OddMax > ne.Tally.EvenMax/ev.OddScale {
				t.Errorf("%s: %s called signed with odd values up to %d (%d distinct)", path, ne.Name, ne.Tally.OddMax, od)
			}
			if ne.Name == "HeroID_t" && ne.Verdict.Kind != ev.Unsure {
				t.Errorf("%s: HeroID_t (both parities) judged %+v", path, ne.Verdict)
			}
		}
		if !strings.Contains(path, "dota2") {
			return
		}
		pid := valueFinding(ch, "PlayerID_t")
		if pid == nil || pid.As != "int32" || !strings.Contains(pid.Reads, "-1") || !strings.Contains(pid.Evidence, "but 1 (") {
			t.Errorf("%s: PlayerID_t: want a values finding as int32 with -1, got %+v", path, pid)
		}
		item := valueFinding(ch, "itemid_t")
		if item == nil || item.As != "uint64" || !strings.Contains(item.Evidence, "more than 32 bits") {
			t.Errorf("%s: itemid_t: want a values finding as uint64, got %+v", path, item)
		}
		// Read as inferred, the file still aligns and those names say
		// nothing more.
		again, err := infer.Run(data, ch.Aliases, infer.Options{Infer: true})
		if err != nil || again.First.Stats.Misaligned != 0 {
			t.Fatalf("under %v: %v, %d misaligned", ch.Aliases.Flags(), err, again.First.Stats.Misaligned)
		}
		for _, n := range []string{"PlayerID_t", "itemid_t"} {
			if f := valueFinding(again, n); f != nil {
				t.Errorf("under %v %s is still judged: %+v", ch.Aliases.Flags(), n, *f)
			}
		}
	})
}

// A schema builds its fields, and numbers its watched ones, as the decode
// first uses them: the value evidence is the same as when every field was
// built before the first entity, and there is some (the Dota 2 replay's
// player ids are read unsigned by the default decoder).
func TestValueEvidenceSameWhenFieldsBuiltLate(t *testing.T) {
	evidenceOf := func(data []byte, buildFirst bool) []infer.NameEvidence {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		r.Entities.GatherEvidence()
		if buildFirst {
			if err := r.Run(func(*container.Command) bool { return r.Schema != nil }); err != nil {
				t.Fatal(err)
			}
			r.Schema.Complete()
		}
		if err := r.Run(nil); err != nil {
			t.Fatal(err)
		}
		out := infer.ValueEvidence(r)
		for i := range out {
			slices.Sort(out[i].FieldNames) // (listed in the order the fields were numbered)
		}
		return out
	}
	some := false
	testreplays.EachFile(t, func(path string, data []byte) {
		late, first := evidenceOf(data, false), evidenceOf(data, true)
		if !reflect.DeepEqual(late, first) {
			t.Errorf("%s: evidence with fields built as used %+v, built first %+v", filepath.Base(path), late, first)
		}
		some = some || len(late) > 0
	})
	if !some {
		t.Error("no value evidence in any shared replay")
	}
}
