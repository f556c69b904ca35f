package layout

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/messages"
)

func sample(t testing.TB) []byte {
	data, err := os.ReadFile("../../testdata/sample.dem")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// On the built-in sample: 101 commands back to back from byte 16 to the
// end, and every svc_PacketEntities' entity data, read from the packet at
// the bit the walk gives, is the entity_data ParsePacketEntities finds.
func TestWalkLocatesTheEntityData(t *testing.T) {
	data := sample(t)
	next, n, located := container.HeaderSize, 0, 0
	err := Walk(data, func(w *Walker, c Command) error {
		if c.Index != n || c.Offset != next {
			t.Fatalf("command %d at byte %d, want %d at %d", c.Index, c.Offset, n, next)
		}
		n++
		next = c.BodyOffset + c.Size
		if !c.Packet {
			return nil
		}
		r, _ := container.NewReader(data)
		r.Seek(c.Offset, c.Index)
		cc, err := r.Next()
		if err != nil {
			return err
		}
		pkt, err := PacketData(cc)
		if err != nil {
			return err
		}
		inner, _, err := messages.SplitInner(pkt, nil, nil)
		if err != nil {
			return err
		}
		for i, m := range c.Messages {
			if m.Type != inner[i].Type || m.Bit != inner[i].Bit || m.Size != inner[i].Size {
				t.Fatalf("command %d message %d: %+v, split %+v", c.Index, i, m, inner[i])
			}
			if m.Type != messages.SvcPacketEntities {
				continue
			}
			pe, err := messages.ParsePacketEntities(inner[i].Body)
			if err != nil {
				return err
			}
			var br bitio.Reader
			br.Reset(pkt)
			br.Seek(uint(m.EntityDataBit))
			got := br.AppendBits(nil, uint(m.EntityDataBytes)*8)
			if m.EntityDataBit < int(m.BodyBit) || !bytes.Equal(got, pe.EntityData) {
				t.Fatalf("command %d: entity data at packet bit %d is not the message's", c.Index, m.EntityDataBit)
			}
			located++
		}
		return nil
	})
	if err != nil || n != 101 || next != len(data) || located == 0 {
		t.Fatalf("%d commands to byte %d of %d, %d entity data located: %v", n, next, len(data), located, err)
	}
}

// Any bytes: the walk ends, with a located error or at the end.
func FuzzWalk(f *testing.F) {
	data := sample(f)
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		err := Walk(b, func(*Walker, Command) error { return nil })
		var ce *container.Error
		if err != nil && !errors.As(err, &ce) {
			t.Fatalf("error not located: %v", err)
		}
	})
}
