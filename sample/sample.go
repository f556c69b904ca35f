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

// Replay is the sample demo file, testdata/sample.dem.
var Replay = testdata.Sample
