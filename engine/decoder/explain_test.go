package decoder

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

// checkExplain reads data from skip with d twice, with DecodeTo and with
// Explain, and fails unless both read the same bits (same end, same
// overflow) to the same value, and the steps' bits lie inside the read.
func checkExplain(t *testing.T, d *Decoder, data []byte, skip uint) []Step {
	t.Helper()
	r1, r2 := bitio.NewReader(data), bitio.NewReader(data)
	r1.Skip(skip)
	r2.Skip(skip)
	start := r1.Pos()
	var want Value
	d.DecodeTo(r1, &want)
	got, steps := d.Explain(r2)
	if r1.Pos() != r2.Pos() || r1.Overflowed() != r2.Overflowed() {
		t.Fatalf("%s: DecodeTo read %d bits (overflow %v), Explain %d (overflow %v)", d.Describe(), r1.Pos()-start, r1.Overflowed(), r2.Pos()-start, r2.Overflowed())
	}
	if !got.Equal(want) {
		t.Fatalf("%s: DecodeTo read %v (%+v), Explain %v (%+v)", d.Describe(), want, want, got, got)
	}
	for _, s := range steps {
		if s.Kind == StepBits && (s.Span.Start < start || s.Span.End() > r1.Pos()) {
			t.Fatalf("%s: step %q covers %s, outside the read %s", d.Describe(), s.Label, s.Span, bitio.Span{Start: start, Bits: r1.Pos() - start})
		}
	}
	return steps
}

// FuzzExplain holds every family's walk-through to its decoder: the same
// bits read, the same value, whatever the data and parameters.
func FuzzExplain(f *testing.F) {
	for fam := range Families() {
		f.Add([]byte{0x96, 0x01, 0xab, 0xcd, 0xef, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b}, uint8(fam), uint8(1), uint8(11), uint8(3), int32(13), int32(QuantRoundDown|QuantEncodeZero), float32(-100), float32(100), true, true, uint8(fam))
	}
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x7f}, uint8(FamSigned), uint8(0), uint8(0), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Add([]byte{0x05, 'a', 'b'}, uint8(FamBinaryBlock), uint8(0), uint8(0), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Add([]byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x11}, uint8(FamQAngleBits), uint8(0), uint8(40), uint8(0), int32(0), int32(0), float32(0), float32(0), false, false, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, fam, elemFam, bits, comps uint8, qbits, qflags int32, low, high float32, lowSet, highSet bool, skip uint8) {
		d := fuzzDecoder(fam, elemFam, bits, comps, qbits, qflags, low, high, lowSet, highSet)
		checkExplain(t, d, data, uint(skip%8))
	})
}

// Every family has a walk-through: on ordinary data each reads its bits
// in steps that say what they are, and none is left to raw bits.
func TestExplainEveryFamily(t *testing.T) {
	data := []byte{0x96, 0x01, 0xab, 0xcd, 0xef, 0x41, 0x42, 0x43, 0x00, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d}
	q, err := NewQuantized(13, QuantRoundDown, -100, true, 100, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range Families() {
		d := &Decoder{Family: fam, Bits: 11, Components: 3, Q: &q, TickInterval: 1.0 / 30}
		if fam == FamVector {
			d.Elem = &Decoder{Family: FamQuantized, Q: &q}
		}
		if fam == FamBinaryBlock {
			data[0] = 0x03 // a block that fits
		}
		steps := checkExplain(t, d, data, 0)
		read, math := 0, 0
		for _, s := range steps {
			switch s.Kind {
			case StepBits:
				read++
			case StepMath:
				math++
			}
			if s.Label == "" || (s.Kind == StepBits && s.Raw == "") || (s.Kind != StepBits && s.Text == "") {
				t.Errorf("%s: incomplete step %+v", fam, s)
			}
		}
		if read == 0 || (math == 0 && fam != FamBool && fam != FamPolyPointer) {
			t.Errorf("%s: %d steps reading bits, %d of arithmetic: %+v", fam, read, math, steps)
		}
	}
}

// A 5-byte varint read as 32 bits: the walk-through says what is kept.
func TestExplainVarintKeptIn32Bits(t *testing.T) {
	d := &Decoder{Family: FamUnsigned}
	steps := checkExplain(t, d, []byte{0xff, 0xff, 0xff, 0xff, 0x7f}, 0)
	last := steps[len(steps)-1]
	if !strings.Contains(last.Text, "kept in 32 bits = 4294967295") {
		t.Errorf("last step %q", last.Text)
	}
}

// A binary block longer than the data is an over-read in both.
func TestExplainBinaryBlockOverRead(t *testing.T) {
	steps := checkExplain(t, &Decoder{Family: FamBinaryBlock}, []byte{0x7f, 1, 2}, 0)
	if last := steps[len(steps)-1]; !strings.Contains(last.Text, "over-read") {
		t.Errorf("last step %q", last.Text)
	}
}
