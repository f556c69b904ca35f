package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/writer"
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

// A file that misaligns: p forecasts every parser misreading the renamed
// type where the inference found the break, as check does, not "right"
// from the values the index pass kept before it.
func TestParsersOnAMisalignedFile(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	patched, n, err := writer.RenameInSchema(data, writer.Rename{From: "bool", To: "NetBool_t"})
	if err != nil || n == 0 {
		t.Fatal(err)
	}
	hs := newHarness(t, "patched", patched, 160, 48)
	hs.keys("p")
	text := inspectorText(hs)
	if !strings.Contains(text, "v1.5.0 reads it misaligns") || !strings.Contains(text, `"NetBool_t": booleanDecoder,`) || strings.Contains(text, "reads it right") {
		t.Fatalf("p on a file whose bool was renamed:\n%s", text)
	}
}
