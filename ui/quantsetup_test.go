package ui

import (
	"testing"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/schema"
)

// The Decoder section spells a quantized float's set-up out with its
// arithmetic: m_fWidth's float32 check that keeps ROUNDUP, Dota's
// m_flPlaybackRate (flags -8) with its unknown flag bits and the
// ENCODE_INTEGERS widening (docs/format.md §6).
func TestExplainQuantizedSetUp(t *testing.T) {
	q, err := decoder.NewQuantized(10, decoder.QuantRoundUp, 0, true, 102.3, true)
	if err != nil {
		t.Fatal(err)
	}
	sf := &schema.Field{VarType: "float32", BitCount: 10, BitCountSet: true, EncodeFlags: decoder.QuantRoundUp, Low: 0, LowSet: true, High: 102.3, HighSet: true}
	in := oneField(t, &decoder.Decoder{Family: decoder.FamQuantized, Q: &q}, sf, func(w *bitio.Writer) { w.Bool(true) })
	requireLines(t, explainText(Explain(in)),
		"set-up\tschema: 10 bits, 0 … 102.3, encode_flags 2 = ROUNDUP",
		"ROUNDUP: low += (high − low) / 2^10 = 0 + 102.3 / 1024 = 0.09990235",
		"= uint32(1022.99994) = 1022, read back 102.2001 ≠ 102.3: missed: ROUNDUP kept",
	)

	q, err = decoder.NewQuantized(10, -8, 0, true, 5, true)
	if err != nil {
		t.Fatal(err)
	}
	sf = &schema.Field{VarType: "float32", BitCount: 10, BitCountSet: true, EncodeFlags: -8, LowSet: true, High: 5, HighSet: true}
	vd := &decoder.Decoder{Family: decoder.FamVector, Components: 1, Elem: &decoder.Decoder{Family: decoder.FamQuantized, Q: &q}}
	in = oneField(t, vd, sf, func(w *bitio.Writer) { w.Bits(384, 10) })
	requireLines(t, explainText(Explain(in)),
		"encode_flags -8 = ENCODE_INTEGERS|0xfffffff0",
		"bits 0xfffffff0 above the four flags: no flag is known there and nothing reads them; no bit, no effect",
		"range = 2^ceil(log2(max(high − low, 1))) = 2^ceil(log2 5) = 2^3 = 8",
		"high = low + range − range / 2^10 = 0 + 8 − 0.0078125 = 7.9921875; a step is 7.9921875 / 1023 = 0.0078125",
	)
	// Other decoders have no set-up lines.
	in = oneField(t, &decoder.Decoder{Family: decoder.FamUnsigned}, nil, func(w *bitio.Writer) { w.VarUint32(3) })
	if quantSetupLines(&in.Rec.Fields[0]) != nil {
		t.Error("set-up lines for a varint")
	}
}
