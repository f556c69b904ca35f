package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/views"
)

// oneField builds a message holding one update with one field: a
// PlusOne path op at bit 3, then the value written by write, decoded by d.
func oneField(t *testing.T, d *decoder.Decoder, sf *schema.Field, write func(w *bitio.Writer)) ExplainInput {
	t.Helper()
	var w bitio.Writer
	w.Bits(0b101, 3) // unrelated leading bits: the field starts mid-byte
	code := fieldpath.CodeOf(fieldpath.PlusOne)
	opStart := w.Len()
	w.Bits(uint64(code.Bits), uint(code.Len))
	fin := fieldpath.CodeOf(fieldpath.Finish)
	w.Bits(uint64(fin.Bits), uint(fin.Len))
	start := w.Len()
	write(&w)
	end := w.Len()
	w.Bits(0, 7)
	data := w.Bytes()

	var r bitio.Reader
	r.Reset(data)
	r.Seek(start)
	v := d.Decode(&r)
	if r.Pos() != end {
		t.Fatalf("fixture: decoder read %d bits, %d written", r.Pos()-start, end-start)
	}
	path := fieldpath.Path{}
	rec := &provenance.Message{
		Updates: []provenance.EntityUpdate{{Index: 7, Class: "CTest", Op: provenance.Update, PathStart: opStart,
			PathBits: start - opStart, NumFields: 1, End: end}},
		Fields: []provenance.Field{{
			Path: path, Op: fieldpath.OpRecord{Op: fieldpath.PlusOne, Start: opStart, Bits: uint(code.Len)},
			Name: "m_test", Schema: sf, Decoder: d, Why: "test", Start: start, Bits: end - start, Value: v,
		}},
	}
	return ExplainInput{Rec: rec, Data: data, Update: 0, Field: 0}
}

func explainText(secs []views.InspectorSection) string {
	var b strings.Builder
	for _, s := range secs {
		b.WriteString("## " + s.Title + "\n")
		for _, l := range s.Lines {
			b.WriteString(l.Label + "\t" + l.Text + "\n")
		}
	}
	return b.String()
}

func requireLines(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("explanation lacks %q:\n%s", w, text)
		}
	}
}

// The example of issue 3: a 13-bit quantized float over 0…256 with
// ROUNDDOWN, raw 2214.
func TestExplainQuantized(t *testing.T) {
	q, err := decoder.NewQuantized(13, decoder.QuantRoundDown, 0, true, 256, true)
	if err != nil {
		t.Fatal(err)
	}
	d := &decoder.Decoder{Family: decoder.FamQuantized, Q: &q}
	sf := &schema.Field{Name: "m_vecX", VarType: "CNetworkedQuantizedFloat", BitCount: 13, BitCountSet: true,
		Low: 0, High: 256, LowSet: true, HighSet: true, EncodeFlags: decoder.QuantRoundDown}
	in := oneField(t, d, sf, func(w *bitio.Writer) { w.Bits(2214, 13) })
	text := explainText(Explain(in))
	requireLines(t, text,
		"quantized float: 13 bits, 0 … 255.96875 (schema: 0 … 256, flags ROUNDDOWN → dropped at set-up: low already exact)",
		"@0x0.6  0110010100010  = 2214", // 2214 LSB first, after 3 + 1 + 2 bits
		"FieldPathEncodeFinish (code 10) at 0x0.4 ends the paths",
		"2214 / 8191 × 255.96875 = 69.1875",
		"69.1875",
		"PlusOne",
		fieldpath.CodeOf(fieldpath.PlusOne).String()+" (1 bit, Huffman)",
	)
}

