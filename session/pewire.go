package session

import (
	"fmt"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/layout"
	"github.com/dembug/dembug/engine/messages"
)

// EntityData is where a svc_PacketEntities message's entity data (field
// 7's bytes) stands: its bit in the packet (as dembug commands prints it),
// the byte of the command body the packet's bit 0 is at, and the file
// byte when the body is stored as it is (not compressed).
type EntityData struct {
	Bytes      int  // its length
	PacketBit  uint // bit offset in the packet data
	BodyByte   int  // byte of the (decompressed) command body the packet starts at
	Compressed bool // the command body is snappy-compressed: no file byte
	FileBit    uint // bit offset in the file (FileBit/8 the byte), when not compressed
}

// EntityDataAt locates the entity data of inner message msg of the
// command at c (layout's walk of one command); found is false when the
// message carries none.
func (f *File) EntityDataAt(c *Command, msg int) (ed EntityData, found bool, err error) {
	return entityDataAt(f.data, c, msg)
}

// entityDataAt is File.EntityDataAt over data.
func entityDataAt(data []byte, c *Command, msg int) (ed EntityData, found bool, err error) {
	r, err := container.NewReader(data)
	if err != nil {
		return ed, false, err
	}
	r.Seek(c.Offset, c.Index)
	cmd, err := r.Next()
	if err != nil {
		return ed, false, err
	}
	pd, err := layout.PacketData(cmd)
	if err != nil {
		return ed, false, err
	}
	inner, _, err := messages.SplitInner(pd, nil, nil)
	for _, m := range inner {
		if m.Index != msg {
			continue
		}
		off, size, ok, ferr := messages.EntityDataOffset(m.Body)
		if ferr != nil || !ok {
			return ed, false, ferr
		}
		ed = EntityData{Bytes: size, PacketBit: m.BodyBit + uint(8*off), Compressed: cmd.Compressed, BodyByte: -1}
		ed.BodyByte = packetByte(cmd)
		if !ed.Compressed && ed.BodyByte >= 0 {
			ed.FileBit = uint(8*(cmd.BodyOffset+ed.BodyByte)) + ed.PacketBit
		}
		return ed, true, nil
	}
	if err != nil {
		return ed, false, err
	}
	return ed, false, fmt.Errorf("command #%d has no inner message #%d", c.Index, msg)
}

// Where says where the entity data starts, in words.
func (ed EntityData) Where() string {
	s := "starts at packet bit " + bitio.Offset(ed.PacketBit)
	switch {
	case ed.BodyByte < 0:
	case ed.Compressed:
		s += fmt.Sprintf(" (the command body is snappy-compressed, so no file byte: body byte %d after decompressing)", ed.BodyByte+int(ed.PacketBit/8))
	default:
		s += fmt.Sprintf(", file byte %d (0x%x)", ed.FileBit/8, ed.FileBit/8)
		if b := ed.FileBit % 8; b != 0 {
			s += fmt.Sprintf(" bit %d", b)
		}
	}
	return s
}

// packetByte is the byte of a command's (decompressed) body its packet
// data starts at (layout.PacketData's place), or -1.
func packetByte(cmd container.Command) int {
	switch {
	case !cmd.Kind.HasPackets():
		return -1
	case cmd.Kind == container.FullPacket:
		p, n, ok, err := messages.DataOffset(cmd.Body, 2)
		if err != nil || !ok {
			return -1
		}
		d, _, ok, err := messages.DataOffset(cmd.Body[p:p+n], 3)
		if err != nil || !ok {
			return -1
		}
		return p + d
	case cmd.Broadcast:
		return 0
	}
	d, _, ok, err := messages.DataOffset(cmd.Body, 3)
	if err != nil || !ok {
		return -1
	}
	return d
}
