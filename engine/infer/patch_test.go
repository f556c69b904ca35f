package infer_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/dembug/dembug/cli"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// entitiesOf decodes a whole file under aliases and prints its entities as
// `dembug entities` does.
func entitiesOf(t *testing.T, data []byte, a schema.Aliases) ([]byte, *replay.Replay) {
	t.Helper()
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	r.Aliases = a
	if err := r.Run(nil); err != nil {
		t.Fatalf("decode: %v", err)
	}
	var b bytes.Buffer
	if err := cli.WriteEntities(&b, r.Entities); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), r
}

// renames lists, for a decoded replay, one simulated patch per type and
// encoder decoder choice knows and the schema uses: the name becomes one
// decoder choice does not know.
func renames(r *replay.Replay) []writer.Rename {
	types, encs := map[string]bool{}, map[string]bool{}
	for _, f := range r.Schema.AllFields() {
		for _, t := range []*schema.VarType{&f.Type, f.Type.Generic} {
			if t != nil && schema.IsKnownType(t.Base, r.Game) {
				types[t.Base] = true
			}
		}
		if f.EncoderAsWritten != "" {
			encs[f.EncoderAsWritten] = true
		}
	}
	var out []writer.Rename
	for n := range types {
		out = append(out, writer.Rename{From: n, To: "Patched" + n})
	}
	for n := range encs {
		out = append(out, writer.Rename{Encoder: true, From: n, To: "patched_" + n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].To < out[j].To })
	return out
}

// TestPatchedReplaysAreInferred simulates a game patch for every known type
// and encoder of every shared replay of the three games: the name is renamed in
// the file's flattened serializer, so every field of it falls back. For
// each rename that breaks alignment, check must name the first read of the
// renamed name as the breaking read, and infer a name under which the
// patched file decodes to exactly the original's entities.
func TestPatchedReplaysAreInferred(t *testing.T) {
	var files []string
	for _, g := range testreplays.Games {
		files = append(files, testreplays.Files(t, g)...)
	}
	broken, inBaseline, games := 0, 0, map[string]bool{}
	for _, path := range files {
		name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, orig := entitiesOf(t, data, schema.Aliases{})
		for _, rn := range renames(orig) {
			patched, n, err := writer.RenameInSchema(data, rn)
			if err != nil || n == 0 {
				t.Fatalf("%s: rename %s: %d symbols, %v", name, rn.From, n, err)
			}
			ch, err := infer.Run(patched, schema.Aliases{}, infer.Options{Infer: true})
			if err != nil {
				t.Fatalf("%s %s: %v", name, rn.To, err)
			}
			if ch.First.Stats.Misaligned == 0 {
				continue // reads alike under the default decoder: not a break
			}
			broken++
			games[orig.Game.String()] = true
			t.Run(name+"/"+rn.To, func(t *testing.T) {
				if ch.Break == nil || ch.Break.Name != rn.To {
					t.Fatalf("breaking read %+v, want the first read of %s (findings %+v)", ch.Break, rn.To, ch.Findings)
				}
				if ch.Break.InBaseline {
					inBaseline++
				}
				got, r := entitiesOf(t, patched, ch.Aliases)
				if r.Stats.Misaligned != 0 {
					t.Fatalf("under %v: %d messages misaligned", ch.Aliases.Flags(), r.Stats.Misaligned)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("under %v the entities differ from the original's", ch.Aliases.Flags())
				}
				f := ch.Findings[0]
				if f.Unknown != rn.To || f.Aligned == 0 || f.Aligned != f.Messages {
					t.Fatalf("finding %+v", f)
				}
			})
		}
	}
	t.Logf("%d breaking renames over %d games, %d breaking inside a baseline", broken, len(games), inBaseline)
	if broken < 20 || len(games) < 3 || inBaseline < 5 {
		t.Fatalf("want at least 20 breaking renames over 3 games, some in baselines; got %d over %d, %d in baselines", broken, len(games), inBaseline)
	}
}
