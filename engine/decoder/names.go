package decoder

import (
	"fmt"
	"math/bits"
	"strings"
)

// Every name a decoder goes by, in one place: the family's name (String)
// and stable key (ID), what a decoder reads with its parameters
// (Describe), the same without the schema's side (Label), a compact form
// for tables (Short), and how a quantized float's set-up changed what the
// schema asked for (Setup).

// families holds each family's names: prose (String), a compact form for
// tables (Short) and a stable key for scripts (ID: trace and schema --json
// print it as "family").
var families = [famCount]struct{ name, short, id string }{
	FamUnsigned:         {"unsigned varint", "varint", "unsigned"},
	FamDefault:          {"default (unsigned varint)", "default", "default"}, // not "varint?": ? marks a weak anomaly
	FamUnsigned64:       {"64-bit varint", "varint64", "unsigned64"},
	FamSigned:           {"signed varint", "zigzag", "signed"},
	FamSigned64:         {"signed 64-bit varint", "zigzag64", "signed64"},
	FamBool:             {"boolean", "bool", "bool"},
	FamFixed64:          {"fixed 64-bit", "fixed64", "fixed64"},
	FamNoScale:          {"raw 32-bit float", "float32", "noscale"},
	FamQuantized:        {"quantized float", "quant", "quantized"},
	FamCoord:            {"coord", "coord", "coord"},
	FamSimTime:          {"simulation time", "simtime", "simtime"},
	FamRuneTime:         {"rune time", "runetime", "runetime"},
	FamNormal:           {"normal vector", "normal", "normal"},
	FamQAnglePitchYaw:   {"angle (pitch/yaw)", "qangle2", "qangle_pitch_yaw"},
	FamQAngleBits:       {"angle (n-bit)", "qangle3", "qangle_bits"},
	FamQAngleCoord:      {"angle (coord form)", "qangle·coord", "qangle_coord"},
	FamQAnglePrecise:    {"angle (precise)", "qangle·20", "qangle_precise"},
	FamVector:           {"vector", "vec", "vector"},
	FamString:           {"string", "string", "string"},
	FamHandle:           {"handle", "handle", "handle"},
	FamUnsignedMinusOne: {"unsigned varint − 1", "varint−1", "unsigned_minus_one"},
	FamPolyPointer:      {"polymorphic pointer", "polyptr", "poly_pointer"},
	FamBinaryBlock:      {"binary block", "binary", "binary_block"},
}

func (f Family) String() string {
	if f < famCount {
		return families[f].name
	}
	return fmt.Sprintf("family(%d)", uint8(f))
}

// ID is the family's short, stable name ("quantized", "noscale").
func (f Family) ID() string {
	if f < famCount {
		return families[f].id
	}
	return "unknown"
}

// Describe says what the decoder reads, with its parameters after set-up:
// "quantized float: 13 bits, 0 … 255.96875, flags none (schema ROUNDDOWN)".
func (d *Decoder) Describe() string {
	switch d.Family {
	case FamQuantized:
		q := d.Q
		s := fmt.Sprintf("quantized float: %d bits, %g … %g, flags %s", q.Bits, q.Low, q.High, FlagNames(q.Flags))
		if uint32(q.SchemaFlags) != q.Flags || uint32(q.SchemaBits) != q.Bits {
			s += fmt.Sprintf(" (schema: %d bits, %g … %g, flags %s)", q.SchemaBits, q.SchemaLow, q.SchemaHigh, FlagNames(uint32(q.SchemaFlags)))
		}
		return s
	case FamQAnglePitchYaw, FamQAngleBits:
		return fmt.Sprintf("%s: %d bits per angle", d.Family, d.Bits)
	case FamVector:
		return fmt.Sprintf("vector of %d × %s", d.Components, d.Elem.Describe())
	case FamSimTime:
		return fmt.Sprintf("simulation time: varint ticks × %g s", d.TickInterval)
	}
	return d.Family.String()
}

// Label describes the decoder compactly: as Describe, without the schema's
// side of a quantized float.
func (d *Decoder) Label() string {
	switch {
	case d.Family == FamQuantized && d.Q != nil:
		q := d.Q
		s := fmt.Sprintf("quantized float: %d bits, %s … %s", q.Bits, g(float64(q.Low)), g(float64(q.High)))
		if q.Flags != 0 {
			s += ", " + FlagNames(q.Flags)
		}
		return s
	case d.Family == FamVector && d.Elem != nil:
		return fmt.Sprintf("vector of %d × %s", d.Components, d.Elem.Label())
	}
	return d.Describe()
}

