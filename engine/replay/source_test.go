package replay

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/internal/testreplays"
)

// bcCommand frames one broadcast command.
func bcCommand(b []byte, kind container.Kind, tick uint32, body []byte) []byte {
	b = binary.AppendUvarint(b, uint64(kind))
	b = binary.LittleEndian.AppendUint32(b, tick)
	b = append(b, 0)
	if kind == container.Stop {
		return b
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(body)))
	return append(b, body...)
}

// A .dem file converted to broadcast framing (packets unwrapped, no
// header) decodes as the file does, its game from svc_ServerInfo, and
// says where it ends.
func TestBroadcastFramingDecodesAsTheFile(t *testing.T) {
	for _, g := range testreplays.Games {
		_, data := testreplays.Read(t, g)
		want, err := Open(data)
		if err != nil {
			t.Fatal(err)
		}
		if err := want.Run(nil); err != nil {
			t.Fatal(err)
		}
		cr, _ := container.NewReader(data)
		var frag []byte
		for {
			c, err := cr.Next()
			if err != nil {
				break
			}
			body := c.Body
			switch c.Kind {
			case container.FileHeader, container.FileInfo:
				continue
			case container.Packet, container.SignonPacket:
				pd, err := messages.PacketData(body)
				if err != nil {
					t.Fatal(err)
				}
				body = pd
			}
			if c.Kind == container.Stop {
				frag = bcCommand(frag, container.Stop, uint32(c.Tick), nil)
				break
			}
			frag = bcCommand(frag, c.Kind, uint32(c.Tick), append([]byte(nil), body...))
		}
		capture := container.AssembleCapture([]container.Fragment{{Name: "0/start.bin", Data: frag}})
		r, err := Open(capture)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Run(nil); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		if r.Game != want.Game || r.Game == game.Unknown || r.Source.GameFrom != "svc_ServerInfo" {
			t.Errorf("%s: game %v from %q", g, r.Game, r.Source.GameFrom)
		}
		if r.Stats.Misaligned != 0 || r.Entities.Stats.Fields != want.Entities.Stats.Fields || r.Stats.LastTick != want.Stats.LastTick {
			t.Errorf("%s: misaligned %d, fields %d (want %d), last tick %d (want %d)", g, r.Stats.Misaligned,
				r.Entities.Stats.Fields, want.Entities.Stats.Fields, r.Stats.LastTick, want.Stats.LastTick)
		}
		if s := r.StopsAt(); !strings.HasPrefix(s, "the broadcast ends at 0/start.bin byte ") {
			t.Errorf("%s: %q", g, s)
		}
	}
}
