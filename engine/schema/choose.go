package schema

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/game"
)

// Shared decoders for families without parameters.
var (
	decUnsigned      = &decoder.Decoder{Family: decoder.FamUnsigned}
	decDefault       = &decoder.Decoder{Family: decoder.FamDefault}
	decUnsigned64    = &decoder.Decoder{Family: decoder.FamUnsigned64}
	decSigned        = &decoder.Decoder{Family: decoder.FamSigned}
	decSigned64      = &decoder.Decoder{Family: decoder.FamSigned64}
	decBool          = &decoder.Decoder{Family: decoder.FamBool}
	decFixed64       = &decoder.Decoder{Family: decoder.FamFixed64}
	decNoScale       = &decoder.Decoder{Family: decoder.FamNoScale}
	decCoord         = &decoder.Decoder{Family: decoder.FamCoord}
	decRuneTime      = &decoder.Decoder{Family: decoder.FamRuneTime}
	decNormal        = &decoder.Decoder{Family: decoder.FamNormal}
	decString        = &decoder.Decoder{Family: decoder.FamString}
	decHandle        = &decoder.Decoder{Family: decoder.FamHandle}
	decQAngleCoord   = &decoder.Decoder{Family: decoder.FamQAngleCoord}
	decQAnglePrecise = &decoder.Decoder{Family: decoder.FamQAnglePrecise}
	decMinusOne      = &decoder.Decoder{Family: decoder.FamUnsignedMinusOne}
	decPolyPointer   = &decoder.Decoder{Family: decoder.FamPolyPointer}
	decBinaryBlock   = &decoder.Decoder{Family: decoder.FamBinaryBlock}
	decQAngleNoScale = &decoder.Decoder{Family: decoder.FamVector, Components: 3, Elem: decNoScale}
)

// fixedDecoders is step 2 of the seed document: types whose decoder never
// depends on the field's settings. Shared by every game.
var fixedDecoders = map[string]*decoder.Decoder{
	"bool":            decBool,
	"int8":            decSigned,
	"int16":           decSigned,
	"int32":           decSigned,
	"int64":           decSigned64,
	"uint8":           decUnsigned,
	"uint16":          decUnsigned,
	"uint32":          decUnsigned,
	"color32":         decUnsigned,
	"Color":           decUnsigned,
	"CUtlStringToken": decUnsigned,
	"char":            decString,
	"CUtlString":      decString,
	"CUtlSymbolLarge": decString,
	"GameTime_t":      decNoScale,
	"HeroFacetKey_t":  decUnsigned64,
}

// cs2FixedDecoders adds the types CS2 and Deadlock network beyond Dota's
// table. Signed versus unsigned varints consume the same bits, so these
// mostly fix values, not alignment; strings and 64-bit ids change the bits.
var cs2FixedDecoders = map[string]*decoder.Decoder{
	"CGlobalSymbol":        decString,
	"CUtlBinaryBlock":      decBinaryBlock,
	"ResourceId_t":         decUnsigned64,
	"HSequence":            decSigned,
	"CEntityIndex":         decSigned,
	"AmmoIndex_t":          decSigned,
	"EHandle":              decHandle,
	"CGameSceneNodeHandle": decHandle,
}

// pointerTypes lists nested types that are always pointers (fixed tables)
// even where var_type has no '*'.
var pointerTypes = map[game.Game]map[string]bool{
	game.Dota2: {
		"PhysicsRagdollPose_t": true, "CBodyComponent": true, "CEntityIdentity": true,
		"CPhysicsComponent": true, "CRenderComponent": true, "CDOTAGamerules": true,
		"CDOTAGameManager": true, "CDOTASpectatorGraphManager": true, "CPlayerLocalData": true,
		"CPlayer_CameraServices": true, "CDOTAGameRules": true,
	},
	game.CS2:      cs2Pointers,
	game.Deadlock: cs2Pointers,
	game.Unknown:  cs2Pointers,
}

