package infer

import (
	"testing"
	"time"

	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/sample"
)

// inferLimit is far above what an inference on a seed takes.
const inferLimit = 10 * time.Second

// FuzzRun checks and infers mutated patched files: the built-in sample with
// a type renamed, so that inference runs (a real replay's first message
// makes each run too slow to mutate much). Whatever the input: no panic, the run ends in bounded time, and
// every finding names an unknown name the schema has, as a known name.
func FuzzRun(f *testing.F) {
	for _, rn := range []writer.Rename{{From: "float32", To: "PatchedF32"}, {From: "QAngle", To: "PatchedQAngle"}} {
		if p, n, err := writer.RenameInSchema(sample.Replay, rn); err == nil && n > 0 {
			f.Add(p)
		}

	}
	f.Fuzz(func(t *testing.T, data []byte) {
		type result struct {
			ch  *Checked
			err error
		}
		done := make(chan result, 1)
		go func() {
			ch, err := Run(data, schema.Aliases{}, Options{Infer: true})
			done <- result{ch, err}
		}()
		var ch *Checked
		var err error
		select {
		case r := <-done:
			ch, err = r.ch, r.err
		case <-time.After(inferLimit):
			t.Fatalf("check and inference of %d bytes still running after %v", len(data), inferLimit)
		}
		if err != nil || ch == nil {
			return
		}
		for _, fd := range ch.Findings {
			known := schema.IsKnownType(fd.As, ch.First.Game)
			if fd.Kind == schema.KindEncoder {
				known = false
				for _, e := range schema.KnownEncoders() {
					known = known || e == fd.As
				}
			}
			if !known || fd.Unknown == "" {
				t.Fatalf("finding %+v: not an unknown name as a known one", fd)
			}
		}
	})
}
