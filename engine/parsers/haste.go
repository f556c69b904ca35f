package parsers

import (
	"fmt"
	"strings"

	"github.com/dembug/dembug/engine/game"
)

// hasteArmEntry is an arm of haste's visit_ident match: a decoder wrapped
// in its non_special! macro, or a bare macro call (pointer!()).
func hasteArmEntry(name string, e Entry) string {
	if strings.HasSuffix(e.Symbol, "!()") {
		return fmt.Sprintf("%q => %s,", name, e.Symbol)
	}
	return fmt.Sprintf("%q => non_special!(%s),", name, e.Symbol)
}

// Haste is blukai/haste, read at commit a5c4fa8 ("get rid of charsor",
// 26 September 2025; the repository has no release tags):
// crates/haste_core/src/fieldmetadata.rs. visit_ident is one match on
// the type's name, the decoders that read the field's settings
// (F32Decoder, the vectors', QAngleDecoder) among the fixed ones; they
// are the Factories here, in the same match, so the order between the
// two does not matter. A vector's element type goes through visit_ident
// as well; a char array is read as a string (visit_array). Every other
// name, the unsigned ints and uint64 among them, falls to U64Decoder,
// which reads a 64-bit varint (8 raw bytes when the encoder is fixed64).
// Every signed int reads with I64Decoder, a 64-bit zigzag varint (the
// same bits and values as a 32-bit one below 2^35).
//
// What the kinds hide:
//   - the float helper takes simulation time for m_flSimulationTime and
//     m_flAnimTime by name, coord and normal by encoder, else raw or
//     quantized by bit count; another encoder panics (unimplemented!),
//     as QAngleDecoder does for an encoder it does not list.
//   - GameTime_t goes through the float helper, by its settings.
//
// Not modelled:
//   - the names m_SpeechBubbles and DOTA_CombatLogQueryProgress, arrays
//     of serializers: no value of their own.
//   - component names through pointer!() are kept as Bool, the bit they
//     read.
var Haste = register(&Model{
	ID: "haste", Name: "haste", Release: "a5c4fa8", Repo: "blukai/haste",
	Games: []game.Game{game.Dota2, game.CS2, game.Deadlock},
	File:  "crates/haste_core/src/fieldmetadata.rs", TypeTable: "visit_ident", FactoryTable: "visit_ident",
	Factories: table(true, map[Entry][]string{
		{Kind: Float, Symbol: "F32Decoder::new(field)?"}:       {"float32", "CNetworkedQuantizedFloat", "GameTime_t"},
		{Kind: QAngle, Symbol: "QAngleDecoder::new(field)"}:    {"QAngle"},
		{Kind: Vector3, Symbol: "Vector3Decoder::new(field)?"}: {"Vector"},
		{Kind: Vector2, Symbol: "Vector2Decoder::new(field)?"}: {"Vector2D"},
		{Kind: Vector4, Symbol: "Vector4Decoder::new(field)?"}: {"Vector4D"},
	}),
	Names: map[string]Entry{},
	Types: table(false, map[Entry][]string{
		{Kind: Signed64, Symbol: "I64Decoder"}: {"int8", "int16", "int32", "int64"},
		{Kind: Bool, Symbol: "BoolDecoder"}:    {"bool"},
		{Kind: String, Symbol: "StringDecoder"}: {"CUtlSymbolLarge", "CUtlString",
			"char"}, // char only as an array, through visit_array
		{Kind: Bool, Symbol: "pointer!()"}: {"CBodyComponentDCGBaseAnimating", "CBodyComponentBaseAnimating",
			"CBodyComponentBaseAnimatingOverlay", "CBodyComponentBaseModelEntity", "CBodyComponent",
			"CBodyComponentSkeletonInstance", "CBodyComponentPoint", "CLightComponent", "CRenderComponent",
			"C_BodyComponentBaseAnimating", "C_BodyComponentBaseAnimatingOverlay", "CPhysicsComponent"},
	}),
	ElemFactories: true,
	Fallback:      Unsigned64,
	entry:         hasteArmEntry,
	// No decoder of haste reads a varint minus one, a byte-counted block,
	// six floats or 8 raw bits: no fix line for those kinds. A 32-bit
	// varint (either sign) reads alike with the 64-bit decoder; a raw
	// float with the float helper, which reads raw when the settings give
	// no bit count.
	symbols: map[Kind]Entry{
		Unsigned: {Symbol: "U64Decoder::new(field)"}, Unsigned64: {Symbol: "U64Decoder::new(field)"},
		Signed: {Symbol: "I64Decoder"}, Signed64: {Symbol: "I64Decoder"},
		Bool: {Symbol: "BoolDecoder"}, String: {Symbol: "StringDecoder"},
		Float: {Symbol: "F32Decoder::new(field)?", Factory: true}, Quantized: {Symbol: "F32Decoder::new(field)?", Factory: true},
		NoScale: {Symbol: "F32Decoder::new(field)?", Factory: true},
		Vector2: {Symbol: "Vector2Decoder::new(field)?", Factory: true}, Vector3: {Symbol: "Vector3Decoder::new(field)?", Factory: true},
		Vector4: {Symbol: "Vector4Decoder::new(field)?", Factory: true}, QAngle: {Symbol: "QAngleDecoder::new(field)", Factory: true},
	},
})
