package evidence

import (
	"fmt"
	"math/bits"
	"strings"
)

// Kind is what a name's values show.
type Kind uint8

const (
	Unsure     Kind = iota // nothing, or too little to say
	Signed                 // a zigzag varint read unsigned
	Wide                   // a 64-bit varint cut to 32 bits
	SignedWide             // both: a 64-bit zigzag varint
)

// Thresholds: how much a verdict needs. A handful of values is not
// evidence: an unsigned set of n distinct values all even by chance has odds
// of 2^-n, so the zigzag signature needs MinDistinctEven distinct even
// values (odds 1/256) and MinNonzero nonzero values, and twice the distinct
// values when no odd value (no negative) is there to back it.
const (
	MinDistinctEven = 8
	MinNonzero      = 20
	// OddScale is how much smaller than the largest even value the largest
	// odd one must be: signed fields hold sentinels (-1) and negatives
	// smaller than their positives; unsigned values of both parities run
	// up to about the same largest value.
	OddScale = 4
)

// Verdict is what Judge makes of a name's values.
type Verdict struct {
	Kind   Kind
	As     string // the known type to read it as: int32, int64, uint64
	Values uint64 // the values it rests on
	Fields int    // the fields they came from
	// Evidence says what the values show; Reads what they read now and
	// would read as As.
	Evidence, Reads string
}

// IsZigzag reports whether t carries the zigzag signature: nonzero values
// nearly all even (enough distinct ones), the odd ones few and small
// (negatives), and not only powers of two (flags with bit 0 unused).
func (t *Tally) IsZigzag() bool {
	ev, od := t.Distinct()
	nonzero := t.Odd + t.Even
	need := MinDistinctEven
	if t.Odd == 0 {
		need *= 2
	}
	switch {
	case ev < need || nonzero < MinNonzero:
		return false
	case t.Odd > 0 && t.OddMax > t.EvenMax/OddScale:
		return false // odd values as large as the even ones: unsigned
	case od > max(2, ev/3):
		return false // both parities, in many values: unsigned
	case t.Even-t.Pow2 < 3:
		return false // powers of two: flags with bit 0 unused
	}
	return true
}

// Judge says what the merged tally of a name's fields shows. fields is
// how many fields had values.
func Judge(t Tally, fields int) Verdict {
	v := Verdict{Values: t.N, Fields: fields}
	zig := t.IsZigzag()
	wide := t.Cut > 0
	switch {
	case zig && wide:
		v.Kind, v.As = SignedWide, "int64"
	case zig:
		v.Kind, v.As = Signed, "int32"
	case wide:
		v.Kind, v.As = Wide, "uint64"
	default:
		return v
	}
	var ev, reads []string
	if zig {
		ev = append(ev, t.zigzagText())
		reads = append(reads, t.signedReads(v.As))
	}
	if wide {
		ev = append(ev, fmt.Sprintf("%d of them held more than 32 bits (up to %d bits: %d), which a 32-bit read cuts",
			t.Cut, bits.Len64(t.CutMax), t.CutMax))
		reads = append(reads, fmt.Sprintf("%d reads %d cut to 32 bits", t.CutMax, uint32(t.CutMax)))
	}
	v.Evidence = fmt.Sprintf("%s in %s: %s", count(t.N, "value", "values"), count(uint64(fields), "field", "fields"), strings.Join(ev, "; "))
	v.Reads = strings.Join(reads, "; ")
	return v
}

func (t *Tally) zigzagText() string {
	ev, _ := t.Distinct()
	s := fmt.Sprintf("nonzero values all even (%d distinct, up to %d)", ev, t.EvenMax)
	if t.Odd == 0 {
		return s + ", none odd: the zigzag signature of values never negative, each read doubled"
	}
	var odds []string
	neg := t.Negatives()
	for i := len(neg) - 1; i >= 0 && len(odds) < 4; i-- {
		odds = append(odds, fmt.Sprint(-2*neg[i]-1))
	}
	if len(neg) > len(odds) || t.OddMax > 255 {
		odds = append(odds, fmt.Sprintf("… up to %d", t.OddMax))
	}
	return fmt.Sprintf("%s but %s (%s): the zigzag signature, positives read doubled and negatives read odd",
		s, strings.Join(odds, ", "), count(t.Odd, "time", "times"))
}

// signedReads says what the values are as signed: the positives halved,
// the odd ones negatives.
func (t *Tally) signedReads(as string) string {
	var parts, eg []string
	if neg := t.Negatives(); len(neg) > 0 {
		var ns []string
		if len(neg) > 4 || t.OddMax > 255 {
			ns = append(ns, fmt.Sprintf("%d …", -int64(t.OddMax+1)/2))
			neg = neg[len(neg)-min(len(neg), 3):]
		}
		for _, n := range neg {
			ns = append(ns, fmt.Sprint(n))
		}
		parts = append(parts, strings.Join(ns, ", "))
		eg = append(eg, fmt.Sprintf("%d is %d", -2*neg[len(neg)-1]-1, neg[len(neg)-1]))
	}
	parts = append(parts, fmt.Sprintf("0…%d", t.EvenMax/2))
	eg = append([]string{fmt.Sprintf("%d is %d", t.EvenMax, t.EvenMax/2)}, eg...)
	return fmt.Sprintf("read unsigned they are 0…%d; as %s %s (%s)", max(t.EvenMax, t.OddMax), as, strings.Join(parts, " and "), strings.Join(eg, ", "))
}

func count(n uint64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
