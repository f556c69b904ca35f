// Package sample embeds dembug's built-in sample replay: a short,
// Dota-shaped demo written by engine/writer (writer.Generate) that uses
// every decoder family Dota 2's decoder choice can give, a nested
// serializer behind a pointer and a vector of them, a growing and
// shrinking variable array, and an entity that is created, updated, leaves
// and is deleted. Other parsers read it as a real replay (see interop/).
// docs/sample-tour.md walks through it tick by tick.
//
// Regenerate it with `go generate ./sample`; the test checks that the
// embedded file is what the generator writes today.
package sample

import "github.com/dembug/dembug/testdata"

//go:generate go run ../internal/gensample -o ../testdata/sample.dem
//go:generate go run ../internal/gensample -game cs2 -o ../testdata/sample-cs2.dem

// Replay is the sample demo file, testdata/sample.dem.
var Replay = testdata.Sample

// CS2 is the CS2-shaped sample, testdata/sample-cs2.dem: the decoder
// families only CS2 uses (precise angles, unsigned varint − 1, binary
// blocks) and a polymorphic pointer. `dembug sample --game cs2` writes it.
var CS2 = testdata.SampleCS2
