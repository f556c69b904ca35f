// Package testreplays finds the shared real replays for tests and
// benchmarks. They live beside the repository (../shared/replays) and are
// never committed; DEMBUG_REPLAYS overrides the location.
//
// Files:
//
//	testreplays.go  Dir, Require, Files, EachFile, Read: the shared replays
//	long.go         Long: a full-length replay of about N MB (DEMBUG_LONG or built once)
package testreplays
