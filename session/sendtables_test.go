package session

import (
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/testdata"
)

// The sample's DEM_SendTables read as the wire tree reads it has the
// serializers and fields engine/schema parses from the same bytes: names,
// versions, and each field's symbols and settings.
func TestParseSendTablesSample(t *testing.T) {
	ix := BuildIndex("sample.dem", testdata.Sample)
	for i := range ix.Commands {
		c := &ix.Commands[i]
		if c.Kind != container.SendTables {
			continue
		}
		body, err := bodyOf(testdata.Sample, c, -1)
		if err != nil {
			t.Fatal(err)
		}
		st, err := ParseSendTables(body)
		if err != nil {
			t.Fatal(err)
		}
		if body[st.DataOffset] != 0x0a || st.DataOffset+st.DataLen != len(body) || st.Start+st.Size > len(body) {
			t.Fatalf("data field at %d, %d bytes, schema %d bytes at %d, in a body of %d", st.DataOffset, st.DataLen, st.Size, st.Start, len(body))
		}
		s, err := schema.Parse(body[st.Start:st.Start+st.Size], game.Dota2)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Serializers) != len(s.Serializers) {
			t.Fatalf("%d serializers, schema has %d", len(st.Serializers), len(s.Serializers))
		}
		for k, ser := range st.Serializers {
			want := s.Serializers[k]
			if ser.Name != want.Name || ser.Version != want.Version || len(ser.Fields) != len(want.Fields) {
				t.Fatalf("serializer %d: %s v%d with %d fields, schema %s v%d with %d", k, ser.Name, ser.Version, len(ser.Fields), want.Name, want.Version, len(want.Fields))
			}
			for j, fi := range ser.Fields {
				f, ok := st.Field(fi)
				w := want.Fields[j]
				if !ok || f.VarName != w.Name || f.VarType != w.VarType || f.BitCount != w.BitCount || f.BitCountSet != w.BitCountSet ||
					f.Low != w.Low || f.High != w.High || f.EncodeFlags != w.EncodeFlags || f.FieldSerializer != w.SerializerName || f.SendNode != w.SendNode {
					t.Fatalf("%s field %d: %+v, schema %+v", ser.Name, j, f, *w)
				}
				if w.EncoderAsWritten == "" && w.Patched == "" && f.Encoder != w.Encoder {
					t.Errorf("%s.%s: encoder %q, schema %q", ser.Name, f.VarName, f.Encoder, w.Encoder)
				}
			}
		}
		return
	}
	t.Fatal("no DEM_SendTables in the sample")
}
