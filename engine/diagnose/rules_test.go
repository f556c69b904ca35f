package diagnose

import (
	"errors"
	"math"
	"testing"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/schema"
)

func field(varType string, fam decoder.Family, v decoder.Value, bits uint) *provenance.Field {
	f := &schema.Field{Name: "m_x", VarType: varType, Type: schema.ParseVarType(varType)}
	d := &decoder.Decoder{Family: fam}
	f.Decoder = d
	return &provenance.Field{Name: "m_x", Schema: f, Decoder: d, Value: v, Bits: bits}
}

func has(as []Anomaly, r Rule) bool {
	for _, a := range as {
		if a.Rule == r {
			return true
		}
	}
	return false
}

func TestEachRuleTripsAndDoesNotTrip(t *testing.T) {
	none := func(int, int) bool { return false }
	live := func(int, int) bool { return true }
	cases := []struct {
		rule         Rule
		trips, clean *provenance.Field
		exists       Lookup
	}{
		{NonFinite, field("float32", decoder.FamNoScale, decoder.Float(math.NaN()), 32), field("float32", decoder.FamNoScale, decoder.Float(1.5), 32), nil},
		{NonFinite, field("Vector", decoder.FamVector, decoder.Vector(1, math.Inf(1), 0), 96), field("Vector", decoder.FamVector, decoder.Vector(1, 2, 3), 96), nil},
		{Denormal, field("float32", decoder.FamNoScale, decoder.Float(1e-40), 32), field("float32", decoder.FamNoScale, decoder.Float(0), 32), nil},
		{AbsurdFloat, field("float32", decoder.FamNoScale, decoder.Float(3e12), 32), field("float32", decoder.FamNoScale, decoder.Float(16000), 32), nil},
		{VarintTooLong, field("uint32", decoder.FamUnsigned, decoder.Uint(1), 24), field("uint32", decoder.FamUnsigned, decoder.Uint(300), 16), nil},
		{VarintTooLong, field("int32", decoder.FamSigned, decoder.Int(-1), 16), field("int32", decoder.FamSigned, decoder.Int(-64), 8), nil},
		{OutOfTypeRange, field("uint8", decoder.FamUnsigned, decoder.Uint(300), 16), field("uint8", decoder.FamUnsigned, decoder.Uint(255), 16), nil},
		{OutOfTypeRange, field("int16", decoder.FamSigned, decoder.Int(-40000), 24), field("int16", decoder.FamSigned, decoder.Int(-3), 8), nil},
		{NotUTF8, field("CUtlString", decoder.FamString, decoder.String("a\xffb"), 32), field("CUtlString", decoder.FamString, decoder.String("Razor ✓"), 80), nil},
		{ControlChars, field("CUtlString", decoder.FamString, decoder.String("a\x01b"), 32), field("CUtlString", decoder.FamString, decoder.String("line\tok"), 64), nil},
		{DanglingHandle, field("CHandle< CBaseEntity >", decoder.FamHandle, decoder.Handle(5|9<<14), 24), field("CHandle< CBaseEntity >", decoder.FamHandle, decoder.Handle(decoder.HandleInvalid), 32), none},
		{Fallback, field("DOTA_HeroPickState", decoder.FamDefault, decoder.Uint(7), 8), field("uint32", decoder.FamUnsigned, decoder.Uint(7), 8), nil},
	}
	for _, c := range cases {
		ex := c.exists
		if ex == nil {
			ex = live
		}
		if got := Field(c.trips, ex); !has(got, c.rule) {
			t.Errorf("%s: %v did not trip it (got %v)", c.rule, c.trips.Value, got)
		}
		if got := Field(c.clean, live); has(got, c.rule) {
			t.Errorf("%s: %v tripped it (got %v)", c.rule, c.clean.Value, got)
		}
	}
}

func TestHugeArrayLength(t *testing.T) {
	f := &schema.Field{Name: "m_v", VarType: "CUtlVector< uint32 >", Type: schema.ParseVarType("CUtlVector< uint32 >"), Model: schema.VariableArray}
	f.Decoder = &decoder.Decoder{Family: decoder.FamUnsigned}
	rec := func(n uint64) *provenance.Field {
		return &provenance.Field{Name: "m_v", Schema: f, Decoder: f.Decoder, Value: decoder.Uint(n), Bits: 8 * varintBytes(n)}
	}
	if !has(Field(rec(50000), nil), HugeArray) {
		t.Error("length 50000 not flagged")
	}
	if has(Field(rec(12), nil), HugeArray) {
		t.Error("length 12 flagged")
	}
	// An element of the array is read by the same decoder as its length,
	// and a uint32 element can be large: it is no length.
	el := rec(50000)
	el.Name = "m_v.0001"
	if has(Field(el, nil), HugeArray) {
		t.Error("element m_v.0001 = 50000 flagged as a huge array length")
	}
}

// Rune time reads a raw float's bits as a tiny number: never a denormal
// alarm, while a raw float that tiny is one.
func TestRuneTimeIsNoDenormal(t *testing.T) {
	tiny := decoder.Float(1e-40)
	if has(Field(field("float32", decoder.FamRuneTime, tiny, 32), nil), Denormal) {
		t.Error("rune time flagged as a denormal")
	}
	if !has(Field(field("float32", decoder.FamNoScale, tiny, 32), nil), Denormal) {
		t.Error("a denormal raw float not flagged")
	}
}

func TestMessageLevelRules(t *testing.T) {
	for _, c := range []struct {
		err     string
		problem provenance.Problem
		rule    Rule
	}{
		{"1 byte 5 bits left unread after 30 updates", provenance.Unread, UnreadBits},
		{"read past end of data at bit 0x2e5.0 (data is 741 bytes)", provenance.OverRead, OverRead},
		{"entity data bit 0x3.1: field path [9 1]: index 9 at depth 0 is outside X (3 fields)", provenance.BadPath, PathOutside},
	} {
		m := &provenance.Message{Err: errors.New(c.err), Problem: c.problem}
		rep := Message(m, nil)
		if rep.End == nil || rep.End.Rule != c.rule || !rep.Misaligned {
			t.Errorf("%q: got %+v, want %s", c.err, rep.End, c.rule)
		}
	}
	if rep := Message(&provenance.Message{}, nil); rep.End != nil || rep.Misaligned || rep.First != nil {
		t.Errorf("clean message diagnosed: %+v", rep)
	}
	if rep := Message(&provenance.Message{Deletions: 3, BadDeletions: 2}, nil); rep.End == nil || rep.End.Rule != BadDeletion {
		t.Errorf("bad deletions not flagged: %+v", rep)
	}
}

// A 5-byte varint read into 32 bits keeps its low 32 bits (itemid_t is
// 64-bit): a cut, flagged weak as varint-overflow, not as a misread.
func TestFiveByteVarintIsAnOverflow(t *testing.T) {
	as := Field(field("itemid_t", decoder.FamDefault, decoder.Uint(18049709), 40), nil)
	if !has(as, VarintOverflow) || has(as, VarintTooLong) {
		t.Errorf("5-byte varint read as 32 bits: %v", as)
	}
	if has(Field(field("uint64", decoder.FamUnsigned64, decoder.Uint(18049709), 40), nil), VarintOverflow) {
		t.Error("a 64-bit varint flagged as an overflow")
	}
	if !has(Field(field("uint32", decoder.FamUnsigned, decoder.Uint(1), 24), nil), VarintTooLong) {
		t.Error("a 3-byte varint holding 1 not flagged too long")
	}
}
