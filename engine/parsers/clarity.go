package parsers

import (
	"fmt"
	"strings"

	"github.com/dembug/dembug/engine/game"
)

// javaPutEntry is a row of Clarity's static tables: a put into FACTORIES
// or DECODERS of a new instance of the named class (the symbol carries
// the constructor's arguments where it takes any: VectorDecoderFactory(3)).
func javaPutEntry(name string, e Entry) string {
	tbl := "DECODERS"
	if e.Factory {
		tbl = "FACTORIES"
	}
	ctor := e.Symbol
	if !strings.HasSuffix(ctor, ")") {
		ctor += "()"
	}
	return fmt.Sprintf("%s.put(%q, new %s);", tbl, name, ctor)
}

// Clarity, read at 4.0.0 (commit 53f03b2, "release clarity 4.0.0";
// src/main/java/skadistats/clarity/io/s2/S2DecoderFactory.java): one
// table for every Source 2 game it reads. createDecoder looks in
// FACTORIES, then DECODERS, and else takes DEFAULT_DECODER, an
// IntVarUnsignedDecoder. FieldGenerator asks the same createDecoder for
// the element type of an array or a vector, with the field's settings,
// so element types go through the factories too.
//
// Not modelled:
//   - FACTORIES' "Pointer" (PointerFactory): a key FieldGenerator asks for
//     a pointer field that has a serializer (the components), not a type
//     name a schema writes.
//   - FieldGeneratorPatches' rule by name for m_flSimulationTime and
//     m_flAnimTime (every game): their type becomes uint32, so Clarity
//     reads the simulation-time varint as an integer (the same bits as
//     the game's simtime encoding, the value in ticks, not seconds). No
//     Kind says "a simtime varint read as an integer", and a Names row of
//     Unsigned would count as a different bit width, which it is not.
//   - The other patches (early Dota 2 betas: encoder and range changes by
//     field name) change a field's settings, not its decoder.
//   - FloatDecoderFactory knows coord, raw (no bit count, or 32) and
//     quantized, not simtime or runetime encoders; Float stands for it
//     all the same.
var Clarity = register(&Model{
	ID: "clarity", Name: "Clarity", Release: "4.0.0", Repo: "skadistats/clarity",
	Games: []game.Game{game.Dota2, game.CS2, game.Deadlock},
	File:  "src/main/java/skadistats/clarity/io/s2/S2DecoderFactory.java", TypeTable: "DECODERS", FactoryTable: "FACTORIES",
	Factories: table(true, map[Entry][]string{
		{Kind: Unsigned64, Symbol: "LongUnsignedDecoderFactory"}: {"uint64"},
		{Kind: Float, Symbol: "FloatDecoderFactory"}:             {"float32", "CNetworkedQuantizedFloat"},
		{Kind: QAngle, Symbol: "QAngleDecoderFactory"}:           {"QAngle"},
		{Kind: Vector2, Symbol: "VectorDecoderFactory(2)"}:       {"Vector2D"},
		{Kind: Vector3, Symbol: "VectorDecoderFactory(3)"}:       {"Vector", "VectorWS"},
		{Kind: Vector4, Symbol: "VectorDecoderFactory(4)"}:       {"Vector4D", "Quaternion"},
	}),
	Names: map[string]Entry{},
	Types: table(false, map[Entry][]string{
		{Kind: Bool, Symbol: "BoolDecoder"}: {"bool"},
		{Kind: Unsigned, Symbol: "IntVarUnsignedDecoder"}: {"uint8", "uint16", "uint32", "CUtlStringToken", "CHandle",
			"CEntityHandle", "CGameSceneNodeHandle", "CBaseVRHandAttachmentHandle", "Color", "color32"},
		{Kind: Signed, Symbol: "IntVarSignedDecoder"}:         {"int8", "int16", "int32", "HeroID_t"},
		{Kind: Signed64, Symbol: "LongVarSignedDecoder"}:      {"int64"},
		{Kind: String, Symbol: "StringZeroTerminatedDecoder"}: {"CUtlSymbolLarge", "char", "CUtlString"},
		{Kind: Unsigned64, Symbol: "LongVarUnsignedDecoder"}:  {"CStrongHandle", "ResourceId_t", "HeroFacetKey_t"},
		{Kind: MinusOne, Symbol: "IntMinusOneDecoder"}:        {"HSequence"},
		{Kind: NoScale, Symbol: "FloatNoScaleDecoder"}:        {"GameTime_t"},
		{Kind: Fixed8, Symbol: "IntUnsignedDecoder(8)"}:       {"BloodType"},
	}),
	ElemFactories: true,
	Fallback:      Unsigned,
	entry:         javaPutEntry,
	// No decoder of Clarity reads a byte-counted block (BinaryBlock) or
	// six floats (Vector6): no fix line for those kinds.
	symbols: map[Kind]Entry{
		Unsigned: {Symbol: "IntVarUnsignedDecoder"}, Signed: {Symbol: "IntVarSignedDecoder"},
		Signed64: {Symbol: "LongVarSignedDecoder"}, Unsigned64: {Symbol: "LongUnsignedDecoderFactory", Factory: true},
		MinusOne: {Symbol: "IntMinusOneDecoder"}, Bool: {Symbol: "BoolDecoder"},
		String: {Symbol: "StringZeroTerminatedDecoder"}, NoScale: {Symbol: "FloatNoScaleDecoder"},
		Float: {Symbol: "FloatDecoderFactory", Factory: true}, Quantized: {Symbol: "FloatDecoderFactory", Factory: true},
		Vector2: {Symbol: "VectorDecoderFactory(2)", Factory: true}, Vector3: {Symbol: "VectorDecoderFactory(3)", Factory: true},
		Vector4: {Symbol: "VectorDecoderFactory(4)", Factory: true}, QAngle: {Symbol: "QAngleDecoderFactory", Factory: true},
		Fixed8: {Symbol: "IntUnsignedDecoder(8)"},
	},
})
