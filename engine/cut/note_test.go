package cut_test

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/cut"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/writer"
)

// A variable array shrunk before the window keeps its old elements out of
// reach in the reader's state; grown again inside the window without its
// elements being sent, the original shows them again. A full frame cannot
// carry values out of reach, so the cut differs there, and says so.
func TestCutNotesStateItCannotCarry(t *testing.T) {
	d, err := writer.NewDemo(
		messages.FileHeader{DemoFileStamp: container.Magic, NetworkProtocol: 47, MapName: "test", GameDirectory: "/srcds/dota", BuildNum: 1},
		messages.ServerInfo{MaxClasses: 1, MaxClients: 10, TickInterval: 1.0 / 30, GameDir: "/srcds/dota", MapName: "test"},
		[]writer.SerializerSpec{{Name: "CTestEntity", Fields: []writer.FieldSpec{
			writer.Field("m_iValue", "int32"),
			writer.Field("m_vec", "CNetworkUtlVectorBase< uint32 >"),
		}}},
		[]messages.Class{{ID: 0, NetworkName: "CTestEntity"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Signon(); err != nil {
		t.Fatal(err)
	}
	ser := d.Serializer("CTestEntity")
	set := func(kv ...any) writer.Changes {
		ch := writer.Changes{}
		for i := 0; i < len(kv); i += 2 {
			if err := ch.Set(ser, kv[i].(string), kv[i+1].(decoder.Value)); err != nil {
				t.Fatal(err)
			}
		}
		return ch
	}
	frames := []func(fr *writer.Frame) error{
		func(fr *writer.Frame) error {
			return fr.Create(1, 0, 1, set("m_iValue", decoder.Int(1), "m_vec", decoder.Uint(3),
				"m_vec.0", decoder.Uint(5), "m_vec.1", decoder.Uint(6), "m_vec.2", decoder.Uint(7)))
		},
		func(fr *writer.Frame) error { return fr.Update(1, set("m_vec", decoder.Uint(1))) },
		func(fr *writer.Frame) error { return fr.Update(1, set("m_iValue", decoder.Int(2))) },
		func(fr *writer.Frame) error { return fr.Update(1, set("m_vec", decoder.Uint(3))) },
	}
	for i, f := range frames {
		fr := d.Frame()
		if err := f(fr); err != nil {
			t.Fatal(err)
		}
		if err := d.Packet(int32(i*2), fr); err != nil {
			t.Fatal(err)
		}
	}
	data := d.Finish()
	want := statesAt(t, data, []int32{6})[6]
	if !strings.Contains(want, "m_vec.0001=2/6/") {
		t.Skipf("the reader forgets an array's elements past its length (state at tick 6:\n%s): nothing out of reach to test", want)
	}
	res, err := cut.Cut(data, cut.Options{From: 4, To: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res.Notes)
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "cannot express") || !strings.Contains(res.Notes[0], "m_vec") {
		t.Fatalf("notes %q; want the out-of-reach elements named", res.Notes)
	}
}
