package decoder

// familyIDs are the families' short names: stable keys for scripts
// (trace and schema --json print them as "family"), where the names above
// are prose.
var familyIDs = [famCount]string{
	FamUnsigned:         "unsigned",
	FamDefault:          "default",
	FamUnsigned64:       "unsigned64",
	FamSigned:           "signed",
	FamSigned64:         "signed64",
	FamBool:             "bool",
	FamFixed64:          "fixed64",
	FamNoScale:          "noscale",
	FamQuantized:        "quantized",
	FamCoord:            "coord",
	FamSimTime:          "simtime",
	FamRuneTime:         "runetime",
	FamNormal:           "normal",
	FamQAnglePitchYaw:   "qangle_pitch_yaw",
	FamQAngleBits:       "qangle_bits",
	FamQAngleCoord:      "qangle_coord",
	FamQAnglePrecise:    "qangle_precise",
	FamVector:           "vector",
	FamString:           "string",
	FamHandle:           "handle",
	FamUnsignedMinusOne: "unsigned_minus_one",
	FamPolyPointer:      "poly_pointer",
	FamBinaryBlock:      "binary_block",
}

// ID is the family's short, stable name ("quantized", "noscale").
func (f Family) ID() string {
	if f < famCount {
		return familyIDs[f]
	}
	return "unknown"
}
