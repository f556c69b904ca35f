// Package bitio reads and writes the little-endian, least-significant-bit-first
// bit streams that Source 2 uses for entity data, string tables and inner
// packets.
//
// The Reader never panics and never returns an error from a single read: a read
// past the end yields zero bits and marks the reader as overflowed, remembering
// where that first happened. Decoders check Err once at the end of a unit of
// work, which keeps the per-field hot path free of error plumbing.
//
// Files:
//
//	reader.go   Reader: bit/varint/string reads, Window fast path, overflow tracking
//	writer.go   Writer: the inverse of Reader, for the encoders and tests
//	offset.go   Offset, Size, Spell, Span: how bit positions and runs are shown
//	load_le.go  load64 as one unaligned load (little-endian architectures)
//	load_be.go  load64 via encoding/binary (all other architectures)
package bitio
