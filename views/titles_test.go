package views

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
)

// Rows that are no entity's fields are headed by their own titles, and the
// bitstream summary names their pieces in their own words.
func TestOwnTitlesAndWords(t *testing.T) {
	titles := [7]string{"entry", "read", "part", "encoding", "offset", "bits", "value"}
	out := FieldTable(FieldTableInput{Rows: []FieldRow{{Path: "#3", Name: "jump", Type: "index", Decoder: "varuint32", Offset: "0x0.1", Bits: 8, Value: "3"}},
		Selected: 0, Width: 100, Height: 5, Theme: NoColorTheme(), Titles: &titles})
	head := strings.Fields(strings.SplitN(out, "\n", 2)[0])
	if strings.Join(head, " ") != "entry read part encoding offset bits value" {
		t.Errorf("headings %q", head)
	}
	spans := []Span{{Span: bitio.Span{Start: 0, Bits: 1}, Kind: SpanHeader, Field: 0}, {Span: bitio.Span{Start: 1, Bits: 8}, Kind: SpanPath, Field: 1}}
	words := SpanWords{Piece: "read", Kinds: [3]string{"index", "key", "value"}}
	out = HexBits(HexBitsInput{Data: []byte{1, 2, 3}, Spans: spans, Selected: 1, Width: 100, Theme: NoColorTheme(), Words: &words})
	if !strings.Contains(out, "read 1 · key 0x0.1") || strings.Contains(out, "field") || strings.Contains(out, "path") {
		t.Errorf("the summary does not name a read:\n%s", out)
	}
	out = HexBits(HexBitsInput{Data: []byte{1, 2, 3}, Spans: spans, Selected: 1, Width: 100, Theme: NoColorTheme()})
	if !strings.Contains(out, "field 1 · path 0x0.1") {
		t.Errorf("without words the summary names a field:\n%s", out)
	}
}
