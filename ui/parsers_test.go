package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/sample"
)

// A field's inspector ends with how each public parser of the game reads
// that read: the sample's captain player id 1 (a corrected PlayerID_t)
// reads 2 in Manta, which has no entry for the type. p shows the file's
// forecast with the fix in Manta's idiom, and hides it again.
func TestParsersInInspector(t *testing.T) {
	hs := newHarness(t, "sample", sample.Replay, 160, 48)
	hs.keys("/")
	hs.typ("m_iCaptainPlayerIDs")
	hs.keys("enter")
	text := inspectorText(hs)
	if !strings.Contains(text, "Parsers · this read") || !strings.Contains(text, "Manta") || !strings.Contains(text, "value 2 · reads it unsigned varint, its fallback for PlayerID_t") {
		t.Fatalf("no parsers section for the captain id:\n%s", text)
	}
	hs.keys("p")
	text = inspectorText(hs)
	if !strings.Contains(text, "Parsers · this file") || !strings.Contains(text, `"PlayerID_t": signedDecoder,`) || !strings.Contains(text, "fieldTypeDecoders") {
		t.Fatalf("p: no forecast of the file:\n%s", text)
	}
	hs.keys("p")
	if strings.Contains(inspectorText(hs), "Parsers · this file") {
		t.Fatal("p again did not hide the forecast")
	}
}
