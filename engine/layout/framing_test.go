package layout

import (
	"bytes"
	"testing"

	"github.com/dembug/dembug/engine/container"
)

// On the built-in sample, every command's framing parts run back to back
// from its offset to its body and read what the walk read; each packet's
// headers are the walk's messages, their type and size bits adding up to
// the body's start, and the packet data starts at PacketStart in the body.
func TestFramingAgreesWithTheWalk(t *testing.T) {
	data := sample(t)
	packets := 0
	err := Walk(data, func(w *Walker, c Command) error {
		parts := Framing(data, c.Offset, false)
		if len(parts) != 3 || parts[0].Name != "command" || parts[1].Name != "tick" || parts[2].Name != "size" {
			t.Fatalf("command #%d: parts %+v", c.Index, parts)
		}
		at := c.Offset
		for _, p := range parts {
			if p.Offset != at || !p.Varint {
				t.Fatalf("command #%d: part %+v, want it at byte %d", c.Index, p, at)
			}
			at += p.Len
		}
		kind, comp := KindOf(parts[0].Value)
		if at != c.BodyOffset || kind != c.Kind || comp != c.Compressed || int32(uint32(parts[1].Value)) != c.Tick || int(parts[2].Value) != c.Size {
			t.Fatalf("command #%d: parts %+v, walk %+v", c.Index, parts, c)
		}
		if !c.Packet {
			return nil
		}
		packets++
		r, _ := container.NewReader(data)
		r.Seek(c.Offset, c.Index)
		cc, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		start, pd, err := PacketStart(cc)
		if err != nil || start < 0 || !bytes.Equal(cc.Body[start:start+len(pd)], pd) {
			t.Fatalf("command #%d: packet at %d (%v)", c.Index, start, err)
		}
		hs, err := Headers(pd)
		if err != nil || len(hs) != len(c.Messages) {
			t.Fatalf("command #%d: %d headers (%v), walk %d messages", c.Index, len(hs), err, len(c.Messages))
		}
		for i, h := range hs {
			m := c.Messages[i]
			if h.Type != m.Type || h.Size != m.Size || h.Bit != m.Bit || h.BodyBit != m.BodyBit || h.Bit+h.TypeBits != h.SizeBit || h.SizeBit+h.SizeBits != h.BodyBit {
				t.Fatalf("command #%d message %d: header %+v, walk %+v", c.Index, i, h, m)
			}
			if h.TypeBits != 6 && h.TypeBits != 10 && h.TypeBits != 14 && h.TypeBits != 34 || h.SizeBits%8 != 0 {
				t.Fatalf("command #%d message %d: header %+v", c.Index, i, h)
			}
		}
		return nil
	})
	if err != nil || packets == 0 {
		t.Fatalf("walk: %v, %d packets", err, packets)
	}
}

// A capture frames a command as its varint, the tick in 4 bytes, a zero
// byte and the size in 4 bytes; the end of a broadcast has no size.
func TestFramingOfACapture(t *testing.T) {
	data := []byte{0x47, 0x0a, 0, 0, 0, 0, 0x10, 0, 0, 0, 0x00, 0x05, 0, 0, 0, 0}
	got := Framing(data, 0, true)
	want := []Part{{"command", 0, 1, 0x47, true}, {"tick", 1, 4, 10, false}, {"pad", 5, 1, 0, false}, {"size", 6, 4, 16, false}}
	if len(got) != len(want) {
		t.Fatalf("parts %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("part %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if end := Framing(data, 10, true); len(end) != 3 || end[2].Name != "pad" {
		t.Fatalf("the end of the broadcast: %+v", end)
	}
	if k, comp := KindOf(0x47); k != container.Packet || !comp {
		t.Fatalf("0x47 is %v compressed %v", k, comp)
	}
}
