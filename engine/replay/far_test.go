package replay_test

import (
	"fmt"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/writer"
)

// farPath is a path of the given indexes.
func farPath(idx ...int32) fieldpath.Path {
	var p fieldpath.Path
	copy(p.Idx[:], idx)
	p.Last = len(idx) - 1
	return p
}

// TestFarSlotsDecodeAsFresh: updates that write, over and over, slots kept
// past a node's first 256 (field 300 of a 400-field class, element 300 of
// an array, a field of element 300 of a table) decode through the update
// memos exactly as afresh, and read back as written.
func TestFarSlotsDecodeAsFresh(t *testing.T) {
	elem := writer.SerializerSpec{Name: "CElem", Fields: []writer.FieldSpec{writer.Field("m_a", "uint32"), writer.Field("m_b", "uint32")}}
	cls := writer.SerializerSpec{Name: "CFar"}
	for i := range 400 {
		f := writer.Field(fmt.Sprintf("m_f%d", i), "uint32")
		switch i {
		case 298:
			f = writer.Field("m_vec", "CUtlVector< uint32 >")
		case 299:
			f = writer.Field("m_tab", "CUtlVectorEmbeddedNetworkVar< CElem >").WithSerializer("CElem", 0)
		}
		cls.Fields = append(cls.Fields, f)
	}
	h := messages.FileHeader{DemoFileStamp: container.Magic, NetworkProtocol: 47, GameDirectory: "/game/dota", BuildNum: 1}
	server := messages.ServerInfo{MaxClasses: 1, MaxClients: 64, TickInterval: 1.0 / 30}
	d, err := writer.NewDemo(h, server, []writer.SerializerSpec{elem, cls}, []messages.Class{{ID: 0, NetworkName: "CFar", TableName: "CFar"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetBaseline(0, writer.Changes{farPath(350): decoder.Uint(1)}); err != nil {
		t.Fatal(err)
	}
	if err := d.Signon(); err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{}
	for tick := range 40 {
		fr := d.Frame()
		for e := range int32(3) {
			v := uint64(tick*10) + uint64(e)
			ch := writer.Changes{farPath(300): decoder.Uint(v), farPath(5): decoder.Uint(v), farPath(298, 300): decoder.Uint(v), farPath(299, 300, 1): decoder.Uint(v)}
			if tick%3 == 0 {
				ch[farPath(399)] = decoder.Uint(v) // a section of its own now and then
			}
			if tick == 0 {
				ch[farPath(298)] = decoder.Uint(301)
				ch[farPath(299)] = decoder.Uint(301)
				if err := fr.Create(e, 0, uint32(e), ch); err != nil {
					t.Fatal(err)
				}
			} else if err := fr.Update(e, ch); err != nil {
				t.Fatal(err)
			}
			want[fmt.Sprint(e)] = v
		}
		if err := d.Packet(int32(tick), fr); err != nil {
			t.Fatal(err)
		}
	}
	data := d.Finish()
	decode := func(fresh bool) *replay.Replay {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		r.Entities.FreshPaths = fresh
		if err := r.Run(nil); err != nil {
			t.Fatal(err)
		}
		if r.Stats.Misaligned != 0 {
			t.Fatalf("misaligned: %v", r.FirstMisaligned)
		}
		return r
	}
	memo, fresh := decode(false), decode(true)
	if diff := sameEntities(memo.Entities, fresh.Entities); diff != "" {
		t.Fatalf("through the memos: %s", diff)
	}
	for e := range int32(3) {
		st := memo.Entities.Entities[e].State
		v := want[fmt.Sprint(e)]
		got := []uint64{st.Get(300).U, st.Get(5).U, st.Kid(298).Get(300).U, st.Kid(299).Kid(300).Get(1).U, st.Get(350).U}
		if got[0] != v || got[1] != v || got[2] != v || got[3] != v || got[4] != 1 {
			t.Errorf("entity %d: %v, want %d four times and the baseline's 1", e, got, v)
		}
	}
}