var cs2Pointers = map[string]bool{
	"CBodyComponentDCGBaseAnimating": true, "CBodyComponentBaseAnimating": true,
	"CBodyComponentBaseAnimatingOverlay": true, "CBodyComponentBaseModelEntity": true,
	"CBodyComponent": true, "CBodyComponentSkeletonInstance": true, "CBodyComponentPoint": true,
	"CLightComponent": true, "CRenderComponent": true, "CPhysicsComponent": true,
	"C_BodyComponentBaseAnimating": true, "C_BodyComponentBaseAnimatingOverlay": true,
	"CPlayerLocalData": true,
}

// vectorComponents is how many floats each vector type holds.
var vectorComponents = map[string]uint8{"Vector": 3, "Vector2D": 2, "Vector4D": 4, "VectorWS": 3, "Quaternion": 4}

func isVectorType(base string) bool {
	return base == "CUtlVector" || base == "CNetworkUtlVectorBase" || base == "CUtlVectorEmbeddedNetworkVar"
}

// chooseModel sets the field's model and decoders.
func chooseModel(f *Field, g game.Game) { chooseModelIn(f, g, nil) }

// chooseModelIn is chooseModel taking decoders from m where an earlier
// field alike chose them (nil: none; choosememo.go).
func chooseModelIn(f *Field, g game.Game, m choiceMemo) {
	t := &f.Type
	switch {
	case f.Serializer != nil:
		switch {
		case len(f.Polymorphic) > 0:
			// Polymorphic pointer: presence bit, then which serializer.
			f.Model, f.Decoder = FixedTable, decPolyPointer
			f.Why = fmt.Sprintf("polymorphic pointer to %s (%d alternatives): 1 presence bit, then a ubitvar serializer index", t.Base, len(f.Polymorphic))
		case t.Pointer || pointerTypes[g][t.Base]:
			f.Model, f.Decoder = FixedTable, decBool
			f.Why = "nested serializer behind a pointer: 1 presence bit"
		default:
			f.Model, f.Decoder = VariableTable, decUnsigned
			f.Why = "vector of nested serializers: unsigned varint length"
		}
	case t.Count > 0 && t.Base != "char":
		f.Model = FixedArray
		f.Decoder, f.Why = chooseDecoder(f, g, m)
		if n, err := strconv.Atoi(t.CountName); err == nil && n > MaxArrayCount && f.Problem == "" {
			f.Problem = fmt.Sprintf("array bound %d cut to the limit of %d", n, MaxArrayCount)
		}
	case isVectorType(t.Base):
		f.Model, f.Decoder = VariableArray, decUnsigned
		f.Why = "variable array: unsigned varint length"
		if t.Generic == nil {
			f.Elem, f.ElemWhy = decDefault, "no element type: unsigned varint (fallback)"
			f.Problem = "variable array without an element type"
			return
		}
		f.Elem, f.ElemWhy = m.choose(f, f.Type.Generic.Base, g, true)
	default:
		f.Model = Simple
		f.Decoder, f.Why = chooseDecoder(f, g, m)
	}
}

// chooseByType is steps 2 and 3 of the seed document: the decoder from the
// base type alone.
func chooseByType(base string, g game.Game) (*decoder.Decoder, string) {
	if d, ok := fixedDecoders[base]; ok {
		return d, base + " → " + d.Family.String()
	}
	if g != game.Dota2 {
		if d, ok := cs2FixedDecoders[base]; ok {
			return d, base + " → " + d.Family.String()
		}
	}
	return decDefault, base + " has no known decoder → unsigned varint (fallback)"
}

// chooseElem picks a variable array's element decoder. For Dota 2 the seed
// document's rule holds: the element type alone (steps 2 and 3). CS2 and
// Deadlock network vectors of floats, vectors and angles whose element
// format depends on the array field's own settings (m_PredFloatVariables is
// CNetworkUtlVectorBase< float32 > with 32 bits, m_ragAngles is
// CNetworkUtlVectorBase< QAngle > with 13 bits, m_ragPos is
// CNetworkUtlVectorBase< Vector > with encoder coord), so there the
// element type goes through the same factories as a simple field, with the
// array field's encoder, bit count and range.
func chooseElem(f *Field, g game.Game) (*decoder.Decoder, string) {
	base := f.Type.Generic.Base
	if g == game.Dota2 && f.Correction == nil {
		// (a corrected element reads as its type would in a simple
		// field: the seed's element rule has no 64-bit type)
		return chooseByType(base, g)
	}
	d, why := decoderFor(f, base, g)
	return d, "element " + why
}

