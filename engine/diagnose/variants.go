package diagnose

import (
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
)

// quantVariants are the field's quantized float with other bit counts and
// without its flags: the same range, the schema read differently.
func quantVariants(q *decoder.Quantized, s *schema.Field) []*decoder.Decoder {
	low, lowSet, high, highSet := q.SchemaLow, true, q.SchemaHigh, true
	flags := q.SchemaFlags
	if s != nil {
		low, lowSet, high, highSet = s.Low, s.LowSet, s.High, s.HighSet
	}
	var out []*decoder.Decoder
	add := func(bits, flags int32) {
		nq, err := decoder.NewQuantized(bits, flags, low, lowSet, high, highSet)
		if err == nil {
			out = append(out, &decoder.Decoder{Family: decoder.FamQuantized, Q: &nq})
		}
	}
	for _, d := range []int32{-2, -1, 1, 2} {
		add(q.SchemaBits+d, flags)
	}
	if flags != 0 {
		add(q.SchemaBits, 0)
	}
	return out
}

// FamilyVariants are decoders of the field's own family (or a close one)
// with other parameters.
func FamilyVariants(f *provenance.Field) []*decoder.Decoder {
	d := f.Decoder
	if d == nil {
		return nil
	}
	var out []*decoder.Decoder
	switch d.Family {
	case decoder.FamQuantized:
		if d.Q != nil {
			out = quantVariants(d.Q, f.Schema)
		}
	case decoder.FamVector:
		if d.Elem != nil && d.Elem.Family == decoder.FamQuantized && d.Elem.Q != nil {
			for _, e := range quantVariants(d.Elem.Q, f.Schema) {
				out = append(out, &decoder.Decoder{Family: decoder.FamVector, Components: d.Components, Elem: e})
			}
		}
		for _, n := range []uint8{2, 3, 4} {
			if n != d.Components && d.Elem != nil {
				out = append(out, &decoder.Decoder{Family: decoder.FamVector, Components: n, Elem: d.Elem})
			}
		}
		if d.Elem != nil && d.Elem.Family != decoder.FamCoord {
			out = append(out, &decoder.Decoder{Family: decoder.FamVector, Components: d.Components, Elem: &decoder.Decoder{Family: decoder.FamCoord}})
		}
	case decoder.FamQAngleBits, decoder.FamQAnglePitchYaw:
		for _, b := range []int{-2, -1, 1, 2} {
			if n := int(d.Bits) + b; n >= 1 && n <= 32 {
				out = append(out, &decoder.Decoder{Family: d.Family, Bits: uint8(n)})
			}
		}
		out = append(out, &decoder.Decoder{Family: decoder.FamQAnglePrecise})
	case decoder.FamUnsigned, decoder.FamDefault, decoder.FamUnsigned64, decoder.FamSigned, decoder.FamSigned64,
		decoder.FamUnsignedMinusOne, decoder.FamHandle:
		for _, fam := range []decoder.Family{decoder.FamSigned, decoder.FamSigned64, decoder.FamUnsignedMinusOne, decoder.FamHandle} {
			out = append(out, &decoder.Decoder{Family: fam})
		}
	case decoder.FamNoScale, decoder.FamCoord, decoder.FamSimTime, decoder.FamRuneTime:
		if s := f.Schema; s != nil && s.BitCountSet && s.BitCount > 0 && s.BitCount < 32 {
			if q, err := decoder.NewQuantized(s.BitCount, s.EncodeFlags, s.Low, s.LowSet, s.High, s.HighSet); err == nil {
				out = append(out, &decoder.Decoder{Family: decoder.FamQuantized, Q: &q})
			}
		}
	case decoder.FamString:
		out = append(out, &decoder.Decoder{Family: decoder.FamBinaryBlock})
	}
	return out
}
