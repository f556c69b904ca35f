// Package cli holds dembug's subcommands. Each command is a thin layer that
// runs the engine and prints; main.go only wires this package up.
//
// Files:
//
//	root.go        Root (the cobra root), TUI hooks, samples, Budget, ExitError
//	check.go       `dembug check`: CheckResult, Check/CheckWith, SuspectReport
//	format.go      check's format report: unknown fields, commands, assumptions
//	values.go      check's value verdicts: unknown types read wrongly
//	anomalies.go   the anomaly tally check prints (AnomalyGroup, TallyAnomalies)
//	aliases.go     the --as flag, opening under aliases, unknown names
//	aliascheck.go  --as and --mute validation, nearest-name suggestions
//	compare.go     `dembug compare`: another parser's trace beside ours
//	entities.go    `dembug entities`: entity states at a tick
//	schema.go      `dembug schema`: serializer trees and their decoders
//	schemadiff.go  schema diff between two replays (text and JSON)
//	jsonout.go     the --json shapes of schema and stats
//	jsonvalue.go   value decoders and bit offsets for JSON output
//	stats.go       `dembug stats`: decoder families, fallback types
//	strings.go     `dembug strings`: string tables
//	trace.go       `dembug trace`: one JSON line per field read (TraceWith)
//	traceops.go    trace's field-path op stream
//	sample.go      `dembug sample`: write a built-in sample replay
package cli