// chooseDecoder is the seed document's full order: factories for types
// whose settings matter, then fixed types, then the fallback.
func chooseDecoder(f *Field, g game.Game, m choiceMemo) (*decoder.Decoder, string) {
	if g != game.Dota2 {
		if d, why, ok := chooseByVarSerializer(f); ok {
			return d, why
		}
	}
	return m.choose(f, f.Type.Base, g, false)
}

// chooseByVarSerializer applies CS2 and Deadlock rules keyed on the field's
// var_serializer (or, where older schemas lack it, its name). Dota 2's
// schema carries no var_serializer, and its table stays the seed's.
//
// "minusone" fields (m_iClip1, m_iClip2, m_hSequence, …) are sent plus
// one so that the common -1 costs a single zero byte: read an unsigned
// varint and subtract one. Read as zigzag varints instead, sequence indexes
// come out as -8 or -3 and empty clips as 0 rather than -1.
func chooseByVarSerializer(f *Field) (*decoder.Decoder, string, bool) {
	switch {
	case f.VarSerializer == "minusone" && isIntegerType(f.Type.Base):
		return decMinusOne, f.Type.Base + " with serializer minusone (sent plus one) → unsigned varint − 1", true
	case f.Name == "m_iClip1":
		return decMinusOne, "m_iClip1 is sent plus one → unsigned varint − 1", true
	}
	return nil, "", false
}

// isIntegerType reports whether base is read as a 32-bit varint integer
// (the plain integer types and the handle-like index types).
func isIntegerType(base string) bool {
	switch base {
	case "int8", "int16", "int32", "uint8", "uint16", "uint32", "HSequence", "CEntityIndex", "AmmoIndex_t":
		return true
	}
	return false
}

// decoderFor chooses the decoder for a value of type base carrying f's
// settings (f's own type for simple fields and fixed arrays, the element
// type for variable arrays outside Dota 2).
func decoderFor(f *Field, base string, g game.Game) (*decoder.Decoder, string) {
	switch base {
	case "float32":
		return floatDecoder(f, g)
	case "CNetworkedQuantizedFloat":
		d, why := quantized(f)
		return d, "CNetworkedQuantizedFloat → " + why
	case "Vector", "Vector2D", "Vector4D", "VectorWS", "Quaternion":
		n := vectorComponents[base]
		if n == 3 && f.Encoder == "normal" {
			return decNormal, base + " with encoder normal → packed unit vector"
		}
		elem, why := floatDecoder(f, g)
		return &decoder.Decoder{Family: decoder.FamVector, Components: n, Elem: elem},
			fmt.Sprintf("%s → %d components, each: %s", base, n, why)
	case "QAngle":
		switch {
		case f.Encoder == "qangle_pitch_yaw":
			return &decoder.Decoder{Family: decoder.FamQAnglePitchYaw, Bits: uint8(f.BitCount)},
				fmt.Sprintf("QAngle with encoder qangle_pitch_yaw → pitch and yaw, %d bits each", f.BitCount)
		case f.BitCount == 32 && g != game.Dota2:
			// CS2 and Deadlock send 32-bit QAngles as three raw floats, even
			// with encoder qangle_precise (CBodyComponentBaseModelEntity's
			// m_angRotation). Read as 32-bit fixed-point angles, aim punch
			// comes out near 270°; as floats it is the few degrees it is.
			return decQAngleNoScale, "QAngle with 32 bits → three raw 32-bit floats"
		case f.Encoder == "qangle_precise" && g != game.Dota2:
			return decQAnglePrecise, "QAngle with encoder qangle_precise → presence bits, 20-bit angles"
		case f.BitCount > 0 && f.BitCount <= 32:
			return &decoder.Decoder{Family: decoder.FamQAngleBits, Bits: uint8(f.BitCount)},
				fmt.Sprintf("QAngle with %d bits → three %d-bit angles", f.BitCount, f.BitCount)
		}
		return decQAngleCoord, "QAngle without bit count → presence bits, then coords"
	case "uint64", "CStrongHandle":
		if f.Encoder == "fixed64" {
			return decFixed64, base + " with encoder fixed64 → 64 bits"
		}
		return decUnsigned64, base + " → 64-bit varint"
	case "CHandle", "CEntityHandle":
		return decHandle, base + " → unsigned varint handle"
	}
	return chooseByType(base, g)
}

