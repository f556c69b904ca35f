// Package interop checks dembug's built-in samples against other parsers,
// as published: Manta reads the Dota sample (package manta) and
// demoinfocs-golang the CS2 sample (package demoinfocs), and each must end
// where dembug ends, with the same entity updates, the same live entities
// and the same values. Both also read cuts (engine/cut) of the shared
// replays, and of the 100 MB one, to their end, with dembug's live entity
// count inside each window and at its end, and with the values they read
// from the original at the same ticks. This package holds what both
// compare against: what dembug read (ReadDembug), how values compare
// (Same), and the cuts with dembug's counts (CutWindows, CompareSnapshots).
//
// It is a module of its own so that the product takes no dependency on
// them; they are test oracles only, and nothing of theirs is copied into
// dembug. Run it with `cd interop && go test ./...` (.ci/run does).
package interop
