package session

import (
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/layout"
)

// FramePart is one field of the bytes that frame a command before its body
// (engine/layout): its name ("command", "tick", "pad", "size"), where it
// stands in the file, its bytes and the value they read as.
type FramePart struct {
	layout.Part
	Bytes []byte
}

// Framing is the bytes from a command's offset to its body, split into
// their parts: in a .dem file the command varint (the kind | 64 when the
// body is snappy-compressed), the tick and the size varints; in a broadcast
// capture the tick and size are little-endian uint32s (Broadcast).
type Framing struct {
	Parts      []FramePart
	Broadcast  bool
	BodyOffset int // the byte after the last part
}

// CommandFraming reads the framing of command c from the file's bytes.
func (f *File) CommandFraming(c *Command) Framing { return commandFraming(f.data, c) }

// commandFraming is File.CommandFraming over data.
func commandFraming(data []byte, c *Command) Framing {
	f := Framing{Broadcast: container.IsCapture(data), BodyOffset: c.Offset}
	for _, p := range layout.Framing(data, c.Offset, f.Broadcast) {
		f.Parts = append(f.Parts, FramePart{Part: p, Bytes: data[p.Offset : p.Offset+p.Len]})
		f.BodyOffset = p.Offset + p.Len
	}
	return f
}

// CommandKind splits a command varint's value into its kind (its number
// in EDemoCommands) and the compression flag 64.
func CommandKind(v uint64) (container.Kind, bool) { return layout.KindOf(v) }

// InnerHeader is where an inner message's type ubitvar and size varint
// stand in the packet data (engine/layout).
type InnerHeader = layout.Header

// PacketLayout is where a command's packet data starts in its
// (decompressed) body, and every inner message's header in it.
type PacketLayout struct {
	Start   int // byte offset in the body, -1: the command carries no packet
	Headers []InnerHeader
}

// PacketLayoutOf reads command c again and finds its packet data and the
// headers of its inner messages (those before a break, with the error).
func (f *File) PacketLayoutOf(c *Command) (PacketLayout, error) { return packetLayoutOf(f.data, c) }

// packetLayoutOf is File.PacketLayoutOf over data.
func packetLayoutOf(data []byte, c *Command) (PacketLayout, error) {
	out := PacketLayout{Start: -1}
	if !c.Kind.HasPackets() {
		return out, nil
	}
	r, err := container.NewReader(data)
	if err != nil {
		return out, err
	}
	r.Seek(c.Offset, c.Index)
	cmd, err := r.Next()
	if err != nil {
		return out, err
	}
	start, pd, err := layout.PacketStart(cmd)
	if err != nil || start < 0 {
		return out, err
	}
	out.Start = start
	out.Headers, err = layout.Headers(pd)
	return out, err
}
