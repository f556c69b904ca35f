package parsers

import (
	"fmt"

	"github.com/dembug/dembug/engine/game"
)

// goMapEntry is a row of a Go map literal from type name to decoder, as
// Manta and demoinfocs-golang write their tables.
func goMapEntry(name string, e Entry) string { return fmt.Sprintf("%q: %s,", name, e.Symbol) }

// Manta, read at v1.5.0 (field_decoder.go): one table for Dota 2. The
// element type of a vector goes through the type table alone
// (findDecoderByBaseType), an unknown type through defaultDecoder.
var Manta = register(&Model{
	ID: "manta", Name: "Manta", Release: "v1.5.0", Repo: "dotabuff/manta", Games: []game.Game{game.Dota2},
	File: "field_decoder.go", TypeTable: "fieldTypeDecoders", FactoryTable: "fieldTypeFactories", NameTable: "fieldNameDecoders",
	Factories: table(true, map[Entry][]string{
		{Kind: Float, Symbol: "floatFactory"}:           {"float32"},
		{Kind: Quantized, Symbol: "quantizedFactory"}:   {"CNetworkedQuantizedFloat"},
		{Kind: Vector3, Symbol: "vectorFactory(3)"}:     {"Vector", "VectorWS"},
		{Kind: Vector2, Symbol: "vectorFactory(2)"}:     {"Vector2D"},
		{Kind: Vector4, Symbol: "vectorFactory(4)"}:     {"Vector4D", "Quaternion"},
		{Kind: Unsigned64, Symbol: "unsigned64Factory"}: {"uint64", "CStrongHandle"},
		{Kind: QAngle, Symbol: "qangleFactory"}:         {"QAngle"},
		{Kind: Unsigned, Symbol: "unsignedFactory"}:     {"CHandle", "CEntityHandle"},
	}),
	Names: map[string]Entry{},
	Types: table(false, map[Entry][]string{
		{Kind: Bool, Symbol: "booleanDecoder"}:                {"bool"},
		{Kind: String, Symbol: "stringDecoder"}:               {"char", "CUtlString", "CUtlSymbolLarge", "CGlobalSymbol"},
		{Kind: Unsigned, Symbol: "unsignedDecoder"}:           {"color32", "uint16", "uint32", "uint8", "CGameSceneNodeHandle", "Color", "CUtlStringToken"},
		{Kind: Signed, Symbol: "signedDecoder"}:               {"int16", "int32", "int8", "HeroID_t"},
		{Kind: Signed64, Symbol: "signed64Decoder"}:           {"int64"},
		{Kind: NoScale, Symbol: "noscaleDecoder"}:             {"GameTime_t"},
		{Kind: Unsigned64, Symbol: "unsigned64Decoder"}:       {"HeroFacetKey_t", "ResourceId_t"},
		{Kind: MinusOne, Symbol: "hSequenceDecoder"}:          {"HSequence"},
		{Kind: Fixed8, Symbol: "bloodTypeDecoder"}:            {"BloodType"},
		{Kind: Bool, Symbol: "componentDecoder"}:              {"CBodyComponent", "CPhysicsComponent", "CRenderComponent"},
		{Kind: BinaryBlock, Symbol: "cUtlBinaryBlockDecoder"}: {"CUtlBinaryBlock"},
	}),
	Fallback: Unsigned,
	entry:    goMapEntry,
	symbols: map[Kind]Entry{
		Unsigned: {Symbol: "unsignedDecoder"}, Signed: {Symbol: "signedDecoder"}, Signed64: {Symbol: "signed64Decoder"},
		Unsigned64: {Symbol: "unsigned64Factory", Factory: true}, MinusOne: {Symbol: "hSequenceDecoder"},
		Bool: {Symbol: "booleanDecoder"}, String: {Symbol: "stringDecoder"}, NoScale: {Symbol: "noscaleDecoder"},
		Float: {Symbol: "floatFactory", Factory: true}, Quantized: {Symbol: "quantizedFactory", Factory: true},
		Vector2: {Symbol: "vectorFactory(2)", Factory: true}, Vector3: {Symbol: "vectorFactory(3)", Factory: true},
		Vector4: {Symbol: "vectorFactory(4)", Factory: true}, QAngle: {Symbol: "qangleFactory", Factory: true},
		BinaryBlock: {Symbol: "cUtlBinaryBlockDecoder"}, Fixed8: {Symbol: "bloodTypeDecoder"},
	},
})

