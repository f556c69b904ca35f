package parsers

import (
	"fmt"
	"strings"

	"github.com/dembug/dembug/engine/game"
)

// csharpCaseEntry is a section of demofile-net's fallback switch on the
// type name, on one line: a case label, the decoder set, return true.
// A symbol naming one of FieldDecode's CreateDecoder_ helpers is built
// once from the field's encoding; any other symbol is a read expression
// on the bit buffer, used as it is.
func csharpCaseEntry(name string, e Entry) string {
	const lambda = "(Unit _, ReadOnlySpan<int> _, ref BitBuffer buffer) =>"
	if strings.HasPrefix(e.Symbol, "FieldDecode.CreateDecoder_") {
		return fmt.Sprintf("case %q: { var read = %s(encodingInfo); decoder = %s read(ref buffer); return true; }", name, e.Symbol, lambda)
	}
	return fmt.Sprintf("case %q: decoder = %s %s; return true;", name, lambda, e.Symbol)
}

// DemofileNet is saul/demofile-net, read at v0.44.1 (commit fd59701):
// CS2 and Deadlock. Its decoders are generated per schema field, by the
// field's name, when its SDK is generated; a field of a serializer the
// SDK lacks goes, after the game's own rules by name
// (CsDecoderSet.TryCreateFallbackDecoder and Deadlock's), to
// FallbackDecoder.TryCreate (src/DemoFile/FallbackDecoder.cs): a char
// array reads as a string, another array or a vector through its element
// type (the same switch), a pointer as one bit, then a switch on the type
// name (the Types here, its settings-reading helpers the Factories).
// Past the switch it tries a serializer class of that name and two
// heuristics; when those fail too, the generated code throws.
//
// This model is that fallback alone: it answers for a field the
// generated SDK does not hold. A field it holds is read by its generated
// decoder, chosen by the field's name at SDK generation, whatever type
// the file writes; no table by type says that.
//
// What the kinds hide:
//   - every integer of the switch, signed ones too, reads as a 64-bit
//     unsigned varint (buffer.ReadUVarInt64()), HSequence and BloodType
//     among them; CEntityIndex as a zigzag varint.
//   - ReadUVarInt32 reads to the varint's last byte, past five.
//   - the float helper knows coord, simtime, runetime, raw and
//     quantized, and throws on another encoder.
//
// Not modelled:
//   - Quaternion and CTransform: their cases build decoders that throw
//     NotImplementedException at the first read, a stop of another
//     reason than the one this model gives a type it does not know.
//   - the heuristics: a type name of 'E' and a capital (an enum) and a
//     field name of "m_e" and a capital read a 64-bit unsigned varint. A
//     rule by prefix is no map row; such a name reads as unknown here.
//   - a type that names a serializer class: no value of its own.
var DemofileNet = register(&Model{
	ID: "demofile-net", Name: "demofile-net", Release: "v0.44.1", Repo: "saul/demofile-net",
	Games: []game.Game{game.CS2, game.Deadlock},
	File:  "src/DemoFile/FallbackDecoder.cs", TypeTable: "FallbackDecoder.TryCreate", FactoryTable: "FallbackDecoder.TryCreate",
	Factories: table(true, map[Entry][]string{
		{Kind: Float, Symbol: "FieldDecode.CreateDecoder_float"}:      {"float32", "CNetworkedQuantizedFloat", "float64"},
		{Kind: Vector3, Symbol: "FieldDecode.CreateDecoder_Vector"}:   {"Vector", "VectorWS"},
		{Kind: Vector2, Symbol: "FieldDecode.CreateDecoder_Vector2D"}: {"Vector2D"},
		{Kind: Vector4, Symbol: "FieldDecode.CreateDecoder_Vector4D"}: {"Vector4D"},
		{Kind: QAngle, Symbol: "FieldDecode.CreateDecoder_QAngle"}:    {"QAngle"},
	}),
	Names: map[string]Entry{},
	Types: table(false, map[Entry][]string{
		{Kind: Bool, Symbol: "buffer.ReadOneBit()"}:                           {"bool", "CRenderComponent"},
		{Kind: Unsigned, Symbol: "FieldDecode.CreateDecoder_Color"}:           {"Color"},
		{Kind: Unsigned, Symbol: "FieldDecode.CreateDecoder_CUtlStringToken"}: {"CUtlStringToken"},
		{Kind: Unsigned, Symbol: "FieldDecode.CreateDecoder_CPlayerSlot"}:     {"CPlayerSlot"},
		{Kind: Unsigned, Symbol: "buffer.ReadUVarInt32()"}:                    {"GameTick_t"},
		{Kind: Signed, Symbol: "FieldDecode.CreateDecoder_CEntityIndex"}:      {"CEntityIndex"},
		{Kind: String, Symbol: "FieldDecode.CreateDecoder_string"}:            {"CUtlString", "CUtlSymbolLarge", "char"},
		{Kind: String, Symbol: "FieldDecode.CreateDecoder_CGlobalSymbol"}:     {"CGlobalSymbol"},
		{Kind: NoScale, Symbol: "FieldDecode.DecodeFloatNoscale(ref buffer)"}: {"GameTime_t"},
		{Kind: Unsigned64, Symbol: "buffer.ReadUVarInt64()"}: {"uint8", "int8", "int16", "uint16", "int32", "uint32",
			"int64", "uint64", "CStrongHandle", "CEntityHandle", "CHandle", "HSequence", "CSPlayerBlockingUseAction_t",
			"BloodType", "CGameSceneNodeHandle", "ShatterPanelMode", "CSWeaponState_t", "WorldGroupId_t",
			"attributeprovidertypes_t", "DecalMode_t"},
	}),
	ElemFactories: true,
	Stops:         "throws NotSupportedException: Unrecognised serializer field",
	PerField:      "its SDK is generated per field when the SDK is built: these tables are only the fallback for a field the SDK lacks, so the types a file writes do not say how it reads them",
	entry:         csharpCaseEntry,
	// No reader of demofile-net takes a varint minus one or six floats
	// (CTransform's throws): no fix line for those kinds.
	symbols: map[Kind]Entry{
		Unsigned: {Symbol: "buffer.ReadUVarInt32()"}, Signed: {Symbol: "buffer.ReadVarInt32()"},
		Unsigned64: {Symbol: "FieldDecode.CreateDecoder_UInt64", Factory: true}, Signed64: {Symbol: "buffer.ReadVarInt64()"},
		Bool: {Symbol: "buffer.ReadOneBit()"}, String: {Symbol: "FieldDecode.CreateDecoder_string"},
		NoScale: {Symbol: "FieldDecode.DecodeFloatNoscale(ref buffer)"},
		Float:   {Symbol: "FieldDecode.CreateDecoder_float", Factory: true}, Quantized: {Symbol: "FieldDecode.CreateDecoder_float", Factory: true},
		Vector2: {Symbol: "FieldDecode.CreateDecoder_Vector2D", Factory: true}, Vector3: {Symbol: "FieldDecode.CreateDecoder_Vector", Factory: true},
		Vector4: {Symbol: "FieldDecode.CreateDecoder_Vector4D", Factory: true}, QAngle: {Symbol: "FieldDecode.CreateDecoder_QAngle", Factory: true},
		BinaryBlock: {Symbol: "FieldDecode.CreateDecoder_CUtlBinaryBlock"}, Fixed8: {Symbol: "buffer.ReadUBits(8)"},
	},
})
