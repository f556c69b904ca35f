package decoder

import (
	"fmt"
	"math"
)

// SetupSteps spells out a quantized float's set-up from the schema's
// values, one line per step with its arithmetic, in the order NewQuantized
// runs them (docs/format.md §6): the flag bits above the four, the flags
// that cannot apply, ROUNDDOWN/ROUNDUP moving a range end, ENCODE_INTEGERS
// widening, and the float32 check that keeps or drops each special-value
// flag. lowSet/highSet say whether the schema carried low and high
// (defaults 0 and 1). Each number is the one NewQuantized computes
// (TestSetupStepsAgree).
func SetupSteps(bits, flags int32, low float32, lowSet bool, high float32, highSet bool) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	q := Quantized{Low: 0, High: 1, Flags: uint32(flags), SchemaFlags: flags}
	if lowSet {
		q.Low = low
	}
	if highSet {
		q.High = high
	}
	if bits <= 0 || bits >= 32 {
		add("%d bits: no quantized float (1…31 bits), the raw float decoder reads it", bits)
		return out
	}
	q.Bits = uint32(bits)
	start := fmt.Sprintf("schema: %d bits, %s … %s", bits, g32(q.Low), g32(q.High))
	switch {
	case !lowSet && !highSet:
		start += " (neither end in the schema: 0 and 1)"
	case !lowSet:
		start += " (low not in the schema: 0)"
	case !highSet:
		start += " (high not in the schema: 1)"
	}
	add("%s, encode_flags %d = %s", start, flags, FlagNames(uint32(flags)))
	if extra := uint32(flags) &^ 15; extra != 0 {
		add("bits 0x%x above the four flags: no flag is known there and nothing reads them; no bit, no effect", extra)
	}
	if q.Flags&15 == 0 {
		add("no special-value flag, no widening: steps of (high − low) / %d", uint32(1)<<q.Bits-1)
	}
	before := q.Flags
	if err := q.validateFlags(); err != nil {
		add("%v: an error", err)
		return out
	}
	if before != q.Flags {
		add("flags that cannot apply: %s → %s (%s)", FlagNames(before&15), FlagNames(q.Flags&15), cannotApply(before, q.Low, q.High))
	}
	steps := uint32(1) << q.Bits
	if q.Flags&QuantRoundDown != 0 {
		rng := q.High - q.Low
		nh := q.High - rng/float32(steps)
		add("ROUNDDOWN: high −= (high − low) / 2^%d = %s − %s / %d = %s", q.Bits, g32(q.High), g32(rng), steps, g32(nh))
		q.High = nh
	} else if q.Flags&QuantRoundUp != 0 {
		rng := q.High - q.Low
		nl := q.Low + rng/float32(steps)
		add("ROUNDUP: low += (high − low) / 2^%d = %s + %s / %d = %s", q.Bits, g32(q.Low), g32(rng), steps, g32(nl))
		q.Low = nl
	}
	if q.Flags&QuantEncodeIntegers != 0 {
		delta := q.High - q.Low
		if delta < 1 {
			delta = 1
		}
		e := uint(math.Ceil(math.Log2(float64(delta))))
		rng2 := uint64(1) << e
		bc := q.Bits
		for uint64(1)<<bc <= rng2 {
			bc++
		}
		add("ENCODE_INTEGERS: range = 2^ceil(log2(max(high − low, 1))) = 2^ceil(log2 %s) = 2^%d = %d", g32(delta), e, rng2)
		if bc > q.Bits {
			if bc > 31 {
				add("the bit count would grow to %d: an error", bc)
				return out
			}
			add("bits grow until 2^bits > %d: %d → %d", rng2, q.Bits, bc)
			q.Bits = bc
			steps = uint32(1) << q.Bits
		} else {
			add("2^%d = %d > %d: %d bits stay", q.Bits, steps, rng2, q.Bits)
		}
		offset := float32(rng2) / float32(steps)
		q.High = q.Low + float32(rng2) - offset
		add("high = low + range − range / 2^%d = %s + %d − %s = %s; a step is %s / %d = %s",
			q.Bits, g32(q.Low), rng2, g32(offset), g32(q.High), g32(q.High-q.Low), steps-1, g(float64(q.High-q.Low)/float64(steps-1)))
	}
	if err := q.assignMultipliers(steps); err != nil {
		add("%v: an error", err)
		return out
	}
	top := uint32(1)<<q.Bits - 1
	check := func(name string, bit uint32, v float32, what string) {
		if q.Flags&bit == 0 {
			return
		}
		x := (v - q.Low) * q.highLowMul
		back := q.quantize(v)
		verdict := "hit: " + name + " dropped"
		if back != v {
			verdict = "missed: " + name + " kept, a bit before every value (1: exactly " + what + ")"
			out = append(out, fmt.Sprintf("%s check, in float32: stored = uint32((%s − low) × mul) = uint32(%s × %s) = uint32(%s) = %d, read back %s ≠ %s: %s",
				name, what, g32(v-q.Low), g32(q.highLowMul), g32(x), uint32(x), g32(back), g32(v), verdict))
			return
		}
		q.Flags &^= bit
		out = append(out, fmt.Sprintf("%s check, in float32: stored = uint32((%s − low) × mul) = uint32(%s × %s) = uint32(%s) = %d, read back %s = %s: %s",
			name, what, g32(v-q.Low), g32(q.highLowMul), g32(x), uint32(x), g32(back), g32(v), verdict))
	}
	if q.Flags&(QuantRoundDown|QuantRoundUp|QuantEncodeZero) != 0 {
		add("mul = (2^%d − 1) / (high − low) = %d / %s = %s", q.Bits, top, g32(q.High-q.Low), g32(q.highLowMul))
	}
	check("ROUNDDOWN", QuantRoundDown, q.Low, "low")
	check("ROUNDUP", QuantRoundUp, q.High, "high")
	check("ENCODE_ZERO", QuantEncodeZero, 0, "0")
	res := fmt.Sprintf("reads %d bits over %s … %s", q.Bits, g32(q.Low), g32(q.High))
	if f := q.Flags & 7; f != 0 {
		res += fmt.Sprintf(", after %s (one bit each)", FlagNames(f))
	}
	add("%s: value = low + (high − low) × stored / %d", res, top)
	return out
}

// cannotApply says which of validateFlags' rules changed the flags.
func cannotApply(f uint32, low, high float32) string {
	switch {
	case f&QuantEncodeIntegers != 0:
		return "ENCODE_INTEGERS clears ROUNDDOWN, ROUNDUP and ENCODE_ZERO"
	case f&QuantEncodeZero != 0 && low == 0:
		return "low is 0: ENCODE_ZERO becomes ROUNDDOWN"
	case f&QuantEncodeZero != 0 && high == 0:
		return "high is 0: ENCODE_ZERO becomes ROUNDUP"
	case f&QuantEncodeZero != 0 && (low > 0 || high < 0):
		return "0 is outside the range: ENCODE_ZERO goes"
	}
	return "the set-up's rules"
}

// g32 prints a float32 as the shortest float32 that reads back as it.
func g32(f float32) string { return fmt.Sprint(f) }