func TestExplainQuantizedFlagBits(t *testing.T) {
	// ENCODE_ZERO kept (0 is not exactly reachable in 5 bits over -10…10):
	// its flag bit is read first and explained, then the value.
	q, err := decoder.NewQuantized(5, decoder.QuantEncodeZero, -10, true, 10, true)
	if err != nil {
		t.Fatal(err)
	}
	if q.Flags != decoder.QuantEncodeZero {
		t.Fatalf("fixture: flags after set-up %s, want ENCODE_ZERO", decoder.FlagNames(q.Flags))
	}
	d := &decoder.Decoder{Family: decoder.FamQuantized, Q: &q}
	in := oneField(t, d, nil, func(w *bitio.Writer) { w.Bool(false); w.Bits(20, 5) })
	requireLines(t, explainText(Explain(in)),
		"ENCODE_ZERO bit clear → read the value",
		"@0x0.7  00101  = 20",
		"-10 + 20 / 31 × (10 - -10) = ",
		"flags ENCODE_ZERO kept",
	)
	in = oneField(t, d, nil, func(w *bitio.Writer) { w.Bool(true) })
	requireLines(t, explainText(Explain(in)), "ENCODE_ZERO bit set → value is 0")
}

func TestExplainVarints(t *testing.T) {
	in := oneField(t, &decoder.Decoder{Family: decoder.FamUnsigned}, nil, func(w *bitio.Writer) { w.VarUint32(300) })
	requireLines(t, explainText(Explain(in)),
		"0xac 0x02; top bit set on each byte but the last",
		"more 0101100 (44), last 0000010 (2)",
		"44 + 2×2^7 = 300",
	)
	in = oneField(t, &decoder.Decoder{Family: decoder.FamSigned}, nil, func(w *bitio.Writer) { w.VarInt32(-3) })
	requireLines(t, explainText(Explain(in)), "5 is odd → -(5 + 1) / 2 = -3")
	in = oneField(t, &decoder.Decoder{Family: decoder.FamHandle}, nil, func(w *bitio.Writer) { w.VarUint32(367<<14 | 981) })
	requireLines(t, explainText(Explain(in)), "entity index = low 14 bits = 981, serial = the rest = 367")
}

func TestExplainFloats(t *testing.T) {
	in := oneField(t, &decoder.Decoder{Family: decoder.FamNoScale}, nil, func(w *bitio.Writer) { w.Float32(69.1875) })
	requireLines(t, explainText(Explain(in)),
		"sign 0 · exponent 10000101 · mantissa 00010100110000000000000",
		"+1.0810546875 × 2^(133 - 127) = +1.0810546875 × 2^6 = 69.1875",
	)
	// Coord: −124.53125 = −(123+1 + 17/32).
	in = oneField(t, &decoder.Decoder{Family: decoder.FamCoord}, nil, func(w *bitio.Writer) {
		w.Bool(true)
		w.Bool(true)
		w.Bool(true)
		w.Bits(123, 14)
		w.Bits(17, 5)
	})
	requireLines(t, explainText(Explain(in)), "= 123, stored minus one → 124", "-(124 + 17/32) = -124.53125")
	// A vector explains each component.
	q, _ := decoder.NewQuantized(10, 0, 0, true, 1024, true)
	vd := &decoder.Decoder{Family: decoder.FamVector, Components: 3, Elem: &decoder.Decoder{Family: decoder.FamQuantized, Q: &q}}
	in = oneField(t, vd, nil, func(w *bitio.Writer) { w.Bits(1, 10); w.Bits(2, 10); w.Bits(1023, 10) })
	requireLines(t, explainText(Explain(in)), "x =\t1 / 1023 × 1024", "y =\t2 / 1023 × 1024", "z =\t1023 / 1023 × 1024 = 1024")
}

func TestExplainSayThatBitsDisagree(t *testing.T) {
	in := oneField(t, &decoder.Decoder{Family: decoder.FamUnsigned}, nil, func(w *bitio.Writer) { w.VarUint32(5) })
	in.Rec.Fields[0].Bits = 12 // the record claims more bits than a re-read uses
	requireLines(t, explainText(Explain(in)), "re-reading used 8 bits, the decode used 12")
}
