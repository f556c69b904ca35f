package replay_test

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/writer"
)

// TestSimulationTimeUsesTheServersTickInterval: a Deadlock build of 2024
// ran at 60 ticks a second (svc_ServerInfo says so); its simulation times
// are ticks of 1/60 s, not of the 1/64 s later builds and CS2 run at. A
// file whose server gives no interval falls back to the game's.
func TestSimulationTimeUsesTheServersTickInterval(t *testing.T) {
	for _, c := range []struct {
		interval, want float32
		ofFile         bool
	}{{1.0 / 60, 1.0 / 60, true}, {0, 1.0 / 64, false}} {
		cls := writer.SerializerSpec{Name: "CUnit", Fields: []writer.FieldSpec{writer.Field("m_flSimulationTime", "float32").WithEncoder("simtime")}}
		h := messages.FileHeader{DemoFileStamp: container.Magic, NetworkProtocol: 47, GameDirectory: "/game/citadel", BuildNum: 1}
		server := messages.ServerInfo{MaxClasses: 1, MaxClients: 16, TickInterval: c.interval}
		d, err := writer.NewDemo(h, server, []writer.SerializerSpec{cls}, []messages.Class{{ID: 0, NetworkName: "CUnit", TableName: "CUnit"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Signon(); err != nil {
			t.Fatal(err)
		}
		fr := d.Frame()
		const ticks = 6000
		if err := fr.Create(0, 0, 1, writer.Changes{farPath(0): decoder.Float(float64(float32(ticks) * c.want))}); err != nil {
			t.Fatal(err)
		}
		if err := d.Packet(1, fr); err != nil {
			t.Fatal(err)
		}
		r, err := replay.Open(d.Finish())
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Run(nil); err != nil || r.Stats.Misaligned != 0 {
			t.Fatalf("decode: %v, %d misaligned", err, r.Stats.Misaligned)
		}
		f := r.Schema.Serializer("CUnit").Fields[0]
		if f.Decoder.TickInterval != c.want || f.Decoder.TickOfFile != c.ofFile {
			t.Fatalf("server interval %g: decoder reads ticks of %g (of the file: %v), want %g", c.interval, f.Decoder.TickInterval, f.Decoder.TickOfFile, c.want)
		}
		if got, want := r.Entities.Entities[0].State.Get(0).F[0], float64(float32(ticks)*c.want); got != want {
			t.Fatalf("server interval %g: simulation time %g, want %g (6000 ticks)", c.interval, got, want)
		}
		// The inspector's arithmetic says where the interval came from.
		var b [8]byte
		n := copy(b[:], []byte{0xf0, 0x2e}) // 6000 as a varint
		_, steps := f.Decoder.Explain(bitio.NewReader(b[:n]))
		text := ""
		for _, s := range steps {
			text += s.Text + "\n"
		}
		if want := map[bool]string{true: "svc_ServerInfo", false: "usual tick interval"}[c.ofFile]; !strings.Contains(text, want) {
			t.Errorf("explanation does not say where the interval came from (%q):\n%s", want, text)
		}
	}
}
