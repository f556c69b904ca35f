package schema_test

import (
	"testing"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
)

// aliasSchema has an unknown type, an unknown encoder, a known type in a
// vector, and a nested serializer holding an unknown type.
func aliasSchema(t *testing.T, a schema.Aliases) *schema.Schema {
	return aliasSchemaFor(t, a, game.Dota2)
}

func aliasSchemaFor(t *testing.T, a schema.Aliases, g game.Game) *schema.Schema {
	t.Helper()
	sers := []writer.SerializerSpec{
		{Name: "Inner", Fields: []writer.FieldSpec{
			writer.Field("m_flTime", "GameTimeX"),
			writer.Field("m_nMode", "DecalMode_t"),
		}},
		{Name: "CThing", Fields: []writer.FieldSpec{
			writer.Field("m_flX", "float32").WithBits(10).WithRange(0, 100).WithEncoder("mycoord"),
			writer.Field("m_vecT", "CNetworkUtlVectorBase< GameTimeX >"),
			writer.Field("m_inner", "Inner").WithSerializer("Inner", 0),
			writer.Field("m_iHealth", "int32"),
		}},
	}
	s, err := schema.ParseWith(writer.FlattenedSerializer(sers), g, a)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestUnknownNamesAreListed(t *testing.T) {
	s := aliasSchema(t, schema.Aliases{})
	got := map[string]int{}
	for _, u := range s.Unknowns() {
		got[string(u.Kind)+":"+u.Name] = u.Fields
	}
	want := map[string]int{"type:GameTimeX": 2, "type:DecalMode_t": 1, "encoder:mycoord": 1}
	if len(got) != len(want) {
		t.Fatalf("unknowns %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d fields, want %d (all: %v)", k, got[k], n, got)
		}
	}
}

func TestAliasesDecodeAsTheKnownName(t *testing.T) {
	a, err := schema.ParseAliases([]string{"GameTimeX=float32", "mycoord=coord"}, game.Dota2)
	if err != nil {
		t.Fatal(err)
	}
	s := aliasSchema(t, a)
	thing := s.Serializer("CThing")
	if d := thing.Fields[0].Decoder.Describe(); d != "coord" {
		t.Errorf("m_flX with encoder mycoord as coord: %s", d)
	}
	// Dota 2 picks a vector's element decoder by the element type alone
	// (the seed), CS2 with the array's settings as for a simple field.
	if d := thing.Fields[1].Elem.Describe(); d != "default (unsigned varint)" {
		t.Errorf("Dota 2 vector of GameTimeX as float32: element %s", d)
	}
	if d := aliasSchemaFor(t, a, game.CS2).Serializer("CThing").Fields[1].Elem.Describe(); d != "raw 32-bit float" {
		t.Errorf("CS2 vector of GameTimeX as float32: element %s", d)
	}
	if d := thing.Fields[2].Serializer.Fields[0].Decoder.Describe(); d != "raw 32-bit float" {
		t.Errorf("nested GameTimeX as float32: %s", d)
	}
	if f := thing.Fields[0]; f.Alias == "" || f.VarType != "float32" || f.EncoderAsWritten != "mycoord" {
		t.Errorf("alias not noted, or the name as written lost: %+v", f)
	}
	for _, u := range s.Unknowns() {
		if u.Name == "GameTimeX" || u.Name == "mycoord" {
			t.Errorf("%s is aliased, still listed as unknown", u.Name)
		}
	}
	if _, err := schema.ParseAliases([]string{"X=nosuchtype"}, game.Dota2); err == nil {
		t.Error("an alias to a name decoder choice does not know was accepted")
	}
	if _, err := schema.ParseAliases([]string{"X"}, game.Dota2); err == nil {
		t.Error("an alias without = was accepted")
	}
}

// TestRealiasMatchesParse: rebuilding a parsed schema under aliases must
// give every field the decoders a parse under them gives, and share what
// they do not touch.
func TestRealiasMatchesParse(t *testing.T) {
	plain := aliasSchema(t, schema.Aliases{})
	for _, specs := range [][]string{
		{"GameTimeX=float32"}, {"DecalMode_t=bool"}, {"mycoord=coord"},
		{"GameTimeX=Vector", "DecalMode_t=int32"}, {"DecalMode_t=uint64", "mycoord=simtime"},
	} {
		a, err := schema.ParseAliases(specs, game.Dota2)
		if err != nil {
			t.Fatal(err)
		}
		parsed := aliasSchema(t, a)
		for _, re := range []*schema.Schema{plain.Realias(a), plain.RealiasLazy(a), plain.Realias(schema.Aliases{}.With(schema.KindType, "Zz", "bool")).Realias(a)} {
			for _, name := range []string{"CThing", "Inner"} {
				ps, rs := parsed.Serializer(name), re.Serializer(name)
				if len(ps.Fields) != len(rs.Fields) {
					t.Fatalf("%v %s: %d fields, want %d", specs, name, len(rs.Fields), len(ps.Fields))
				}
				for i := range ps.Fields {
					if got, want := describe(rs.Fields[i]), describe(ps.Fields[i]); got != want {
						t.Errorf("%v %s.%s: %s, want %s", specs, name, ps.Fields[i].Name, got, want)
					}
				}
			}
		}
		if plain.Serializer("CThing").Fields[3] != plain.Realias(a).Serializer("CThing").Fields[3] {
			t.Errorf("%v: m_iHealth, which no alias touches, was copied", specs)
		}
	}
}

func describe(f *schema.Field) string {
	s := f.Model.String()
	if f.Decoder != nil {
		s += " " + f.Decoder.Describe()
	}
	if f.Elem != nil {
		s += " " + f.Elem.Describe()
	}
	return s
}
