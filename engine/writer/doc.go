// Package writer builds Source 2 demo files: the inverse of the engine's
// readers. It frames demo commands (with optional snappy compression),
// builds the protobuf bodies the engine reads (demo commands, network
// messages, the flattened serializer), packs inner packets, and writes
// packet-entities data from create, update, leave and delete operations,
// encoding field paths with fieldpath.Write and values with each field's
// decoder (decoder.Encode).
//
// Demo strings a whole file together in the order Valve's recorders write
// it; Generate (sample.go) uses it for dembug's built-in sample replay.
// Everything is deterministic: the same calls give the same bytes.
//
// Files:
//
//	file.go         File, NewFile, Command: demo command framing, snappy, the header
//	bodies.go       *Body: the protobuf bodies of demo commands and network messages
//	schema.go       FieldSpec, SerializerSpec, FlattenedSerializer: build a schema message
//	entities.go     Changes, Entities, Frame: write packet-entities data (create, update, ...)
//	demo.go         Demo: a whole file in recorder order (Signon, Packet, Finish)
//	restructure.go  RewriteCommands, RewriteInner, Insert*: edit an existing file's framing
//	patch.go        RenameInSchema, SetBitCount: patch the schema of an existing file
//	sample.go       Generate: the built-in Dota-shaped sample replay
//	sample_cs2.go   GenerateCS2: the CS2-shaped sample replay
package writer
