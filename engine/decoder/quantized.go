package decoder

import (
	"fmt"
	"math"
)

// Quantized-float flags as the schema's encode_flags carries them.
const (
	QuantRoundDown      = 1 << 0 // extra bit: value is exactly Low
	QuantRoundUp        = 1 << 1 // extra bit: value is exactly High
	QuantEncodeZero     = 1 << 2 // extra bit: value is exactly 0
	QuantEncodeIntegers = 1 << 3 // range widened so integers are exact
)

// Quantized holds a quantized float's parameters after set-up. The set-up
// arithmetic runs in float32 exactly as Valve's encoder does, because it
// decides how many bits every value uses; one flag kept or dropped wrongly
// shifts the rest of the packet.
type Quantized struct {
	Bits  uint32 // value bits after set-up
	Flags uint32 // flags after set-up (only these cost extra bits)
	Low   float32
	High  float32

	// What the schema said, kept for the inspector.
	SchemaBits  int32
	SchemaFlags int32
	SchemaLow   float32
	SchemaHigh  float32

	highLowMul float32
	decMul     float32
}

// NewQuantized sets up a quantized float from schema values. bits must be in
// 1..31 (callers route 0 and ≥32 to the raw float decoder). lowSet/highSet
// say whether the schema carried the value (defaults 0 and 1).
func NewQuantized(bits int32, flags int32, low float32, lowSet bool, high float32, highSet bool) (Quantized, error) {
	q := Quantized{SchemaBits: bits, SchemaFlags: flags, SchemaLow: low, SchemaHigh: high}
	if bits <= 0 || bits >= 32 {
		return q, fmt.Errorf("quantized float needs 1..31 bits, schema says %d", bits)
	}
	q.Bits = uint32(bits)
	q.Low, q.High = 0, 1
	if lowSet {
		q.Low = low
	}
	if highSet {
		q.High = high
	}
	q.Flags = uint32(flags)
	if err := q.validateFlags(); err != nil {
		return q, err
	}
	steps := uint32(1) << q.Bits
	if q.Flags&QuantRoundDown != 0 {
		rng := q.High - q.Low
		q.High -= rng / float32(steps)
	} else if q.Flags&QuantRoundUp != 0 {
		rng := q.High - q.Low
		q.Low += rng / float32(steps)
	}
	if q.Flags&QuantEncodeIntegers != 0 {
		delta := q.High - q.Low
		if delta < 1 {
			delta = 1
		}
		rng2 := uint64(1) << uint(math.Ceil(math.Log2(float64(delta))))
		bc := q.Bits
		for uint64(1)<<bc <= rng2 {
			bc++
		}
		if bc > q.Bits {
			if bc > 31 {
				return q, fmt.Errorf("quantized float with ENCODE_INTEGERS over %g..%g needs %d bits", q.Low, q.High, bc)
			}
			q.Bits = bc
			steps = uint32(1) << q.Bits
		}
		offset := float32(rng2) / float32(steps)
		q.High = q.Low + float32(rng2) - offset
	}
	if err := q.assignMultipliers(steps); err != nil {
		return q, err
	}
	// Drop flags whose special value the plain formula already hits.
	if q.Flags&QuantRoundDown != 0 && q.quantize(q.Low) == q.Low {
		q.Flags &^= QuantRoundDown
	}
	if q.Flags&QuantRoundUp != 0 && q.quantize(q.High) == q.High {
		q.Flags &^= QuantRoundUp
	}
	if q.Flags&QuantEncodeZero != 0 && q.quantize(0) == 0 {
		q.Flags &^= QuantEncodeZero
	}
	return q, nil
}

func (q *Quantized) validateFlags() error {
	if q.Flags == 0 {
		return nil
	}
	if (q.Low == 0 && q.Flags&QuantRoundDown != 0) || (q.High == 0 && q.Flags&QuantRoundUp != 0) {
		q.Flags &^= QuantEncodeZero
	}
	if q.Low == 0 && q.Flags&QuantEncodeZero != 0 {
		q.Flags |= QuantRoundDown
		q.Flags &^= QuantEncodeZero
	}
	if q.High == 0 && q.Flags&QuantEncodeZero != 0 {
		q.Flags |= QuantRoundUp
		q.Flags &^= QuantEncodeZero
	}
	if q.Low > 0 || q.High < 0 {
		q.Flags &^= QuantEncodeZero
	}
	if q.Flags&QuantEncodeIntegers != 0 {
		q.Flags &^= QuantRoundUp | QuantRoundDown | QuantEncodeZero
	}
	if q.Flags&(QuantRoundDown|QuantRoundUp) == QuantRoundDown|QuantRoundUp {
		return fmt.Errorf("quantized float flags %d set both ROUNDDOWN and ROUNDUP", q.SchemaFlags)
	}
	return nil
}

func (q *Quantized) assignMultipliers(steps uint32) error {
	rng := q.High - q.Low
	var high uint32
	if q.Bits == 32 {
		high = 0xFFFFFFFE
	} else {
		high = uint32(1)<<q.Bits - 1
	}
	var mul float32
	if math.Abs(float64(rng)) <= 0 {
		mul = float32(high)
	} else {
		mul = float32(high) / rng
	}
	if mul*rng > float32(high) || float64(mul*rng) > float64(high) {
		for _, m := range [...]float32{0.9999, 0.99, 0.9, 0.8, 0.7} {
			mul = float32(high) / rng * m
			if mul*rng > float32(high) || float64(mul*rng) > float64(high) {
				continue
			}
			break
		}
	}
	q.highLowMul = mul
	q.decMul = 1 / float32(steps-1)
	if mul == 0 || math.IsInf(float64(mul), 0) || math.IsNaN(float64(mul)) {
		return fmt.Errorf("quantized float range %g..%g gives no usable multiplier", q.Low, q.High)
	}
	return nil
}

// quantize is the encoder's float32 rounding, used by set-up to decide which
// special-value flags are needed.
func (q *Quantized) quantize(v float32) float32 {
	if v < q.Low {
		return q.Low
	} else if v > q.High {
		return q.High
	}
	i := uint32((v - q.Low) * q.highLowMul)
	return q.Low + (q.High-q.Low)*(float32(i)*q.decMul)
}

// Steps is the largest stored value, 2^bits − 1.
func (q *Quantized) Steps() uint32 { return uint32(1)<<q.Bits - 1 }

// fromWindow decodes a value from the low bits of a bit window (at most 3
// flag bits and 31 value bits, well within bitio.WindowBits), returning it
// and the bits used: Float's reading without a call per bit.
func (q *Quantized) fromWindow(w uint64) (float64, uint) {
	n := uint(0)
	if q.Flags&QuantRoundDown != 0 {
		n++
		if w&1 != 0 {
			return float64(q.Low), n
		}
		w >>= 1
	}
	if q.Flags&QuantRoundUp != 0 {
		n++
		if w&1 != 0 {
			return float64(q.High), n
		}
		w >>= 1
	}
	if q.Flags&QuantEncodeZero != 0 {
		n++
		if w&1 != 0 {
			return 0, n
		}
		w >>= 1
	}
	return q.FromRaw(uint32(w) & (1<<q.Bits - 1)), n + uint(q.Bits)
}

// FromRaw turns a stored number into the value, in float64.
func (q *Quantized) FromRaw(raw uint32) float64 {
	lo, hi := float64(q.Low), float64(q.High)
	return lo + (hi-lo)*float64(raw)/float64(q.Steps())
}
