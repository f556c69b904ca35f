package messages

import (
	"fmt"

	"github.com/dembug/dembug/engine/bitio"
)

// MaxInnerSize bounds one inner message; Valve's largest are a few MiB.
const MaxInnerSize = 64 << 20

// MaxInnerMessages bounds the messages of one packet; real packets carry
// a few dozen (at most 25 in the shared replays).
const MaxInnerMessages = 1 << 16

// Inner is one message inside a packet's bit stream.
type Inner struct {
	Index   int    // position within the packet
	Type    uint32 // message id
	Bit     uint   // bit offset of the message header within the packet data
	BodyBit uint   // bit offset of the body
	Size    int    // body bytes
	Body    []byte // body, byte-aligned (a copy when the stream is not aligned)
}

// InnerError locates a broken packet stream.
type InnerError struct {
	Index int  // message number within the packet
	Bit   uint // bit offset of its header
	Err   error
}

func (e *InnerError) Error() string {
	return fmt.Sprintf("inner message #%d at packet bit %s: %v", e.Index, bitio.Offset(e.Bit), e.Err)
}

func (e *InnerError) Unwrap() error { return e.Err }

// SplitInner splits a packet's data into messages: each is (ubitvar type,
// varint size, body). Unaligned bodies are copied into scratch, which is
// returned for reuse: bodies are valid until scratch is reused. On error the
// messages split so far are returned.
func SplitInner(data []byte, out []Inner, scratch []byte) ([]Inner, []byte, error) {
	if cap(scratch) < len(data) {
		scratch = make([]byte, 0, len(data))
	}
	scratch = scratch[:0]
	var r bitio.Reader
	r.Reset(data)
	for i := 0; r.Remaining() >= 8; i++ {
		if i == MaxInnerMessages {
			return out, scratch, &InnerError{i, r.Pos(), fmt.Errorf("more than %d messages in one packet", MaxInnerMessages)}
		}
		m := Inner{Index: i, Bit: r.Pos()}
		m.Type = r.UBitVar()
		size := r.VarUint32()
		if r.Overflowed() {
			return out, scratch, &InnerError{i, m.Bit, fmt.Errorf("header: %w", r.Err())}
		}
		if size > MaxInnerSize || uint(size)*8 > r.Remaining() {
			return out, scratch, &InnerError{i, m.Bit, fmt.Errorf("type %d claims %d bytes, %s remain", m.Type, size, bitio.Size(r.Remaining()))}
		}
		m.Size = int(size)
		m.BodyBit = r.Pos()
		if m.BodyBit&7 == 0 {
			m.Body = data[m.BodyBit>>3 : m.BodyBit>>3+uint(size)]
			r.Skip(uint(size) * 8)
		} else {
			n := len(scratch)
			scratch = r.AppendBits(scratch, uint(size)*8)
			m.Body = scratch[n:len(scratch):len(scratch)]
		}
		out = append(out, m)
	}
	return out, scratch, nil
}
