// Package layout walks a replay's framing without decoding it: every demo
// command where it stands in the file (its varints, kind, tick, size and
// body), and for the commands that carry a packet every inner message where
// it stands in the packet's bit stream, with the entity data of
// svc_PacketEntities. It is what `dembug commands` prints: the layer a
// reader of the format meets before any field.
package layout

import (
	"fmt"
	"io"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/msgnames"
)

// Message is one inner message of a packet. Bit offsets count from the
// first bit of the packet data (CDemoPacket's data field, in a full packet
// the packet's; a broadcast's packet body itself).
type Message struct {
	Type    uint32 // the ubitvar message id
	Name    string // its name in the file's game, or unknown(N)
	Size    int    // body bytes
	Bit     uint   // bit offset of the message's type ubitvar
	BodyBit uint   // bit offset of its body, after the size varint
	// EntityDataBit is, for svc_PacketEntities, the bit offset of the
	// entity data (field 7's bytes) in the packet, and EntityDataBytes its
	// length; -1 and 0 for every other message or when it has none.
	EntityDataBit   int
	EntityDataBytes int
}

// Command is one demo command as framed in the file.
type Command struct {
	Index      int
	Offset     int            // byte offset of the command varint
	Kind       container.Kind // without the compression flag
	Compressed bool           // flag 64 of the command varint: a snappy body
	Tick       int32          // -1 during the signon
	Size       int            // body bytes in the file
	BodyOffset int            // byte offset of the body
	Broadcast  bool           // framed as a broadcast capture frames it
	// Packet says the command carries a packet (DEM_Packet,
	// DEM_SignonPacket, DEM_FullPacket), whose messages are Messages.
	Packet   bool
	Messages []Message
}

// Number is the command varint's value less the compression flag: the
// command's number in EDemoCommands.
func (c *Command) Number() int32 { return int32(c.Kind) }

// Walker walks a file's commands one at a time.
type Walker struct {
	r       *container.Reader
	game    game.Game
	inner   []messages.Inner
	scratch []byte
}

// New starts a walk of data (a .dem file or an assembled broadcast
// capture).
func New(data []byte) (*Walker, error) {
	r, err := container.NewReader(data)
	if err != nil {
		return nil, err
	}
	return &Walker{r: r}, nil
}

// Segments are a capture's fragment files (nil for a .dem file), for
// container.FormatPlace.
func (w *Walker) Segments() []container.Segment { return w.r.Segments() }

// Next returns the next command, io.EOF after the last. A command whose
// packet breaks is returned with the messages split before the break and
// the error, located at the command.
func (w *Walker) Next() (Command, error) {
	c, err := w.r.Next()
	if err != nil {
		return Command{}, err
	}
	out := Command{
		Index: c.Index, Offset: c.Offset, Kind: c.Kind, Compressed: c.Compressed,
		Tick: c.Tick, Size: c.Size, BodyOffset: c.BodyOffset, Broadcast: c.Broadcast,
		Packet: c.Kind.HasPackets(),
	}
	fail := func(err error) (Command, error) {
		return out, &container.Error{Offset: c.Offset, Command: c.Index, Tick: c.Tick, Err: err}
	}
	if c.Kind == container.FileHeader && w.game == game.Unknown {
		if h, err := messages.ParseFileHeader(c.Body); err == nil {
			w.game = game.Detect(h.GameDirectory)
		}
	}
	if !out.Packet {
		return out, nil
	}
	data, err := PacketData(c)
	if err != nil {
		return fail(err)
	}
	w.inner, w.scratch, err = messages.SplitInner(data, w.inner[:0], w.scratch)
	out.Messages = make([]Message, 0, len(w.inner))
	for _, m := range w.inner {
		if m.Type == messages.SvcServerInfo && w.game == game.Unknown {
			if si, err := messages.ParseServerInfo(m.Body); err == nil {
				w.game = game.Detect(si.GameDir)
			}
		}
		lm := Message{Type: m.Type, Name: msgnames.Display(w.game, m.Type), Size: m.Size, Bit: m.Bit, BodyBit: m.BodyBit, EntityDataBit: -1}
		if m.Type == messages.SvcPacketEntities {
			off, size, found, ferr := messages.EntityDataOffset(m.Body)
			if ferr != nil {
				out.Messages = append(out.Messages, lm)
				return fail(fmt.Errorf("inner message #%d (svc_PacketEntities): %w", m.Index, ferr))
			}
			if found {
				lm.EntityDataBit, lm.EntityDataBytes = int(m.BodyBit)+8*off, size
			}
		}
		out.Messages = append(out.Messages, lm)
	}
	if err != nil {
		return fail(err)
	}
	return out, nil
}

// PacketData is the packet a command carries, the bit stream its inner
// messages are split from: CDemoPacket's data (field 3), in a full packet
// the data of its packet (field 2), in a broadcast capture the body itself.
// A command without a packet has none.
func PacketData(c container.Command) ([]byte, error) {
	body := c.Body
	switch {
	case !c.Kind.HasPackets():
		return nil, nil
	case c.Kind == container.FullPacket:
		fp, err := messages.ParseFullPacket(body)
		if err != nil {
			return nil, err
		}
		body = fp.Packet
	case c.Broadcast:
		return body, nil
	}
	return messages.PacketData(body)
}

// Walk calls fn with every command in file order and returns the first
// error: fn's, or where the file or a packet breaks (the command that
// broke is given to fn first, with what was read of it).
func Walk(data []byte, fn func(*Walker, Command) error) error {
	w, err := New(data)
	if err != nil {
		return err
	}
	for {
		c, err := w.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if c.Kind != 0 || c.Offset != 0 || c.Size != 0 {
				if ferr := fn(w, c); ferr != nil {
					return ferr
				}
			}
			return err
		}
		if err := fn(w, c); err != nil {
			return err
		}
	}
}
