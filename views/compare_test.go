package views

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

func compareInput() CompareInput {
	return CompareInput{
		Title: "Compare · first difference", What: "bits", Sentence: "they read 14 bits, we read 13",
		Where: "tick 3, entity 7 CDOTA_Unit_Hero_Axe, m_flMana", Theirs: "line 12 of their trace",
		Rows: []CompareRow{
			{Label: "decoder", Theirs: "(not given)", Ours: "quantized float"},
			{Label: "bit offset", Theirs: "0x1.5", Ours: "0x1.5"},
			{Label: "bits", Theirs: "14", Ours: "13", Differs: true},
			{Label: "value", Theirs: "69.1875", Ours: "69.1875"},
			{Label: "read", Theirs: "01101001100001", Ours: "0110100110000", Bits: true},
		},
		Why:     "float32 with bit count 13 → quantized float",
		Summary: "40 reads compared, 31 equal; 9 differences",
	}
}

// The compare section: what differs, then each property once when both
// agree and theirs above ours when not.
func TestCompareSection(t *testing.T) {
	sec := CompareSection(compareInput())
	var text []string
	for _, l := range sec.Lines {
		text = append(text, l.Label+"|"+l.Text)
	}
	got := strings.Join(text, "\n")
	for _, want := range []string{"differs|bits: they read 14 bits, we read 13", "bit offset|0x1.5  (both)",
		"bits|theirs 14\n|ours   13", "read|theirs 01101001100001\n|ours   0110100110000", "decoder|theirs (not given)\n|ours   quantized float"} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
	for _, th := range []Theme{NoColorTheme(), DefaultTheme()} {
		out := Inspector(InspectorInput{Sections: []InspectorSection{sec}, Width: 44, Height: 20, Theme: th})
		if th.NoColor {
			requireGolden(t, out)
		}
		if n := len(strings.Split(out, "\n")); n > 20 {
			t.Fatalf("%d lines", n)
		}
	}
}

// Their bit range is marked on a line of its own under ours: one mark per
// bit of theirs, none elsewhere.
func TestHexBitsMarksTheirBits(t *testing.T) {
	spans := interleaved() // field 0's value is bits 13..25
	theirs := Span{Span: bitio.Span{Start: 13, Bits: 14}, Kind: SpanValue, Field: -1}
	out := HexBits(HexBitsInput{Data: testData(16), Spans: spans, Selected: 2, Width: 80, Height: 10, Theme: NoColorTheme(), Theirs: &theirs})
	lines := strings.Split(out, "\n")
	var bitsLine, theirsLine string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "bits"):
			bitsLine = l
		case strings.HasPrefix(l, "theirs"):
			theirsLine = l
		}
	}
	if theirsLine == "" || !strings.Contains(out, "· theirs 0x1.5") {
		t.Fatalf("no line or title for their bits:\n%s", out)
	}
	marks := 0
	for col, r := range theirsLine {
		if r != compareMark {
			continue
		}
		marks++
		if col >= len(bitsLine) || (bitsLine[col] != '0' && bitsLine[col] != '1') {
			t.Fatalf("mark at column %d is under no bit:\n%s", col, out)
		}
	}
	if marks != 14 {
		t.Fatalf("%d marks, want 14:\n%s", marks, out)
	}
	requireGolden(t, out)
}
