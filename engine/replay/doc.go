// Package replay drives the engine over a whole demo file: it walks the demo
// commands, routes their bodies and inner messages to the schema, string
// table and entity packages, and keeps counts for check and stats.
//
// Files:
//
//	replay.go    Replay, Open, Step, Run, Hooks, Location, Error: the command loop and routing
//	source.go    Source, GameWhy, Segments, StopsAt: where the game was learned, capture ends
//	snapshot.go  DEM_StringTables snapshots: restore each table, retake baselines
//	format.go    feed the knownfmt Collector with unknown commands, types and fields
//	fork.go      Fork, Realias: independent copies to resume from under other aliases
//	keyframe.go  Keyframe, Keyframes: saved decoding states to resume or seek from
//	release.go   Release: a finished decode's storage kept for the next Open
package replay
