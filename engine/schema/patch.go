package schema

import "github.com/dembug/dembug/engine/game"

// patchField corrects schema entries that Valve's own clients decode
// differently from what the flattened serializer says. Every mature parser
// carries the same corrections: without them the simulation-time fields are
// read as 32-bit floats instead of varint ticks and the packet misaligns.
func patchField(f *Field, g game.Game) {
	if f.Type.Base != "float32" || f.Encoder != "" {
		return
	}
	switch f.Name {
	case "m_flSimulationTime", "m_flAnimTime":
		f.Encoder, f.Patched = "simtime", "encoder simtime (not in the schema; set by name, as Valve's client does)"
	case "m_flRuneTime":
		if g == game.Dota2 {
			f.Encoder, f.Patched = "runetime", "encoder runetime (not in the schema; set by name, as Valve's client does)"
		}
	}
}