func floatDecoder(f *Field, g game.Game) (*decoder.Decoder, string) {
	switch f.Encoder {
	case "coord":
		return decCoord, "float32 with encoder coord → coord"
	case "simtime":
		return simTime(g), "float32 with encoder simtime → simulation time"
	case "runetime":
		return decRuneTime, "float32 with encoder runetime → rune time"
	}
	if g != game.Dota2 && (f.VarSerializer == "simulationTimeSerializer" || f.VarSerializer == "animTimeSerializer") {
		return simTime(g), "float32 with serializer " + f.VarSerializer + " → simulation time"
	}
	if !f.BitCountSet || f.BitCount <= 0 || f.BitCount >= 32 {
		return decNoScale, fmt.Sprintf("%s with bit count %s → raw 32-bit float", f.Type.Base, bitCountText(f))
	}
	d, why := quantized(f)
	return d, fmt.Sprintf("%s with %d bits → %s", f.Type.Base, f.BitCount, why)
}

func bitCountText(f *Field) string {
	if !f.BitCountSet {
		return "unset"
	}
	return fmt.Sprint(f.BitCount)
}

func quantized(f *Field) (*decoder.Decoder, string) {
	if !f.BitCountSet || f.BitCount <= 0 || f.BitCount >= 32 {
		return decNoScale, "raw 32-bit float (no usable bit count)"
	}
	q, err := decoder.NewQuantized(f.BitCount, f.EncodeFlags, f.Low, f.LowSet, f.High, f.HighSet)
	if err != nil {
		f.Problem = err.Error()
		return decNoScale, "quantized float set-up failed (" + err.Error() + ") → raw 32-bit float"
	}
	return &decoder.Decoder{Family: decoder.FamQuantized, Q: &q}, "quantized float"
}

// simTickInterval is each game's server tick interval, which turns the
// simulation-time tick counts into seconds. CS2 and Deadlock both run at 64
// ticks a second: svc_ServerInfo says 0.015625 in every shared replay, and
// Deadlock's raw-float game times (m_timeLastUpdate 15.92 s at tick 1020)
// agree with 1/64, not 1/60.
var simTickInterval = map[game.Game]float32{
	game.Dota2:    1.0 / 30,
	game.CS2:      1.0 / 64,
	game.Deadlock: 1.0 / 64,
}

func simTime(g game.Game) *decoder.Decoder {
	ti, ok := simTickInterval[g]
	if !ok {
		ti = 1.0 / 30
	}
	return &decoder.Decoder{Family: decoder.FamSimTime, TickInterval: ti}
}

// setTickInterval makes f's simulation-time decoders (each field has its
// own, simTime) read ticks of the file's tick interval ti, when the file
// gave one: a Deadlock build of 2024 ran at 60 ticks a second where later
// ones run at 64, and the game's usual interval would read every
// simulation time 6 % low.
func setTickInterval(f *Field, ti float32) {
	if ti <= 0 || ti != ti || ti > 1 {
		return
	}
	for _, d := range []*decoder.Decoder{f.Decoder, f.Elem} {
		if d != nil && d.Family == decoder.FamVector {
			d = d.Elem
		}
		if d != nil && d.Family == decoder.FamSimTime {
			d.TickInterval, d.TickOfFile = ti, true
		}
	}
	switch {
	case strings.Contains(f.Why, "simulation time"):
		f.Why += tickNote(ti)
	case strings.Contains(f.ElemWhy, "simulation time"):
		f.ElemWhy += tickNote(ti)
	}
}

func tickNote(ti float32) string {
	return fmt.Sprintf(" (ticks of %g s, svc_ServerInfo's tick interval)", ti)
}
