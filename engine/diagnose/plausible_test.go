package diagnose

import (
	"testing"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/provenance"
)

func TestSignificantDigits(t *testing.T) {
	for _, c := range []struct {
		x    float32
		want int
	}{{0, 0}, {0.25, 2}, {0.001713, 4}, {137.34375, 8}, {-93.28010559082031, 8}} {
		if got := significantDigits(float64(c.x)); got != c.want {
			t.Errorf("%g: %d digits, want %d", c.x, got, c.want)
		}
	}
}

// A cell-relative coordinate that crosses into the next cell jumps from
// near its range's top to near its bottom: against the range (256), a
// step to 3.25 from 24.5 is small, while against the value's own size it
// looked like a jump of 80%.
func TestChangeInTheFieldsSpan(t *testing.T) {
	prev, next := decoder.Float(24.46875), decoder.Float(238.03125)
	exact := expectedChange(prev, next, decoder.Float(3.25), true, 256)
	misread := expectedChange(prev, next, decoder.Float(65.34375), true, 256)
	if exact >= misread {
		t.Fatalf("in span: %g for the value sent, %g for a misread", exact, misread)
	}
	if own := expectedChange(prev, next, decoder.Float(3.25), true, 0); own < 0.5 {
		t.Fatalf("without a span the step costs %g", own)
	}
}

func TestStringsShareTheirStart(t *testing.T) {
	prev := decoder.String("weapon_m4a1")
	if a, b := change(prev, decoder.String("weapon_knife"), 0), change(prev, decoder.String("apon_knife"), 0); a >= b {
		t.Fatalf("weapon_knife %g, apon_knife %g", a, b)
	}
}

func TestMagnitude(t *testing.T) {
	prev, next := decoder.Float(-1.9e-25), decoder.Float(-1.7e-26)
	if m := magnitudeCost(prev, next, decoder.Float(-5.8e-26), true); m != 0 {
		t.Fatalf("between its neighbours: %g", m)
	}
	if m := magnitudeCost(prev, next, decoder.Float(-1.3e-35), true); m <= 0.04 {
		t.Fatalf("nine decades off: %g", m)
	}
}

func TestUnseenValues(t *testing.T) {
	c := &Case{Record: &provenance.Message{
		Updates: []provenance.EntityUpdate{{Index: 1}},
		Fields:  []provenance.Field{{Name: "m_hMyWeapons.0000", Value: decoder.Uint(7), Start: 0}},
	}}
	c.learnValues(nil, 100, 200)
	p := c.plausibility()
	f := &provenance.Field{Name: "m_hMyWeapons.0003", Value: decoder.Uint(7), Path: fieldpath.Path{}}
	if p.unseenCost(f) != 0 {
		t.Fatal("a value another element holds costs")
	}
	f.Value = decoder.Uint(8)
	if p.unseenCost(f) == 0 {
		t.Fatal("a value the field holds nowhere else is free")
	}
	f.Name = "m_iHealth"
	if p.unseenCost(f) != 0 {
		t.Fatal("a field with no values known costs")
	}
}

// Flags that jump for one message (0, 32, 0) are not a misread; a count
// that moves steadily is best between its neighbours.
func TestIntegersJumpOrMove(t *testing.T) {
	zero := decoder.Uint(0)
	if c := expectedChange(zero, zero, decoder.Uint(32), true, 0); c > 0.05 {
		t.Fatalf("flags 0, 32, 0 cost %g", c)
	}
	prev, next := decoder.Uint(63), decoder.Uint(66)
	if mid, at := expectedChange(prev, next, decoder.Uint(64), true, 0), expectedChange(prev, next, decoder.Uint(66), true, 0); mid >= at {
		t.Fatalf("63, 64, 66 costs %g; 63, 66, 66 %g", mid, at)
	}
	if small, big := jump(decoder.Uint(582), decoder.Uint(600)), jump(decoder.Uint(582), decoder.Uint(513796)); small*3 > big {
		t.Fatalf("582 to 600 costs %g, to 513796 %g", small, big)
	}
}
