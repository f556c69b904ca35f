package session

import (
	"bytes"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/testdata"
)

// Every svc_PacketEntities of the sample: the bytes at the place
// EntityDataAt gives (in the file, or in the decompressed body) are the
// message's entity_data.
func TestEntityDataAtSample(t *testing.T) {
	ix := BuildIndex("sample.dem", testdata.Sample)
	n, stored := 0, 0
	for i := range ix.Commands {
		c := &ix.Commands[i]
		for _, msg := range c.Msgs() {
			if msg.PE == nil {
				continue
			}
			ed, ok, err := entityDataAt(testdata.Sample, c, msg.Index)
			if err != nil || !ok {
				t.Fatalf("command #%d message %d: found %v, %v", c.Index, msg.Index, ok, err)
			}
			body, err := bodyOf(testdata.Sample, c, msg.Index)
			if err != nil {
				t.Fatal(err)
			}
			off, size, _, _ := messages.EntityDataOffset(body)
			want := body[off : off+size]
			read := func(src []byte, bit uint) []byte {
				var r bitio.Reader
				r.Reset(src)
				r.Seek(bit)
				out := make([]byte, ed.Bytes)
				for k := range out {
					out[k] = byte(r.Bits(8))
				}
				return out
			}
			cmdBody, err := bodyOf(testdata.Sample, c, -1)
			if err != nil {
				t.Fatal(err)
			}
			if ed.Bytes != size || ed.BodyByte < 0 || !bytes.Equal(read(cmdBody, uint(8*ed.BodyByte)+ed.PacketBit), want) {
				t.Fatalf("command #%d message %d: %+v does not hold the entity data", c.Index, msg.Index, ed)
			}
			if !ed.Compressed {
				stored++
				if !bytes.Equal(read(testdata.Sample, ed.FileBit), want) {
					t.Fatalf("command #%d message %d: file bit %d does not hold the entity data", c.Index, msg.Index, ed.FileBit)
				}
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no packet-entities message in the sample")
	}
	t.Logf("%d messages, %d of them in stored commands", n, stored)
}
