// Package messages decodes the protobuf messages the engine needs (demo
// command bodies and the network messages that carry schema, string tables
// and entities) straight from the wire format, without generated code.
// Field numbers are facts of Valve's protocol; the structs are our own.
//
// Files:
//
//	demo.go   demo command bodies: FileHeader, FileInfo, ClassInfo, FullPacket, snapshots
//	svc.go    network messages: ServerInfo, net_Tick, string tables, PacketEntities
//	inner.go  SplitInner, Inner, InnerError: split a packet's bit stream into messages
//	offsets.go DataOffset, EntityDataOffset: where a field's bytes start in a body
package messages
