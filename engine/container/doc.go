// Package container reads the outer layer of a Source 2 demo file: the
// PBDEMS2 header and the sequence of demo commands (command, tick, size,
// body), decompressing snappy bodies.
//
// Files:
//
//	reader.go    Reader, Header, Command: PBDEMS2 header, command framing, snappy
//	commands.go  Kind: the demo command numbers (EDemoCommands) and names
//	capture.go   broadcast captures: AssembleCapture, Segment, Reader.Place
package container
