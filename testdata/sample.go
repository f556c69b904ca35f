// Package testdata holds the project's own small files. Its one Go file
// embeds the built-in sample replay so that package sample can serve it
// while the bytes live with the other fixtures.
package testdata

import _ "embed"

// Sample is testdata/sample.dem, written by `go generate ./sample`.
//
//go:embed sample.dem
var Sample []byte

// SampleCS2 is testdata/sample-cs2.dem, the CS2-shaped sample.
//
//go:embed sample-cs2.dem
var SampleCS2 []byte