// Demoinfocs is demoinfocs-golang, read at v5.1.0
// (pkg/demoinfocs/sendtables/sendtablescs2/field_decoder.go): CS2 alone.
// A vector's element type goes through the factories, then the type
// table (findDecoderByBaseType); m_iClip1 is read by name as the ammo
// (plus one); an unknown type through defaultDecoder.
var Demoinfocs = register(&Model{
	ID: "demoinfocs-golang", Name: "demoinfocs-golang", Release: "v5.1.0", Repo: "markus-wa/demoinfocs-golang",
	Games: []game.Game{game.CS2},
	File:  "pkg/demoinfocs/sendtables/sendtablescs2/field_decoder.go", TypeTable: "fieldTypeDecoders", FactoryTable: "fieldTypeFactories",
	NameTable: "fieldNameDecoders",
	Factories: table(true, map[Entry][]string{
		{Kind: Float, Symbol: "floatFactory"}:           {"float32"},
		{Kind: Quantized, Symbol: "quantizedFactory"}:   {"CNetworkedQuantizedFloat"},
		{Kind: Unsigned64, Symbol: "unsigned64Factory"}: {"uint64", "CStrongHandle"},
		{Kind: Vector3, Symbol: "vectorFactory(3)"}:     {"Vector", "VectorWS"},
		{Kind: Vector2, Symbol: "vectorFactory(2)"}:     {"Vector2D"},
		{Kind: Vector4, Symbol: "vectorFactory(4)"}:     {"Vector4D", "Quaternion"},
		{Kind: Vector6, Symbol: "vectorFactory(6)"}:     {"CTransform"},
		{Kind: QAngle, Symbol: "qangleFactory"}:         {"QAngle"},
	}),
	Names: map[string]Entry{"m_iClip1": {Kind: MinusOne, Symbol: "ammoDecoder"}},
	Types: table(false, map[Entry][]string{
		{Kind: Bool, Symbol: "booleanDecoder"}:    {"bool"},
		{Kind: String, Symbol: "stringDecoder"}:   {"char", "CUtlString", "CUtlSymbolLarge"},
		{Kind: NoScale, Symbol: "noscaleDecoder"}: {"GameTime_t"},
		{Kind: Signed, Symbol: "signedDecoder"}: {"int8", "int16", "int32", "HSequence", "CEntityIndex", "NPC_STATE",
			"StanceType_t", "RagdollBlendDirection", "BeamType_t", "EntityDisolveType_t", "PrecipitationType_t",
			"AmmoIndex_t", "TakeDamageFlags_t"},
		{Kind: Unsigned, Symbol: "unsignedDecoder"}: {"uint8", "uint16", "uint32", "CHandle", "Color", "CUtlStringToken",
			"EHandle", "CEntityHandle", "CGameSceneNodeHandle", "AttachmentHandle_t", "MoveCollide_t", "MoveType_t",
			"RenderMode_t", "RenderFx_t", "SolidType_t", "SurroundingBoundsType_t", "ModelConfigHandle_t",
			"WeaponState_t", "DoorState_t", "BeamClipStyle_t", "ValueRemapperInputType_t", "ValueRemapperOutputType_t",
			"ValueRemapperHapticsType_t", "ValueRemapperMomentumType_t", "ValueRemapperRatchetType_t",
			"PointWorldTextJustifyHorizontal_t", "PointWorldTextJustifyVertical_t", "PointWorldTextReorientMode_t",
			"PoseController_FModType_t", "ShardSolid_t", "ShatterPanelMode", "gender_t", "item_definition_index_t",
			"itemid_t", "style_index_t", "attributeprovidertypes_t", "DamageOptions_t", "ScreenEffectType_t",
			"MaterialModifyMode_t", "CSWeaponMode", "ESurvivalSpawnTileState", "SpawnStage_t",
			"ESurvivalGameRuleDecision_t", "RelativeDamagedDirection_t", "CSPlayerState", "MedalRank_t",
			"CSPlayerBlockingUseAction_t", "MoveMountingAmount_t", "QuestProgress::Reason", "tablet_skin_state_t"},
		{Kind: Bool, Symbol: "componentDecoder"}: {"CBodyComponent", "CPhysicsComponent", "CLightComponent", "CRenderComponent"},
	}),
	ElemFactories: true,
	Fallback:      Unsigned,
	entry:         goMapEntry,
	symbols: map[Kind]Entry{
		Unsigned: {Symbol: "unsignedDecoder"}, Signed: {Symbol: "signedDecoder"},
		Unsigned64: {Symbol: "unsigned64Factory", Factory: true}, MinusOne: {Symbol: "ammoDecoder"},
		Bool: {Symbol: "booleanDecoder"}, String: {Symbol: "stringDecoder"}, NoScale: {Symbol: "noscaleDecoder"},
		Float: {Symbol: "floatFactory", Factory: true}, Quantized: {Symbol: "quantizedFactory", Factory: true},
		Vector2: {Symbol: "vectorFactory(2)", Factory: true}, Vector3: {Symbol: "vectorFactory(3)", Factory: true},
		Vector4: {Symbol: "vectorFactory(4)", Factory: true}, Vector6: {Symbol: "vectorFactory(6)", Factory: true},
		QAngle: {Symbol: "qangleFactory", Factory: true},
	},
})
