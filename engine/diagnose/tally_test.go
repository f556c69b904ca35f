package diagnose

import (
	"math"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
)

func TestTallyGroupsAndMutes(t *testing.T) {
	var ta Tally
	den := Anomaly{Rule: Denormal, Score: WeakDenormal, Detail: "1e-40"}
	nan := Anomaly{Rule: NonFinite, Score: Scores[NonFinite], Detail: "NaN"}
	for i := 0; i < 3; i++ {
		ta.Add(den, Where{Tick: int32(i), Field: "m_Pred.0007"})
	}
	ta.Add(den, Where{Tick: 9, Field: "m_Pred.0008"})
	ta.Add(nan, Where{Tick: 5, Field: "m_flX"})
	ta.Add(Anomaly{Rule: Fallback, Score: Scores[Fallback]}, Where{Field: "m_nEnum"})
	gs := ta.Groups()
	if len(gs) != 2 {
		t.Fatalf("groups %+v, want non-finite and denormal (a default-decoder read is none)", gs)
	}
	if gs[0].Rule != NonFinite || gs[0].Severity != SevStrong || gs[0].Count != 1 {
		t.Errorf("first group %+v, want the strong non-finite one", gs[0])
	}
	d := gs[1]
	if d.Rule != Denormal || d.Severity != SevWeak || d.Count != 4 || d.Example.Tick != 0 || d.Example.Detail != "1e-40" {
		t.Errorf("denormal group %+v", d)
	}
	if len(d.Fields) != 2 || d.Fields[0] != (FieldCount{"m_Pred.0007", 3}) || d.Fields[1] != (FieldCount{"m_Pred.0008", 1}) {
		t.Errorf("denormal fields %+v", d.Fields)
	}
	if all, strong := ta.Count(); all != 5 || strong != 1 {
		t.Errorf("count %d, %d strong; want 5, 1", all, strong)
	}

	var m Tally
	m.MuteField("m_Pred", true) // a field mutes its elements
	m.MuteRule(NonFinite, true)
	m.Add(den, Where{Field: "m_Pred.0007"})
	m.Add(den, Where{Field: "m_PredX.0007"}) // another field
	m.Add(nan, Where{Field: "m_flX"})
	if gs := m.Groups(); len(gs) != 1 || gs[0].Count != 1 || gs[0].Fields[0].Name != "m_PredX.0007" || m.MutedCount() != 2 {
		t.Errorf("muted tally %+v, %d muted", gs, m.MutedCount())
	}
	m.MuteRule(NonFinite, false)
	m.Add(nan, Where{Field: "m_flX"})
	if all, _ := m.Count(); all != 2 {
		t.Errorf("unmuted rule not counted again: %d", all)
	}
	if r, ok := RuleNamed("Varint-Overflow"); !ok || r != VarintOverflow {
		t.Error("varint-overflow not found by name")
	}
	if r, ok := RuleNamed("dangling-handle"); !ok || r != DanglingHandle {
		t.Error("dangling-handle not found by its short name")
	}
	if _, ok := RuleNamed("m_flX"); ok {
		t.Error("a field name found as a rule")
	}
}

// A 5-byte varint cut to 32 bits: the message's data gives back the whole
// value read (itemid_t 25787853485 shown as 18049709 on the Dota replay).
func TestVarintOverflowShowsTheValueRead(t *testing.T) {
	const full = 25787853485
	var w bitio.Writer
	w.Bits(5, 3) // something before the field
	start := w.Len()
	w.VarUint64(full)
	data := w.Bytes()
	f := field("itemid_t", decoder.FamDefault, decoder.Uint(full&0xffffffff), 40)
	f.Start = start
	m := &provenance.Message{Data: data, DataBits: uint(len(data)) * 8, Fields: []provenance.Field{*f}, Updates: []provenance.EntityUpdate{{}}}
	if raw, ok := WideVarint(m, f); !ok || raw != full {
		t.Fatalf("WideVarint = %d, %v; want %d", raw, ok, uint64(full))
	}
	rep := Message(m, nil)
	var got *Anomaly
	for i, a := range rep.Anomalies[0] {
		if a.Rule == VarintOverflow {
			got = &rep.Anomalies[0][i]
		}
	}
	if got == nil || !strings.Contains(got.Detail, "read 25787853485") || !strings.Contains(got.Detail, "18049709") || SeverityOf(*got) != SevWeak {
		t.Fatalf("overflow anomaly %+v", got)
	}
	// Without the data the rule still trips, naming what was kept.
	if as := Field(f, nil); !has(as, VarintOverflow) {
		t.Errorf("no overflow without the data: %v", as)
	}
}

// A denormal can only come from a raw 32-bit float: strong in a float
// field, weak in an element of a generic float array, where Valve keeps
// other values' bits (CS2's m_PredFloatVariables.0007).
func TestDenormalInAFloatArrayIsWeak(t *testing.T) {
	tiny := decoder.Float(float64(math.Float32frombits(0x8026e4f0)))
	sev := func(f *provenance.Field) Severity {
		for _, a := range Field(f, nil) {
			if a.Rule == Denormal {
				return SeverityOf(a)
			}
		}
		return SevNone
	}
	if s := sev(field("float32", decoder.FamNoScale, tiny, 32)); s != SevStrong {
		t.Errorf("a float field's denormal is %q, want strong", s)
	}
	el := field("CNetworkUtlVectorBase< float32 >", decoder.FamNoScale, tiny, 32)
	el.Schema.Model, el.Schema.Name = schema.VariableArray, "m_PredFloatVariables"
	el.Name = "CBodyComponent.m_PredFloatVariables.0007"
	if s := sev(el); s != SevWeak {
		t.Errorf("a float array element's denormal is %q, want weak", s)
	}
}

func TestTallyResetKeepsMutes(t *testing.T) {
	var ta Tally
	ta.MuteRule(DanglingHandle, true)
	ta.Add(Anomaly{Rule: NonFinite, Score: 1}, Where{Field: "m_x", Key: 7})
	if gs := ta.Groups(); len(gs) != 1 || gs[0].Example.Key != 7 {
		t.Fatalf("groups %+v", gs)
	}
	ta.Reset()
	if all, _ := ta.Count(); all != 0 || !ta.Muted(DanglingHandle, "m_y") {
		t.Errorf("after Reset: %d counted, muted %v", all, ta.MutedRules())
	}
}
