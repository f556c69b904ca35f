package parsers

import (
	"fmt"
	"strings"

	"github.com/dembug/dembug/engine/game"
)

// rustArmEntry is an arm of a Rust match or phf_map! literal from a type
// name to a decoder: a Decoder variant, as demoparser2 writes
// BASETYPE_DECODERS (its variants imported bare), or for a factory one of
// find_decoder's settings-reading helpers, called on the field.
func rustArmEntry(name string, e Entry) string {
	val := e.Symbol
	if e.Factory {
		switch {
		case e.Symbol == "find_float_decoder":
			val = "self.find_float_decoder(qf_map)"
		case strings.HasPrefix(e.Symbol, "find_vector_type("):
			n := strings.TrimSuffix(strings.TrimPrefix(e.Symbol, "find_vector_type("), ")")
			val = fmt.Sprintf("self.find_vector_type(%s, qf_map)", n)
		default:
			val = "self." + e.Symbol + "()"
		}
	}
	return fmt.Sprintf("%q => %s,", name, val)
}

// Demoparser2 is LaihoE/demoparser, read at v0.41.3 (commit 54e320f): CS2
// alone. ConstructorField::find_decoder
// (src/parser/src/first_pass/sendtables.rs) reads m_iClip1 with
// AmmoDecoder by its name; then looks the field's base type up in
// BASETYPE_DECODERS (a phf map in src/parser/src/maps.rs); then matches
// the element type of a vector (else the base type) against a list of
// names whose helpers read the field's settings (the Factories here);
// then looks that name up in BASETYPE_DECODERS again; and else takes
// UnsignedDecoder. The one name in both lists, CStrongHandle, reads as
// Unsigned64 either way (the helper also knows fixed64).
//
// The factory arms live in sendtables.rs, not in maps.rs: FactoryTable
// names that file, since a Fix carries the one File of its model.
//
// What the kinds hide:
//   - find_vector_type reads three floats whatever the count it is given,
//     so Vector2D and Vector4D read as Vector3; a vector whose floats are
//     quantized reads as a packed normal.
//   - find_float_decoder knows coord, raw (no bit count, or 32 and more)
//     and quantized; simulation time only for m_flSimulationTime and
//     m_flAnimTime by name.
//   - int64 reads as a 32-bit zigzag varint (SignedDecoder), HSequence
//     as a 64-bit varint (no minus one), CEntityHandle through the 64-bit
//     helper; Quaternion and CTransform as one raw float.
//   - AmmoDecoder leaves a zero as zero (the game's -1 plus one).
//
// Not modelled:
//   - generate_field_data's rules by name after find_decoder:
//     m_PredFloatVariables and m_OwnerOnlyPredNetFloatVariables read raw
//     floats, m_PredVectorVariables and m_OwnerOnlyPredNetVectorVariables
//     three raw floats (the kinds the type gives them already);
//     m_pGameModeRules, a pointer, GameModeRulesDecoder (a bit and a
//     ubitvar: no Kind). The encoder qangle_precise takes
//     QanglePresDecoder (still QAngle).
//   - ComponentDecoder's rows are pointers in CS2 schemas (is_pointer);
//     they stay as Bool, the bit they read.
var Demoparser2 = register(&Model{
	ID: "demoparser2", Name: "demoparser2", Release: "v0.41.3", Repo: "LaihoE/demoparser", Games: []game.Game{game.CS2},
	File: "src/parser/src/maps.rs", TypeTable: "BASETYPE_DECODERS",
	FactoryTable: "ConstructorField::find_decoder (src/parser/src/first_pass/sendtables.rs)",
	Factories: table(true, map[Entry][]string{
		{Kind: Float, Symbol: "find_float_decoder"}:     {"float32", "CNetworkedQuantizedFloat"},
		{Kind: Vector3, Symbol: "find_vector_type(3)"}:  {"Vector", "VectorWS"},
		{Kind: Vector3, Symbol: "find_vector_type(2)"}:  {"Vector2D"},
		{Kind: Vector3, Symbol: "find_vector_type(4)"}:  {"Vector4D"},
		{Kind: Unsigned64, Symbol: "find_uint_decoder"}: {"uint64", "CEntityHandle"},
		{Kind: QAngle, Symbol: "find_qangle_decoder"}:   {"QAngle"},
	}),
	// CHandle is an arm of the same match, but a fixed decoder, not a
	// helper: a type row.
	Names: map[string]Entry{"m_iClip1": {Kind: MinusOne, Symbol: "AmmoDecoder"}},
	Types: table(false, map[Entry][]string{
		{Kind: Bool, Symbol: "BooleanDecoder"}:            {"bool"},
		{Kind: String, Symbol: "StringDecoder"}:           {"char", "CUtlString", "CUtlSymbolLarge", "CGlobalSymbol"},
		{Kind: Signed, Symbol: "SignedDecoder"}:           {"int8", "int16", "int32", "int64"},
		{Kind: Unsigned, Symbol: "UnsignedDecoder"}:       {"uint8", "uint16", "uint32", "color32", "CGameSceneNodeHandle", "Color", "CUtlStringToken", "CHandle"},
		{Kind: NoScale, Symbol: "NoscaleDecoder"}:         {"GameTime_t", "Quaternion", "CTransform"},
		{Kind: Bool, Symbol: "ComponentDecoder"}:          {"CBodyComponent", "CPhysicsComponent", "CRenderComponent"},
		{Kind: BinaryBlock, Symbol: "BinaryBlockDecoder"}: {"CUtlBinaryBlock"},
		{Kind: Unsigned64, Symbol: "Unsigned64Decoder"}: {"HSequence", "AttachmentHandle_t", "CEntityIndex", "MoveCollide_t",
			"MoveType_t", "RenderMode_t", "RenderFx_t", "SolidType_t", "SurroundingBoundsType_t", "ModelConfigHandle_t",
			"NPC_STATE", "StanceType_t", "AbilityPathType_t", "WeaponState_t", "DoorState_t", "RagdollBlendDirection",
			"BeamType_t", "BeamClipStyle_t", "EntityDisolveType_t", "tablet_skin_state_t", "CStrongHandle", "CSWeaponMode",
			"ESurvivalSpawnTileState", "SpawnStage_t", "ESurvivalGameRuleDecision_t", "RelativeDamagedDirection_t",
			"CSPlayerState", "MedalRank_t", "CSPlayerBlockingUseAction_t", "MoveMountingAmount_t", "QuestProgress::Reason"},
	}),
	ElemFactories: true,
	Fallback:      Unsigned,
	entry:         rustArmEntry,
	// No decoder of demoparser2 reads a 64-bit zigzag varint (Signed64),
	// 2, 4 or 6 floats, or 8 raw bits: no fix line for those kinds.
	symbols: map[Kind]Entry{
		Unsigned: {Symbol: "UnsignedDecoder"}, Signed: {Symbol: "SignedDecoder"},
		Unsigned64: {Symbol: "find_uint_decoder", Factory: true}, MinusOne: {Symbol: "AmmoDecoder"},
		Bool: {Symbol: "BooleanDecoder"}, String: {Symbol: "StringDecoder"}, NoScale: {Symbol: "NoscaleDecoder"},
		Float: {Symbol: "find_float_decoder", Factory: true}, Quantized: {Symbol: "find_float_decoder", Factory: true},
		Vector3: {Symbol: "find_vector_type(3)", Factory: true}, QAngle: {Symbol: "find_qangle_decoder", Factory: true},
		BinaryBlock: {Symbol: "BinaryBlockDecoder"},
	},
})
