package layout

import (
	"encoding/binary"
	"errors"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/messages"
)

// Part is one field of the bytes that frame a command in the file, before
// its body.
type Part struct {
	Name   string // "command", "tick", "pad" (a capture's zero byte) or "size"
	Offset int    // byte offset in the file
	Len    int    // bytes
	Value  uint64 // as read (the command with its compression flag)
	Varint bool   // a varint; else little-endian (a capture's tick and size)
}

// compressedFlag is the command varint's bit for a snappy body.
const compressedFlag = 64

// Framing splits the bytes from a command's offset to its body: in a .dem
// file three varints (the command, its kind | 64 when the body is
// snappy-compressed; the tick, 0xffffffff during the signon; the body's
// size), in a broadcast capture the command varint, the tick and size as
// little-endian uint32s with a zero byte between (the end of a broadcast,
// command 0, has no size). It reads the bytes only: a part the data cuts
// short ends the list.
func Framing(data []byte, offset int, broadcast bool) []Part {
	var out []Part
	pos := offset
	varint := func(name string) bool {
		if pos < 0 || pos >= len(data) {
			return false
		}
		v, n := binary.Uvarint(data[pos:])
		if n <= 0 {
			return false
		}
		out = append(out, Part{Name: name, Offset: pos, Len: n, Value: v, Varint: true})
		pos += n
		return true
	}
	fixed := func(name string, n int) bool {
		if pos < 0 || pos+n > len(data) {
			return false
		}
		var v uint64
		for i := n - 1; i >= 0; i-- {
			v = v<<8 | uint64(data[pos+i])
		}
		out = append(out, Part{Name: name, Offset: pos, Len: n, Value: v})
		pos += n
		return true
	}
	if !varint("command") {
		return out
	}
	if !broadcast {
		if varint("tick") {
			varint("size")
		}
		return out
	}
	if cmd := out[0].Value; fixed("tick", 4) && fixed("pad", 1) && cmd != 0 {
		fixed("size", 4)
	}
	return out
}

// KindOf splits a command varint's value into its kind (the number in
// EDemoCommands) and the compression flag.
func KindOf(v uint64) (container.Kind, bool) {
	return container.Kind(v &^ compressedFlag), v&compressedFlag != 0
}

// Header is where an inner message's header stands in the packet data:
// its type as a ubitvar, then its body size as a varint.
type Header struct {
	Index    int
	Type     uint32
	Size     int  // body bytes
	Bit      uint // the type ubitvar
	TypeBits uint // 6, 10, 14 or 34: 4 low bits, 2 selector bits, 0/4/8/28 more
	SizeBit  uint // the size varint
	SizeBits uint // 8 a byte
	BodyBit  uint
}

// Headers splits a packet's data into its messages' headers, as the walk
// does (those split before a break, with the error).
func Headers(packet []byte) ([]Header, error) {
	inner, _, err := messages.SplitInner(packet, nil, nil)
	out := make([]Header, 0, len(inner))
	var r bitio.Reader
	r.Reset(packet)
	for _, m := range inner {
		r.Seek(m.Bit)
		r.UBitVar()
		h := Header{Index: m.Index, Type: m.Type, Size: m.Size, Bit: m.Bit, TypeBits: r.Pos() - m.Bit, SizeBit: r.Pos(), BodyBit: m.BodyBit}
		h.SizeBits = h.BodyBit - h.SizeBit
		out = append(out, h)
	}
	return out, err
}

// PacketStart is the byte offset, within a command's (decompressed) body,
// of the packet data its inner messages are split from (PacketData), and
// that data; -1 for a command that carries no packet.
func PacketStart(c container.Command) (int, []byte, error) {
	if !c.Kind.HasPackets() {
		return -1, nil, nil
	}
	pd, err := PacketData(c)
	if err != nil {
		return -1, nil, err
	}
	if len(pd) == 0 {
		return -1, pd, nil
	}
	// PacketData slices the body: the packet starts where its first byte
	// is in the body.
	for i := range len(c.Body) - len(pd) + 1 {
		if &c.Body[i] == &pd[0] {
			return i, pd, nil
		}
	}
	return -1, pd, errors.New("the packet data is not a slice of the body")
}
