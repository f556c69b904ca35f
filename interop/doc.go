// Package interop checks dembug's built-in samples against other parsers,
// as published: Manta reads the Dota sample and demoinfocs-golang the CS2
// sample, and each must end where dembug ends, with the same entity
// updates, the same live entities and the same values.
//
// It is a module of its own so that the product takes no dependency on
// them; they are test oracles only, and nothing of theirs is copied into
// dembug. Run it with `cd interop && go test ./...` (.ci/run does).
package interop
