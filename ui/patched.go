package ui

import (
	"strings"

	"github.com/dembug/dembug/engine/schema"
)

// patchedMark follows an encoder the schema does not have, set by a
// correction (schema.Field.Patched: the simulation times' simtime, set by
// name), as `dembug schema` marks it.
const patchedMark = " (patched: not in the schema)"

// encoderText is a field's encoder as the inspector prints it: marked when
// a correction set it.
func encoderText(s *schema.Field) string {
	if s.Patched != "" {
		return s.Encoder + patchedMark
	}
	return s.Encoder
}

// markPatchedEncoder marks the encoder a decoder choice's reason names
// ("float32 with encoder simtime → simulation time") when a correction,
// not the schema, set it.
func markPatchedEncoder(why string, s *schema.Field) string {
	if s == nil || s.Patched == "" || s.Encoder == "" {
		return why
	}
	enc := "encoder " + s.Encoder
	i := strings.Index(why, enc)
	if i < 0 || strings.HasPrefix(why[i+len(enc):], patchedMark) {
		return why
	}
	return why[:i+len(enc)] + patchedMark + why[i+len(enc):]
}
