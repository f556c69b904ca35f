package session

import (
	"context"
	"reflect"
	"testing"

	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// File.Infer with the finished index decodes no whole file: it starts
// from the keyframe before the first misaligned message and takes the
// values from the index pass. It must find what check's whole-file run
// finds: the same names, the same breaking read, the same aliases.
func TestInferFromTheIndexFindsWhatTheWholeFileRunFinds(t *testing.T) {
	fromKeyframe := 0
	for _, game := range []string{"dota2", "cs2", "deadlock"} {
		{
			path, data := testreplays.Read(t, game)
			for _, rn := range []writer.Rename{{}, {From: "QAngle", To: "PatchedQAngle"}, {From: "Vector", To: "PatchedVector"}} {
				patched := data // unpatched: nothing misaligns, the values alone count
				if rn.From != "" {
					p, n, err := writer.RenameInSchema(data, rn)
					if err != nil || n == 0 {
						continue
					}
					patched = p
				}
				f := OpenFile(patched, schema.Aliases{})
				in := f.Indexer()
				ix := &Index{Path: path, Size: len(patched)}
				for !ix.Done {
					ix.Append(in.Step(1 << 40))
				}
				want, err := infer.Run(patched, schema.Aliases{}, infer.Options{Infer: true})
				if err != nil && want == nil {
					t.Fatalf("%s %s: %v", path, rn.From, err)
				}
				got, err := f.Infer(context.Background(), ix)
				if err != nil {
					t.Fatalf("%s %s: %v", path, rn.From, err)
				}
				w := InferenceOf(want)
				if (w == nil) != (got == nil) || w != nil && (!reflect.DeepEqual(w.Findings, got.Findings) || !reflect.DeepEqual(w.Break, got.Break) || !reflect.DeepEqual(w.Aliases.Flags(), got.Aliases.Flags())) {
					t.Fatalf("%s renamed %s: from the index %+v, the whole-file run %+v", path, rn.From, got, w)
				}
				if (ix.FirstMisaligned == nil) != (want.First.FirstMisaligned == nil) || ix.FirstMisaligned != nil && *ix.FirstMisaligned != want.First.FirstMisaligned.Loc {
					t.Fatalf("%s renamed %s: the index's first misaligned message %+v, the run's %+v", path, rn.From, ix.FirstMisaligned, want.First.FirstMisaligned)
				}
				if ix.FirstMisaligned != nil && ix.Keyframes.Before(ix.FirstMisaligned.Command) != nil {
					fromKeyframe++
				}
				if w != nil {
					t.Logf("%s renamed %s: %d findings, first %s as %s", path, rn.From, len(w.Findings), w.Findings[0].Unknown, w.Findings[0].As)
				}
			}
		}
	}
	if fromKeyframe == 0 {
		t.Fatal("no inference started from a keyframe")
	}
	t.Logf("%d inferences started from a keyframe", fromKeyframe)
}

// A superseded inference stops: under a context already done it tests no
// hypothesis and finds nothing, where the same index under a live one
// finds the renamed type.
func TestInferStopsWhenSuperseded(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	patched, n, err := writer.RenameInSchema(data, writer.Rename{From: "QAngle", To: "PatchedQAngle"})
	if err != nil || n == 0 {
		t.Fatal(err)
	}
	f := OpenFile(patched, schema.Aliases{})
	in := f.Indexer()
	ix := &Index{Size: len(patched)}
	for !ix.Done {
		ix.Append(in.Step(1 << 40))
	}
	live, err := f.Infer(context.Background(), ix)
	if err != nil || live == nil || len(live.Findings) == 0 {
		t.Fatalf("live: %+v, %v", live, err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if got, _ := f.Infer(done, ix); got != nil && len(got.Findings) > 0 {
		t.Fatalf("a superseded inference went on to find %+v", got.Findings)
	}
}
