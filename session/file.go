package session

import (
	"context"
	"sync"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/infer"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// File is one open replay: its bytes, the aliases (--as) it is decoded
// under, and once its index pass has started, that pass's keyframes. The
// TUI asks it whatever decodes the file again: the index pass, the live
// decoder, what-ifs, the inference, the first suspect, the grading pass,
// search and filter, a string table's walk. Every re-decode of one message
// starts from the nearest keyframe before it, not from byte 0. A change of
// aliases is WithAliases: the same bytes, a new File.
type File struct {
	data    []byte
	aliases schema.Aliases
	cases   *Cases

	mu sync.Mutex
	ks *replay.Keyframes // the index pass's (nil until it starts)
}

// OpenFile opens data, decoded under aliases.
func OpenFile(data []byte, aliases schema.Aliases) *File {
	f := &File{data: data, aliases: aliases}
	f.cases = &Cases{aliases: aliases, capture: f.capture}
	return f
}

// Bytes are the file's bytes (not to be changed).
func (f *File) Bytes() []byte { return f.data }

// Aliases are the aliases the file is decoded under.
func (f *File) Aliases() schema.Aliases { return f.aliases }

// WithAliases is the same bytes decoded under a: a File of its own, whose
// index pass starts again.
func (f *File) WithAliases(a schema.Aliases) *File { return OpenFile(f.data, a) }

// Indexer starts the file's index pass; the keyframes it takes are where
// the file's re-decodes start from then on.
func (f *File) Indexer() *Indexer {
	in := newIndexer(f.data, f.aliases)
	f.mu.Lock()
	f.ks = in.Keyframes()
	f.mu.Unlock()
	return in
}

// Keyframes are the index pass's keyframes (nil before it started).
func (f *File) Keyframes() *replay.Keyframes {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ks
}

// LiveDecoder is a decoder of single messages of the file.
func (f *File) LiveDecoder() *LiveDecoder { return newLiveDecoder(f.data, f.aliases) }

// Grader is the grading pass over the file, resuming from (and filling in)
// the index pass's keyframes.
func (f *File) Grader() *Grader { return newGrader(f.data, f.aliases, f.Keyframes()) }

// Filter scans the file's commands for updates mt matches.
func (f *File) Filter(mt *Matcher, commands int) *Scan {
	return newFilter(f.data, f.aliases, mt, commands)
}

// Search scans the file from after's update for the next field or class
// mt matches, from the nearest keyframe.
func (f *File) Search(mt *Matcher, after Ref, commands int) *Scan {
	return newSearch(f.data, f.aliases, f.Keyframes(), mt, after, commands)
}

// WhatIf runs a what-if on the packet-entities message at (at.Cmd,
// at.Msg); the message's capture is kept for the next what-if on it.
func (f *File) WhatIf(at Ref, req Request) (*WhatIf, error) {
	return f.cases.Run(f.data, at, req)
}

// Infer infers what the names decoder choice does not know behave as where
// a message misaligns (check's inference) and which unknown types' values
// show them read wrongly. With ix, this file's finished index, it decodes
// no whole file: the values are the index pass's, and the alignment tests
// start from the keyframe before ix.FirstMisaligned (infer.From), for the
// same findings as check's whole-file run; without, it is that run. A nil
// Inference with a nil error: nothing was inferred.
//
// ctx stops it once done (the debugger's work superseded); nil: never.
func (f *File) Infer(ctx context.Context, ix *Index) (*Inference, error) {
	if ix != nil && ix.Done && ix.Values != nil {
		if ix.FirstMisaligned == nil {
			return InferenceOf(infer.From(ctx, f.aliases, nil, Location{}, ix.Values)), nil
		}
		if r := resumed(start{f.data, f.aliases, f.Keyframes(), ix.FirstMisaligned.Command}); r != nil {
			return InferenceOf(infer.From(ctx, f.aliases, r, *ix.FirstMisaligned, ix.Values)), nil
		}
	}
	ch, err := infer.Run(f.data, f.aliases, infer.Options{Infer: true})
	return InferenceOf(ch), err
}

// FirstSuspect is the first suspect of the misaligned packet-entities
// message at (at.Cmd, at.Msg), worked out as check does
// (locateFirstSuspect) and resolved in the message's decode for the TUI to
// select, given what the inference found (nil: nothing).
func (f *File) FirstSuspect(at Ref, inf *Inference) *Suspect {
	return locateFirstSuspect(f.capture, entitiesLoc(at), inf, true)
}

// capture decodes the file up to the message at and keeps it (a
// diagnose.Case), from the nearest keyframe before it when there is one.
func (f *File) capture(at Location) (*diagnose.Case, error) {
	r, err := resumeBefore(start{f.data, f.aliases, f.Keyframes(), at.Command})
	if err != nil {
		return nil, err
	}
	return diagnose.CaptureIn(r, at)
}
