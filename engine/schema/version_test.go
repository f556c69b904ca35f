package schema_test

import (
	"testing"

	"github.com/dembug/dembug/engine/writer"
)

// A nested serializer is found by name and version: the version asked for
// when the schema has it (the last such, if written twice), else the last
// serializer of the name. Most names have one version, so the parse looks
// a name up first and scans only for another version.
func TestNestedSerializerByVersion(t *testing.T) {
	inner := func(v int32, field string) writer.SerializerSpec {
		return writer.SerializerSpec{Name: "CInner", Version: v, Fields: []writer.FieldSpec{writer.Field(field, "int32")}}
	}
	nested := func(name string, v int32) writer.FieldSpec {
		f := writer.Field(name, "CInner")
		f.Serializer, f.SerializerVersion = "CInner", v
		return f
	}
	s := build(t, []writer.SerializerSpec{
		inner(1, "m_first"),
		inner(2, "m_second"),
		inner(1, "m_third"), // version 1 again: the last wins
		inner(3, "m_last"),
		{Name: "COuter", Fields: []writer.FieldSpec{nested("m_v1", 1), nested("m_v2", 2), nested("m_v3", 3), nested("m_v9", 9)}},
	})
	outer := s.Serializer("COuter")
	for i, want := range []string{"m_third", "m_second", "m_last", "m_last"} {
		f := outer.Fields[i]
		if f.Serializer == nil || len(f.Serializer.Fields) != 1 || f.Serializer.Fields[0].Name != want {
			t.Errorf("%s: nested serializer %+v, want the one holding %s", f.Name, f.Serializer, want)
		}
	}
}
