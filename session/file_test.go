package session

import (
	"testing"
	"time"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// indexFile runs f's index pass to the end.
func indexFile(f *File) *Index {
	ix := &Index{Path: "x.dem", Size: len(f.Bytes())}
	in := f.Indexer()
	for !ix.Done {
		ix.Append(in.Step(time.Hour))
	}
	return ix
}

// A re-decode of one message from the nearest keyframe is the decode from
// byte 0: the same reads at the same bits with the same decoders, and the
// same what-if answer.
func TestFileCapturesFromKeyframes(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	f := OpenFile(data, schema.Aliases{})
	ix := indexFile(f)
	if ix.Keyframes == nil || ix.Keyframes.Len() < 1 {
		t.Fatalf("keyframes: %v", ix.Keyframes)
	}
	var ats []Ref
	for ci := len(ix.Commands) - 1; ci >= 0 && len(ats) < 3; ci -= len(ix.Commands) / 3 {
		for j, msg := range ix.Commands[ci].Msgs() {
			if msg.PE != nil && len(msg.PE.Updates) > 0 {
				ats = append(ats, Ref{Cmd: ci, Msg: j, Upd: -1, Field: -1})
				break
			}
		}
	}
	if len(ats) == 0 {
		t.Fatal("no packet-entities message")
	}
	resumed := 0
	for _, at := range ats {
		loc, _ := ix.Location(at)
		if k := f.Keyframes().Before(loc.Command); k != nil && k.Command > 0 {
			resumed++
		}
		got, err := f.capture(loc)
		if err != nil {
			t.Fatal(err)
		}
		want, err := diagnose.CaptureAt(data, loc)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Record.Fields) != len(want.Record.Fields) || len(got.Record.Fields) == 0 {
			t.Fatalf("command %d: %d reads from the keyframe, %d from the start", loc.Command, len(got.Record.Fields), len(want.Record.Fields))
		}
		for i := range want.Record.Fields {
			g, w := &got.Record.Fields[i], &want.Record.Fields[i]
			if g.Name != w.Name || g.Start != w.Start || g.Bits != w.Bits || g.Decoder.Describe() != w.Decoder.Describe() || g.Value.String() != w.Value.String() {
				t.Fatalf("command %d read %d: %s at %d (%s) from the keyframe, %s at %d (%s) from the start", loc.Command, i, g.Name, g.Start, g.Value, w.Name, w.Start, w.Value)
			}
		}
		req := Request{Change: Change{Occurrence: 0, Decoder: &decoder.Decoder{Family: decoder.FamBool}}}
		wi, err := f.WhatIf(at, req)
		if err != nil {
			t.Fatal(err)
		}
		old, err := NewCases(schema.Aliases{}).Run(data, at, req)
		if err != nil {
			t.Fatal(err)
		}
		if wi.Aligns() != old.Aligns() || len(wi.Rec.Fields) != len(old.Rec.Fields) || wi.Res.EndBit != old.Res.EndBit {
			t.Fatalf("command %d: what-if from the keyframe %+v, from the start %+v", loc.Command, wi.Res, old.Res)
		}
	}
	if resumed == 0 {
		t.Fatal("no capture resumed from a keyframe")
	}
}
