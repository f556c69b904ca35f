package diagnose_test

import (
	"testing"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/brokendemo"
	"github.com/dembug/dembug/internal/testreplays"
)

func TestWrongDecoderIsNamed(t *testing.T) {
	// The data sends m_flSpeed as a raw float (32 bits); the schema says
	// 13-bit quantized, so every later bit shifts.
	c, err := diagnose.Capture(brokendemo.WrongDecoder())
	if err != nil || c == nil {
		t.Fatalf("no misaligned message found (err %v)", err)
	}
	fix, err := c.Locate()
	if err != nil {
		t.Fatalf("locate: %v (first suspect %+v)", err, c.Report.First)
	}
	if fix.Name != brokendemo.Speed && fix.Name != "m_iTeamNum" {
		t.Fatalf("blamed %s, want m_flSpeed or the field right after it (%s)", fix.Name, fix.Explain)
	}
	if fix.WhatIf.Decoder == nil || fix.WhatIf.Decoder.Family != decoder.FamNoScale {
		t.Fatalf("fix %s, want the raw 32-bit float", fix.Explain)
	}
	// The what-if restores the values that were written.
	got := map[string]decoder.Value{}
	for _, f := range fix.Record.Fields {
		got[f.Name] = f.Value
	}
	want := map[string]decoder.Value{"m_iHealth": decoder.Int(500), "m_flSpeed": decoder.Float(69.1875), "m_iTeamNum": decoder.Uint(2),
		"m_flMana": decoder.Float(120.5), "m_szName": decoder.String("axe"), "m_nLevel": decoder.Int(1)}
	for name, v := range want {
		if !got[name].Equal(v) {
			t.Errorf("%s = %v after the what-if, want %v", name, got[name], v)
		}
	}
}

func TestDroppedPathBitIsNamed(t *testing.T) {
	data, bit := brokendemo.DroppedPathBit()
	c, err := diagnose.Capture(data)
	if err != nil || c == nil {
		t.Fatalf("no misaligned message found (err %v)", err)
	}
	fix, err := c.Locate()
	if err != nil {
		t.Fatalf("locate: %v", err)
	}
	if fix.Name != brokendemo.Mana && fix.Name != "m_nLevel" {
		t.Fatalf("blamed %q, want m_flMana or the field right after it (%s)", fix.Name, fix.Explain)
	}
	if fix.WhatIf.Insert != 1 || fix.WhatIf.Bit != bit {
		t.Fatalf("fix %s, want one bit inserted at bit %d", fix.Explain, bit)
	}
}

// A patch that changes a field's bit count in the schema (the data keeps
// the old width) is named, and every read of the field with the old width
// aligns the message.
func TestChangedBitCountIsNamed(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	patched, n, err := writer.SetBitCount(data, "m_flCycle", 14) // the data has 15
	if err != nil || n == 0 {
		t.Fatalf("patch: %d fields, %v", n, err)
	}
	c, err := diagnose.Capture(patched)
	if err != nil || c == nil {
		t.Fatalf("no misaligned message (err %v)", err)
	}
	fix, err := c.Locate()
	if err != nil {
		t.Fatalf("locate: %v", err)
	}
	d := fix.WhatIf.Decoder
	if fix.Name != "CBodyComponent.m_flCycle" || d == nil || d.Family != decoder.FamQuantized || d.Q.SchemaBits != 15 || fix.WhatIf.Field == nil {
		t.Fatalf("fix at %s: %s", fix.Name, fix.Explain)
	}
}
