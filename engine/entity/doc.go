// Package entity keeps the live entities of a replay and applies
// packet-entities messages to them: create, update, leave and delete, with
// field state stored as a tree that mirrors the serializer tree.
//
// Files:
//
//	state.go     Node: the field-state tree; resolving a path to its slot
//	table.go     Table, Entity, Class, Apply: applying packet-entities messages
//	read.go      reading, readFields: an update's paths and values, the read modes in one context
//	baseline.go  decoding class instance baselines; BaselineMisaligned
//	header.go    ReadHeader, ReadDeletions: header bits re-read, with places
//	memo.go      update memos: repeated path sections skip path decoding
//	alloc.go     small nodes allocated with their values; a full frame's entities in blocks; spares
//	overlay.go   a full frame's create: its writes over the class baseline's node, not a copy
//	recycle.go   deleted entities, their nodes and memo sets kept for the next creates
//	reuse.go     Release: a finished decode's table kept for the next NewTable
//	budget.go    the memory budget Apply checks as the state grows
//	snapshot.go  Snapshot, Copy, Freeze, Reshare, Rebind: copy-on-write tables
//	compare.go   Node.Diff: the first difference between two states
//	walk.go      Walk, Visit: every set value of an entity, with its name
//	log.go       UpdateRecord: the compact per-update log (Table.Logging)
//	evidence.go  GatherEvidence: value tallies for package evidence
//	whatif.go    WhatIf, ApplyWhatIf: decode a message under a hypothesis
package entity
