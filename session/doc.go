// Package session is the debugger's data layer: what the terminal UI and
// the command line ask of a file, answered without drawing anything.
//
// One File per open replay (file.go) owns the bytes, the aliases (--as)
// and, once the index pass has started, its keyframes; the TUI asks it
// everything that decodes the file again, and every re-decode of one
// message (what-if, first suspect, search) starts from the nearest
// keyframe before it. A change of aliases is File.WithAliases.
//
//   - the index pass (Indexer, Index): every command, inner message and
//     entity update of the file, with the diagnosis of each field, built in
//     chunks so the screen can refresh between them;
//   - the live decoder (LiveDecoder, Detail): one packet-entities message
//     decoded again with full provenance and the states of the entities it
//     touched;
//   - the matcher (Matcher) that search and filter test field names and
//     classes with;
//   - what-ifs (Cases, WhatIf): a message decoded again with another
//     decoder or a bit edit, beside the original;
//   - the first suspect (File.FirstSuspect, Checked.FirstSuspect): where
//     the first misaligned message goes wrong, worked out in one place
//     (locateFirstSuspect), the one answer `dembug check` and the TUI give;
//   - check's decode (File.Check, Checked) and the command line's other
//     decodes: a Pass and its Visitor (trace, entities, strings, stats,
//     events), File.TallyAnomalies, Checked.HeaderCheck.
//
// Every decode of the file the package makes is a Pass (run.go): the one
// place it opens the replay or resumes it from a keyframe, wires the
// replay's hooks and turns the engine's place of a message (its inner
// index) into a Ref. The engine's own whole-file runs (infer.Run for
// check and the inference without an index, cut.Cut) open theirs.
//
// Files: file.go (File), run.go (Pass, Visitor: the pass runner),
// passread.go (what a pass has decoded, as the command line asks it),
// check.go (check's decode, the anomaly tally), suspect.go (the first suspect, the inference's
// answer), index.go (the Index and its types), indexer.go (the index
// pass), ref.go (Ref, the one coordinate of a place in the file, from
// the index to the screen), detail.go (the live decoder),
// grade.go (the grading pass), pass.go (runStep, the one loop of the
// background passes), scan.go (search and filter), match.go and
// schemamatch.go (the matcher), whatif.go (what-ifs), promote.go (values
// a what-if promoted to --as changes), values.go (value evidence of
// unknown types), strings.go and strwalk.go (string tables and their bit
// walk), wire.go and capture.go (protobuf bodies, broadcast captures,
// places), novel.go (what dembug does not know of the format), cut.go (a
// tick window of the file written as a replay of its own, and the dembug
// cut line that repeats it).
//
// Packages ui and cli import it and neither engine/replay, engine/entity
// nor engine/infer (nor, for cli, engine/diagnose): where they need an
// engine type this package names it (Change, Node, Location, InferredName,
// Table, DecodeStats, Tally …).
package session
