package schema_test

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
)

// A patch renaming int32 touches every int32 field of every class: the
// diff says so in one line, with the decoder change and the --as that
// undoes it, and leaves the other changes as they were.
func TestDiffGroupsARenamedType(t *testing.T) {
	classes := func(int32Name string) []writer.SerializerSpec {
		var out []writer.SerializerSpec
		for _, c := range []string{"CUnit", "CHero", "CTower"} {
			out = append(out, writer.SerializerSpec{Name: c, Fields: []writer.FieldSpec{
				writer.Field("m_iHealth", int32Name),
				writer.Field("m_iMana", int32Name),
				writer.Field("m_vecList", "CNetworkUtlVectorBase< "+int32Name+" >"),
				writer.Field("m_flSpeed", "float32"),
			}})
		}
		return out
	}
	old, new := classes("int32"), classes("NetworkedInt32")
	new[0].Fields = append(new[0].Fields, writer.Field("m_nAdded", "uint8"))
	ch := schema.Diff(build(t, old), build(t, new))
	groups, rest := schema.GroupChanges(ch, game.Dota2)
	if len(groups) != 1 {
		t.Fatalf("groups %+v, want one", groups)
	}
	g := groups[0]
	if g.From != "int32" || g.To != "NetworkedInt32" || g.Fields != 9 || g.Classes != 3 || g.As != "--as NetworkedInt32=int32" {
		t.Fatalf("group %+v", g)
	}
	line := g.String()
	for _, want := range []string{"type int32 → NetworkedInt32: 9 fields in 3 classes", "signed varint → default (unsigned varint): the same bits, other values", "rerun with --as NetworkedInt32=int32"} {
		if !strings.Contains(line, want) {
			t.Errorf("%q lacks %q", line, want)
		}
	}
	if len(rest) != 1 || rest[0].Kind != schema.FieldAdded || rest[0].Field != "m_nAdded" {
		t.Fatalf("left over %v", rest)
	}
	// One field renamed alone is not a group.
	one := classes("int32")
	one[1].Fields[0] = writer.Field("m_iHealth", "NetworkedInt32")
	if groups, _ := schema.GroupChanges(schema.Diff(build(t, old), build(t, one)), game.Dota2); len(groups) != 0 {
		t.Fatalf("a single field made a group: %+v", groups)
	}
}

// A field a base class gains shows in every class deriving from it: one
// line for all.
func TestDiffGroupsRepeatedFields(t *testing.T) {
	var old, new []writer.SerializerSpec
	for _, c := range []string{"CA", "CB", "CC", "CD"} {
		old = append(old, writer.SerializerSpec{Name: c, Fields: []writer.FieldSpec{writer.Field("m_x", "int32")}})
		new = append(new, writer.SerializerSpec{Name: c, Fields: []writer.FieldSpec{writer.Field("m_x", "int32"), writer.Field("m_pChoreo", "uint16")}})
	}
	groups, rest := schema.GroupRepeated(schema.Diff(build(t, old), build(t, new)))
	if len(groups) != 1 || len(rest) != 0 || len(groups[0].Classes) != 4 || !strings.Contains(groups[0].String(), "m_pChoreo (uint16, unsigned varint) in 4 classes") {
		t.Fatalf("groups %+v rest %v", groups, rest)
	}
}
