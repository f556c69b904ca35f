// Package interop checks dembug's built-in samples against other parsers,
// as published: Manta reads the Dota sample (package manta) and
// demoinfocs-golang the CS2 sample (package demoinfocs), and each must end
// where dembug ends, with the same entity updates, the same live entities
// and the same values. This package holds what both compare against:
// what dembug read (ReadDembug) and how values compare (Same).
//
// It is a module of its own so that the product takes no dependency on
// them; they are test oracles only, and nothing of theirs is copied into
// dembug. Run it with `cd interop && go test ./...` (.ci/run does).
package interop