// Short is a compact name for a field table: "quant13", "vec3×coord";
// "?" for no decoder.
func (d *Decoder) Short() string {
	if d == nil {
		return "?"
	}
	switch d.Family {
	case FamQuantized:
		if d.Q != nil {
			return fmt.Sprintf("quant%d", d.Q.Bits)
		}
	case FamQAnglePitchYaw, FamQAngleBits:
		return fmt.Sprintf("%s×%d", families[d.Family].short, d.Bits)
	case FamVector:
		return fmt.Sprintf("vec%d×%s", d.Components, d.Elem.Short())
	}
	if d.Family < famCount {
		return families[d.Family].short
	}
	return d.Family.String()
}

// Setup says what a quantized float reads after set-up beside what the
// schema asked for, and why each flag was kept, dropped or added.
func (q *Quantized) Setup() string {
	s := fmt.Sprintf("quantized float: %d bits, %s … %s", q.Bits, g(float64(q.Low)), g(float64(q.High)))
	if q.Flags != 0 {
		s += ", flags " + FlagNames(q.Flags)
	}
	var notes []string
	if q.SchemaLow != q.Low || q.SchemaHigh != q.High {
		notes = append(notes, fmt.Sprintf("schema: %s … %s", g(float64(q.SchemaLow)), g(float64(q.SchemaHigh))))
	}
	if uint32(q.SchemaBits) != q.Bits {
		notes = append(notes, fmt.Sprintf("schema %d bits, widened by ENCODE_INTEGERS", q.SchemaBits))
	}
	sf := uint32(q.SchemaFlags)
	if sf != 0 || q.Flags != 0 {
		if sf == q.Flags {
			notes = append(notes, "flags "+FlagNames(sf)+" kept")
		} else {
			notes = append(notes, "flags "+FlagNames(sf)+" → "+q.flagChanges())
		}
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	return s
}

var flagNames = [...]struct {
	bit  uint32
	name string
}{{QuantRoundDown, "ROUNDDOWN"}, {QuantRoundUp, "ROUNDUP"}, {QuantEncodeZero, "ENCODE_ZERO"}, {QuantEncodeIntegers, "ENCODE_INTEGERS"}}

// FlagNames spells flags out, e.g. "ROUNDDOWN|ENCODE_ZERO" or "none".
func FlagNames(flags uint32) string {
	var parts []string
	for _, f := range flagNames {
		if flags&f.bit != 0 {
			parts = append(parts, f.name)
		}
	}
	if flags&^15 != 0 {
		parts = append(parts, fmt.Sprintf("0x%x", flags&^15))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "|")
}

// flagChanges says why set-up dropped or added each flag: the rules of
// validateFlags and of NewQuantized's last step, in words.
func (q *Quantized) flagChanges() string {
	sf, af := uint32(q.SchemaFlags), q.Flags
	ints := sf&QuantEncodeIntegers != 0
	var parts []string
	for _, f := range flagNames {
		had, has := sf&f.bit != 0, af&f.bit != 0
		switch {
		case had && !has:
			why := ""
			switch {
			case ints:
				why = "ENCODE_INTEGERS overrides it"
			case f.bit == QuantRoundDown:
				why = "low already exact"
			case f.bit == QuantRoundUp:
				why = "high already exact"
			case f.bit == QuantEncodeZero && q.SchemaLow == 0:
				why = "low is 0, so ROUNDDOWN covers it"
			case f.bit == QuantEncodeZero && q.SchemaHigh == 0:
				why = "high is 0, so ROUNDUP covers it"
			case f.bit == QuantEncodeZero && (q.SchemaLow > 0 || q.SchemaHigh < 0):
				why = "0 is outside the range"
			default:
				why = "0 already exact"
			}
			parts = append(parts, f.name+" dropped at set-up: "+why)
		case !had && has:
			parts = append(parts, f.name+" added at set-up (from ENCODE_ZERO at a range end)")
		}
	}
	if len(parts) == 0 {
		return "unchanged"
	}
	if len(parts) == 1 && bits.OnesCount32(sf) == 1 && af == 0 {
		// One flag, dropped: "flags ROUNDDOWN → dropped at set-up: …".
		if _, rest, ok := strings.Cut(parts[0], " dropped"); ok {
			return "dropped" + rest
		}
	}
	return strings.Join(parts, "; ")
}
