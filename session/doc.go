// Package session is the debugger's data layer: what the terminal UI asks
// of a file, answered without drawing anything.
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
//     decoder or a bit edit, beside the original.
//
// Package ui imports it and neither engine/replay nor engine/entity: where
// the UI needs an engine type this package names it (Change, Node).
package session
