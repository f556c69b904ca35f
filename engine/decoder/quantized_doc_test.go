package decoder

import (
	"math"
	"testing"
)

// The set-up as docs/format.md §6 spells it, on the fields it names: each
// number there is computed here.
func TestQuantizedSetUpAsDocumented(t *testing.T) {
	setup := func(bits, flags int32, low, high float32) Quantized {
		t.Helper()
		q, err := NewQuantized(bits, flags, low, true, high, true)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}

	// ENCODE_INTEGERS: range = 2^ceil(log2(max(high-low, 1))); bits grow
	// until 2^bits > range; high = low + range - range/2^bits.
	// m_flPlaybackRate: 10 bits, 0 … 5: range 8, high 8 - 8/1024.
	pr := setup(10, -8, 0, 5)
	if pr.Bits != 10 || pr.Low != 0 || pr.High != 7.9921875 {
		t.Errorf("m_flPlaybackRate: %d bits, %g … %g", pr.Bits, pr.Low, pr.High)
	}
	// Every step is 7.9921875/1023 = 1/128: the integer k is stored as 128k.
	for k := uint32(0); k <= 7; k++ {
		if v := pr.FromRaw(128 * k); v != float64(k) {
			t.Errorf("m_flPlaybackRate: stored %d reads %g, want %d", 128*k, v, k)
		}
	}
	if v := pr.FromRaw(384); v != 3 {
		t.Errorf("stored 384 reads %g", v)
	}
	// m_flCycle: 15 bits, 0 … 1: range 1, high 1 - 1/32768.
	if c := setup(15, -8, 0, 1); c.Bits != 15 || c.High != 1-1.0/32768 {
		t.Errorf("m_flCycle: %d bits, high %g", c.Bits, c.High)
	}
	// Widening: 4 bits over 0 … 100: range 128 needs 8 bits (2^8 > 128),
	// high 128 - 128/256 = 127.5; a step is 0.5.
	if w := setup(4, 8, 0, 100); w.Bits != 8 || w.High != 127.5 || w.FromRaw(2*37) != 37 {
		t.Errorf("4 bits over 0…100 with ENCODE_INTEGERS: %d bits, high %g", w.Bits, w.High)
	}

	// Unknown flag bits (-8 is 0xfffffff8: ENCODE_INTEGERS and 0xfffffff0)
	// cost no bit and change nothing: the set-up and every read are flag
	// 8's.
	plain := setup(10, 8, 0, 5)
	if plain.Bits != pr.Bits || plain.High != pr.High || plain.Low != pr.Low || pr.Flags&15 != plain.Flags || pr.Flags != 0xfffffff8 {
		t.Errorf("flags -8 set up as %+v, flags 8 as %+v", pr, plain)
	}
	for _, w := range []uint64{0, 1, 384, 1023, 0xffff_ffff_ffff} {
		v1, n1 := pr.fromWindow(w)
		v2, n2 := plain.fromWindow(w)
		if v1 != v2 || n1 != n2 || n1 != 10 {
			t.Errorf("bits %#x: flags -8 read %g in %d bits, flags 8 %g in %d", w, v1, n1, v2, n2)
		}
	}

	// ROUNDUP: low moves up one step, (high-low)/2^bits; the flag is kept
	// when the encoder's float32 quantization of high misses high.
	// m_flFrameRate, 10 bits, -25 … 25: low -25 + 50/1024 = -24.951171875;
	// (high-low) × mul = 49.951171875 × 20.48 = 1023 exactly, 1023 ×
	// float32(1/1023) is 1, high is hit: dropped.
	fr := setup(10, QuantRoundUp, -25, 25)
	if fr.Low != -24.951171875 || fr.Flags != 0 || uint32((fr.High-fr.Low)*fr.highLowMul) != 1023 {
		t.Errorf("m_flFrameRate: low %g, flags %#x, top step %d", fr.Low, fr.Flags, uint32((fr.High-fr.Low)*fr.highLowMul))
	}
	// m_fWidth, 10 bits, 0 … 102.3: low 102.3/1024 = 0.09990235; in
	// float32 (high-low) × mul is 1022.99994, truncated to 1022, which
	// reads 102.2001, not 102.3: kept, one bit before every value.
	wd := setup(10, QuantRoundUp, 0, 102.3)
	top := (wd.High - wd.Low) * wd.highLowMul
	if wd.Flags != QuantRoundUp || uint32(top) != 1022 || float32(wd.Low) != float32(102.3)/1024 || math.Abs(float64(top)-1022.99994) > 1e-4 {
		t.Errorf("m_fWidth: flags %#x, low %.9g, top step %.9g", wd.Flags, wd.Low, top)
	}
	if v, n := wd.fromWindow(1); n != 1 || v != float64(float32(102.3)) {
		t.Errorf("m_fWidth: a set ROUNDUP bit reads %g in %d bits", v, n)
	}

	// ROUNDDOWN only moves high down a step: the stored 0 is low exactly,
	// so the flag is always dropped (m_vecX: 13 bits, 0 … 256 → 255.96875;
	// stored 2214 reads 2214/8191 × 255.96875 = 69.1875).
	x := setup(13, QuantRoundDown, 0, 256)
	if x.Flags != 0 || x.High != 255.96875 || x.FromRaw(2214) != 69.1875 {
		t.Errorf("m_vecX: flags %#x, high %g, 2214 reads %g", x.Flags, x.High, x.FromRaw(2214))
	}
	for bits := int32(1); bits <= 31; bits++ {
		for _, r := range [][2]float32{{0, 1}, {-25, 25}, {0, 102.3}, {-16384, 16384}, {0.1, 0.7}, {-1, -0.25}} {
			if q := setup(bits, QuantRoundDown, r[0], r[1]); q.Flags&QuantRoundDown != 0 {
				t.Errorf("ROUNDDOWN kept: %d bits over %g … %g", bits, r[0], r[1])
			}
		}
	}
}
