package schema_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

func build(t *testing.T, sers []writer.SerializerSpec) *schema.Schema {
	t.Helper()
	s, err := schema.Parse(writer.FlattenedSerializer(sers), game.Dota2)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func find(changes []schema.Change, kind schema.ChangeKind, ser, field string) *schema.Change {
	for i := range changes {
		c := &changes[i]
		if c.Kind == kind && c.Serializer == ser && c.Field == field {
			return c
		}
	}
	return nil
}

func TestDiffAddedRemovedChanged(t *testing.T) {
	old := build(t, []writer.SerializerSpec{
		{Name: "CUnit", Fields: []writer.FieldSpec{
			writer.Field("m_iHealth", "int32"),
			writer.Field("m_flSpeed", "float32").WithBits(13).WithHigh(256),
			writer.Field("m_iGone", "uint8"),
			writer.Field("m_nLevel", "int32"),
		}},
		{Name: "COld", Fields: []writer.FieldSpec{writer.Field("m_b", "bool")}},
	})
	new := build(t, []writer.SerializerSpec{
		{Name: "CUnit", Fields: []writer.FieldSpec{
			writer.Field("m_iHealth", "int32"),
			writer.Field("m_iArmor", "int32"),
			writer.Field("m_flSpeed", "float32").WithBits(14).WithHigh(256),
			writer.Field("m_nLevel", "int32"),
		}},
		{Name: "CNew", Fields: []writer.FieldSpec{writer.Field("m_b", "bool")}},
	})
	ch := schema.Diff(old, new)
	if find(ch, schema.ClassAdded, "CNew", "") == nil || find(ch, schema.ClassRemoved, "COld", "") == nil {
		t.Errorf("class changes missing: %v", ch)
	}
	if find(ch, schema.FieldAdded, "CUnit", "m_iArmor") == nil || find(ch, schema.FieldRemoved, "CUnit", "m_iGone") == nil {
		t.Errorf("field add/remove missing: %v", ch)
	}
	c := find(ch, schema.FieldChanged, "CUnit", "m_flSpeed")
	if c == nil || !strings.Contains(strings.Join(c.Details, ";"), "bit count 13 → 14") || !strings.Contains(strings.Join(c.Details, ";"), "decoder") {
		t.Errorf("m_flSpeed change not reported with bit count and decoder: %+v", c)
	}
	if c := find(ch, schema.FieldMoved, "CUnit", "m_nLevel"); c != nil {
		t.Errorf("m_nLevel reported moved though only an insertion shifted it: %+v", c)
	}
	if len(schema.Diff(old, old)) != 0 {
		t.Error("a schema differs from itself")
	}
}

func loadSchema(t *testing.T, path string) *schema.Schema {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(func(*container.Command) bool { return r.Schema != nil }); err != nil || r.Schema == nil {
		t.Fatalf("%s: no schema (%v)", path, err)
	}
	return r.Schema
}

func TestDiffBetweenCS2Builds(t *testing.T) {
	dir := filepath.Join(testreplays.Require(t), "cs2")
	old, new := loadSchema(t, filepath.Join(dir, "14132.dem")), loadSchema(t, filepath.Join(dir, "14155.dem"))
	ch := schema.Diff(old, new)
	counts := map[schema.ChangeKind]int{}
	for _, c := range ch {
		counts[c.Kind]++
	}
	if counts[schema.FieldAdded] == 0 || counts[schema.FieldRemoved] == 0 || counts[schema.FieldChanged] == 0 {
		t.Fatalf("builds 14132 → 14155 should add, remove and change fields: %v", counts)
	}
	// Spot-check a change visible in the raw schemas: m_pChoreoComponent
	// appears on CWorld in the newer build.
	if find(ch, schema.FieldAdded, "CWorld", "m_pChoreoComponent") == nil {
		t.Errorf("CWorld.m_pChoreoComponent not reported added")
	}
	// CBasePlayerPawn has two fields named m_vecX (#102, 20 bits over
	// ±16384, and #125, 10 bits over ±64) in both 14155 and 14160: matched
	// by name and occurrence they are unchanged. Matched by name alone the
	// first was compared with the second and reported "bit count 20 → 10".
	later := schema.Diff(new, loadSchema(t, filepath.Join(dir, "14160.dem")))
	if c := find(later, schema.FieldChanged, "CBasePlayerPawn", "m_vecX"); c != nil {
		t.Errorf("CBasePlayerPawn.m_vecX reported changed between 14155 and 14160, whose two m_vecX are alike: %v", c.Details)
	}
}
