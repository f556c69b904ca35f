// Package wiretree gives a generic, schema-less view of protobuf wire data.
//
// It is used by the debugger to show messages it does not model: Parse turns
// a buffer into a tree of Nodes (guessing which length-delimited fields hold
// nested messages), ValueString and Format render them for humans, and
// Fields plus the small conversion helpers let other engine packages decode
// messages without generated code and without allocating.
//
// Only google.golang.org/protobuf/encoding/protowire is used. Groups (wire
// types 3 and 4) are deprecated and never produced by Source 2 protos; they
// are treated as malformed input.
//
// Files:
//
//	wiretree.go  Node, Parse, Format, Fields, Lookup, packed and scalar helpers
//	cursor.go    Cursor: allocation-free field loop for the hot-path parsers
package wiretree
