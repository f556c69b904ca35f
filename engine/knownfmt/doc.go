// Package knownfmt knows the demo format outside the field decoders: the
// field numbers of every protobuf message dembug reads (tables.go), the
// demo commands and the inner message types (engine/msgnames). A Collector
// notes, on the decode pass, every field number, command or message type
// none of them names, with its count and first place: what a game update
// brings that dembug would otherwise meet in silence.
//
// Files:
//
//	collect.go  Collector, Item, Place: note unknown commands, message types, field numbers
//	tables.go   Msg, Known, FieldName, ByName: the field numbers of every message dembug reads
package knownfmt
