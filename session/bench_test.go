package session

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/mapfile"
	"github.com/dembug/dembug/internal/testreplays"
)

// benchReplay is a full-length replay (DEMBUG_LONG, or one make.sh
// builds), mapped as the debugger and check read it: the file is not heap.
// Run with GOGC=200 GOMEMLIMIT=420MiB to measure the index pass as the
// debugger runs it (ui.tuneGC).
func benchReplay(b *testing.B) []byte {
	f, err := mapfile.Open(testreplays.Long(b, 100))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f.Data
}

// BenchmarkIndex is the index pass over a whole full-length replay,
// keyframes included; BenchmarkDecode is a plain
// decode of the same file, as check runs it, to compare with. The index's
// memory (what stays live after the pass) is reported as index-MiB.
func BenchmarkIndex(b *testing.B) {
	data := benchReplay(b)
	b.SetBytes(int64(len(data)))
	var live uint64
	for b.Loop() {
		ix := BuildIndex("bench.dem", data)
		if !ix.Done || ix.Err != nil {
			b.Fatalf("index: %+v", ix.Err)
		}
		b.StopTimer()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		live = ms.HeapAlloc
		b.ReportMetric(float64(ix.Keyframes.Len()), "keyframes")
		runtime.KeepAlive(ix)
		b.StartTimer()
	}
	b.ReportMetric(float64(live)/(1<<20), "index-MiB")
}

func BenchmarkDecode(b *testing.B) {
	data := benchReplay(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r, err := replay.Open(data)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Run(nil); err != nil {
			b.Fatal(err)
		}
	}
}

// lastUpdate is the last packet-entities message of ix with an update.
func lastUpdate(ix *Index) (Ref, Location) {
	for ci := len(ix.Commands) - 1; ci >= 0; ci-- {
		for j := len(ix.Commands[ci].Msgs()) - 1; j >= 0; j-- {
			if pe := ix.Commands[ci].Msgs()[j].PE; pe != nil && len(pe.Updates) > 0 {
				at := Ref{Cmd: ci, Msg: j, Upd: -1, Field: -1}
				loc, _ := ix.Location(at)
				return at, loc
			}
		}
	}
	return None, Location{}
}

// BenchmarkWhatIfLastUpdate is a what-if (another decoder for the first
// read) on the file's last update, its message captured afresh each time:
// the capture resumes from the keyframe before it (File.capture). Decoding
// from byte 0, as before session.File, it took about 1.1 s.
func BenchmarkWhatIfLastUpdate(b *testing.B) {
	data := benchReplay(b)
	f := OpenFile(data, schema.Aliases{})
	ix := indexFile(f)
	at, _ := lastUpdate(ix)
	req := Request{Change: Change{Occurrence: 0, Decoder: &decoder.Decoder{Family: decoder.FamBool}}}
	for b.Loop() {
		f.cases = &Cases{aliases: f.aliases, capture: f.capture} // no capture kept
		if _, err := f.WhatIf(at, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInferPatched is the TUI's inference (File.Infer) on the
// full-length replay with QAngle renamed, as a game patch would leave it,
// once the index pass has ended: from the keyframe before the first
// misaligned message, with the index pass's values. BenchmarkInferPatchedWhole
// is the same inference without the index (check's whole-file run).
func BenchmarkInferPatched(b *testing.B) { benchInferPatched(b, true) }

func BenchmarkInferPatchedWhole(b *testing.B) { benchInferPatched(b, false) }

func benchInferPatched(b *testing.B, indexed bool) {
	patched, _, err := writer.RenameInSchema(benchReplay(b), writer.Rename{From: "QAngle", To: "PatchedQAngle"})
	if err != nil {
		b.Fatal(err)
	}
	f := OpenFile(patched, schema.Aliases{})
	var ix *Index
	if indexed {
		in := f.Indexer()
		ix = &Index{Size: len(patched)}
		for !ix.Done {
			ix.Append(in.Step(time.Hour))
		}
	}
	for b.Loop() {
		if inf, _ := f.Infer(context.Background(), ix); inf == nil {
			b.Fatal("nothing inferred")
		}
	}
}
