package schema

import (
	"testing"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/game"
)

// field builds a schema field the way Parse does before choosing.
func field(name, varType string, set func(*Field)) *Field {
	f := &Field{Name: name, VarType: varType, Type: ParseVarType(varType)}
	if set != nil {
		set(f)
	}
	return f
}

func chosen(f *Field, g game.Game) *Field {
	patchField(f, g)
	chooseModel(f, g)
	return f
}

func TestPolymorphicPointer(t *testing.T) {
	base, dm := &Serializer{Name: "CCSGameModeRules"}, &Serializer{Name: "CCSGameModeRules_Deathmatch"}
	f := chosen(field("m_pGameModeRules", "CCSGameModeRules*", func(f *Field) {
		f.Serializer, f.Polymorphic = base, []*Serializer{base, dm}
	}), game.CS2)
	if f.Model != FixedTable || f.Decoder.Family != decoder.FamPolyPointer {
		t.Fatalf("model %s, decoder %s; want pointer with polymorphic pointer decoder", f.Model, f.Decoder.Family)
	}
	plain := chosen(field("CBodyComponent", "CBodyComponent", func(f *Field) { f.Serializer = base }), game.CS2)
	if plain.Model != FixedTable || plain.Decoder.Family != decoder.FamBool {
		t.Fatalf("plain pointer: model %s, decoder %s; want a presence bit", plain.Model, plain.Decoder.Family)
	}
}

func TestVariableArrayElementsUseFieldSettings(t *testing.T) {
	pred := func() *Field {
		return field("m_PredFloatVariables", "CNetworkUtlVectorBase< float32 >", func(f *Field) { f.BitCount, f.BitCountSet = 32, true })
	}
	for _, g := range []game.Game{game.CS2, game.Deadlock} {
		if f := chosen(pred(), g); f.Elem.Family != decoder.FamNoScale {
			t.Errorf("%s: float32 elements with 32 bits → %s, want raw float", g, f.Elem.Family)
		}
	}
	// Dota 2 keeps the seed's rule: element type alone, so float32 falls back.
	if f := chosen(pred(), game.Dota2); f.Elem.Family != decoder.FamDefault {
		t.Errorf("dota2: float32 elements → %s, want the seed's fallback", f.Elem.Family)
	}
	ang := chosen(field("m_ragAngles", "CNetworkUtlVectorBase< QAngle >", func(f *Field) {
		f.Encoder, f.BitCount, f.BitCountSet = "qangle", 13, true
	}), game.CS2)
	if ang.Elem.Family != decoder.FamQAngleBits || ang.Elem.Bits != 13 {
		t.Errorf("QAngle elements with 13 bits → %s", ang.Elem.Describe())
	}
	pos := chosen(field("m_ragPos", "CNetworkUtlVectorBase< Vector >", func(f *Field) { f.Encoder = "coord" }), game.CS2)
	if pos.Elem.Family != decoder.FamVector || pos.Elem.Elem.Family != decoder.FamCoord {
		t.Errorf("Vector elements with encoder coord → %s", pos.Elem.Describe())
	}
	h := chosen(field("m_hMyWeapons", "CNetworkUtlVectorBase< CHandle< CBasePlayerWeapon > >", nil), game.CS2)
	if h.Elem.Family != decoder.FamHandle {
		t.Errorf("handle elements → %s", h.Elem.Family)
	}
	unknown := chosen(field("m_Transforms", "CNetworkUtlVectorBase< CTransform >", nil), game.CS2)
	if unknown.Elem.Family != decoder.FamDefault {
		t.Errorf("unknown element type → %s, want the marked fallback", unknown.Elem.Family)
	}
}

func TestMinusOneSerializer(t *testing.T) {
	for _, c := range []struct{ name, varType string }{{"m_hSequence", "HSequence"}, {"m_iClip2", "int32"}, {"m_iClip1", "int32"}} {
		f := chosen(field(c.name, c.varType, func(f *Field) { f.VarSerializer = "minusone" }), game.CS2)
		if f.Decoder.Family != decoder.FamUnsignedMinusOne {
			t.Errorf("%s %s with serializer minusone → %s", c.name, c.varType, f.Decoder.Family)
		}
	}
	// Older schemas without var_serializer: m_iClip1 by name.
	if f := chosen(field("m_iClip1", "int32", nil), game.Deadlock); f.Decoder.Family != decoder.FamUnsignedMinusOne {
		t.Errorf("m_iClip1 without serializer → %s", f.Decoder.Family)
	}
	if f := chosen(field("m_iClip2", "int32", func(f *Field) { f.VarSerializer = "minusone" }), game.Dota2); f.Decoder.Family != decoder.FamSigned {
		t.Errorf("dota2 int32 → %s, want the seed's signed varint", f.Decoder.Family)
	}
}

func TestQAngle32BitsIsRawFloats(t *testing.T) {
	for _, enc := range []string{"qangle", "qangle_precise"} {
		f := chosen(field("m_angRotation", "QAngle", func(f *Field) { f.Encoder, f.BitCount, f.BitCountSet = enc, 32, true }), game.CS2)
		if f.Decoder.Family != decoder.FamVector || f.Decoder.Components != 3 || f.Decoder.Elem.Family != decoder.FamNoScale {
			t.Errorf("QAngle %s 32 bits → %s, want three raw floats", enc, f.Decoder.Describe())
		}
	}
	if f := chosen(field("m_angEyeAngles", "QAngle", func(f *Field) { f.Encoder = "qangle_precise" }), game.CS2); f.Decoder.Family != decoder.FamQAnglePrecise {
		t.Errorf("qangle_precise without bits → %s", f.Decoder.Family)
	}
	if f := chosen(field("m_angRotation", "QAngle", func(f *Field) { f.BitCount, f.BitCountSet = 32, true }), game.Dota2); f.Decoder.Family != decoder.FamQAngleBits {
		t.Errorf("dota2 QAngle 32 bits → %s, want the seed's n-bit angles", f.Decoder.Family)
	}
}

func TestBinaryBlockAndTickIntervals(t *testing.T) {
	if f := chosen(field("m_topology", "CUtlBinaryBlock", nil), game.CS2); f.Decoder.Family != decoder.FamBinaryBlock {
		t.Errorf("CUtlBinaryBlock → %s", f.Decoder.Family)
	}
	for g, want := range map[game.Game]float32{game.Dota2: 1.0 / 30, game.CS2: 1.0 / 64, game.Deadlock: 1.0 / 64} {
		f := chosen(field("m_flSimulationTime", "float32", nil), g)
		if f.Decoder.Family != decoder.FamSimTime || f.Decoder.TickInterval != want {
			t.Errorf("%s simulation time → %s", g, f.Decoder.Describe())
		}
	}
}
