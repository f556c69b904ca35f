package fieldpath

import (
	"fmt"
	"math"

	"github.com/dembug/dembug/engine/bitio"
)

// Write encodes paths as Read decodes them: for each path, the cheapest op
// (Huffman code plus operands) that turns the previous path into it, then
// the finish op. Any order is accepted, as the non-topological ops can
// reach any path, but sorted paths (as Valve sends them) mostly cost one
// short op each.
//
// Only indexes 0..Last of each path are read; every index must be
// non-negative and Last within 0..MaxDepth-1. Write writes nothing when it
// returns an error.
func Write(w *bitio.Writer, paths []Path) error {
	if len(paths) > MaxPaths {
		return fmt.Errorf("fieldpath.Write: %d paths; Read accepts at most %d", len(paths), MaxPaths)
	}
	for i := range paths {
		p := &paths[i]
		if p.Last < 0 || p.Last >= MaxDepth {
			return fmt.Errorf("fieldpath.Write: path %d has %d indexes; 1..%d are allowed", i, p.Last+1, MaxDepth)
		}
		for _, v := range p.Slice() {
			if v < 0 {
				return fmt.Errorf("fieldpath.Write: path %d (%s) has a negative index", i, *p)
			}
		}
	}
	var plans []plan
	cur := Path{}
	cur.Idx[0] = -1
	for i := range paths {
		next := &paths[i]
		best, ok := choose(&cur, next)
		if !ok {
			return fmt.Errorf("fieldpath.Write: no op reaches path %d (%s) from %s", i, *next, cur)
		}
		plans = append(plans, best)
		cur = *next
	}
	for i := range plans {
		plans[i].write(w)
	}
	c := CodeOf(Finish)
	w.Bits(uint64(c.Bits), uint(c.Len))
	return nil
}

// operand kinds, in the forms apply reads them.
const (
	oBits      = iota // n fixed bits
	oUBitVar          // Reader.UBitVar
	oUBitVarFP        // Reader.UBitVarFP
	oVarInt32         // Reader.VarInt32 (zigzag)
)

type operand struct {
	kind uint8
	n    uint8 // bits, for oBits
	v    int64
}

// plan is one op with its operands.
type plan struct {
	op   Op
	ops  [2*MaxDepth + 4]operand
	nops int
	cost uint
}

func (p *plan) add(kind uint8, n uint8, v int64) {
	p.ops[p.nops] = operand{kind, n, v}
	p.nops++
}

func (p *plan) bits(v int64, n uint8) { p.add(oBits, n, v) }
func (p *plan) bool(b bool) {
	if b {
		p.add(oBits, 1, 1)
	} else {
		p.add(oBits, 1, 0)
	}
}
func (p *plan) ubitvar(v int64)   { p.add(oUBitVar, 0, v) }
func (p *plan) ubitvarFP(v int64) { p.add(oUBitVarFP, 0, v) }
func (p *plan) varint32(v int64)  { p.add(oVarInt32, 0, v) }

// valid reports whether every operand fits its form.
func (p *plan) valid() bool {
	for _, o := range p.ops[:p.nops] {
		switch o.kind {
		case oBits:
			if o.v < 0 || o.v >= 1<<o.n {
				return false
			}
		case oUBitVar:
			if o.v < 0 || o.v > math.MaxUint32 {
				return false
			}
		case oUBitVarFP:
			if o.v < 0 || o.v >= 1<<31 {
				return false
			}
		case oVarInt32:
			if o.v < math.MinInt32 || o.v > math.MaxInt32 {
				return false
			}
		}
	}
	return true
}

func ubitvarLen(v int64) uint {
	switch {
	case v < 1<<4:
		return 6
	case v < 1<<8:
		return 10
	case v < 1<<12:
		return 14
	}
	return 34
}

func ubitvarFPLen(v int64) uint {
	switch {
	case v < 1<<2:
		return 3
	case v < 1<<4:
		return 6
	case v < 1<<10:
		return 13
	case v < 1<<17:
		return 21
	}
	return 35
}

func varintLen(u uint64) uint {
	n := uint(8)
	for ; u >= 0x80; u >>= 7 {
		n += 8
	}
	return n
}

func zigzag32(v int64) uint32 { return uint32(int32(v)<<1) ^ uint32(int32(v)>>31) }

func (p *plan) measure() uint {
	n := uint(CodeOf(p.op).Len)
	for _, o := range p.ops[:p.nops] {
		switch o.kind {
		case oBits:
			n += uint(o.n)
		case oUBitVar:
			n += ubitvarLen(o.v)
		case oUBitVarFP:
			n += ubitvarFPLen(o.v)
		case oVarInt32:
			n += varintLen(uint64(zigzag32(o.v)))
		}
	}
	return n
}

func (p *plan) write(w *bitio.Writer) {
	c := CodeOf(p.op)
	w.Bits(uint64(c.Bits), uint(c.Len))
	for _, o := range p.ops[:p.nops] {
		Operand{Form(o.kind), o.n, o.v}.write(w)
	}
}

// choose returns the cheapest op taking c to n; on equal cost the op that
// comes first in Valve's table.
func choose(c, n *Path) (plan, bool) {
	var best plan
	found := false
	for op := Op(0); op < Finish; op++ {
		p := plan{op: op}
		if !solve(&p, c, n) || !p.valid() {
			continue
		}
		p.cost = p.measure()
		if !found || p.cost < best.cost {
			best, found = p, true
		}
	}
	return best, found
}

// samePrefix reports whether c and n agree on indexes 0..k-1.
func samePrefix(c, n *Path, k int) bool {
	for i := 0; i < k; i++ {
		if c.Idx[i] != n.Idx[i] {
			return false
		}
	}
	return true
}

// solve fills p's operands so that apply(p.op) takes c to n, or reports
// that the op cannot.
func solve(p *plan, c, n *Path) bool {
	a, b := c.Last, n.Last
	delta := func(i int) int64 { return int64(n.Idx[i]) - int64(c.Idx[i]) }
	// pushed adds the values of levels a+1..b with the UBitVarFP form.
	pushed := func() {
		for i := a + 1; i <= b; i++ {
			p.ubitvarFP(int64(n.Idx[i]))
		}
	}
	nonTopo := func(levels int, offset int64, pack4 bool) bool {
		for i := 0; i <= levels; i++ {
			d := delta(i)
			p.bool(d != 0)
			if d == 0 {
				continue
			}
			switch {
			case pack4:
				if d < -7 || d > 8 {
					return false
				}
				p.bits(d+7, 4)
			default:
				p.varint32(d - offset)
			}
		}
		return true
	}
	switch op := p.op; op {
	case PlusOne, PlusTwo, PlusThree, PlusFour:
		return b == a && samePrefix(c, n, a) && delta(a) == int64(op-PlusOne)+1
	case PlusN:
		if b != a || !samePrefix(c, n, a) || delta(a) < 5 {
			return false
		}
		p.ubitvarFP(delta(a) - 5)
		return true
	case PushOneLeftDeltaZeroRightZero, PushOneLeftDeltaZeroRightNonZero,
		PushOneLeftDeltaOneRightZero, PushOneLeftDeltaOneRightNonZero,
		PushOneLeftDeltaNRightZero, PushOneLeftDeltaNRightNonZero,
		PushOneLeftDeltaNRightNonZeroPack6Bits, PushOneLeftDeltaNRightNonZeroPack8Bits:
		if b != a+1 || !samePrefix(c, n, a) {
			return false
		}
		d, right := delta(a), int64(n.Idx[b])
		switch op {
		case PushOneLeftDeltaZeroRightZero:
			return d == 0 && right == 0
		case PushOneLeftDeltaZeroRightNonZero:
			p.ubitvarFP(right)
			return d == 0
		case PushOneLeftDeltaOneRightZero:
			return d == 1 && right == 0
		case PushOneLeftDeltaOneRightNonZero:
			p.ubitvarFP(right)
			return d == 1
		case PushOneLeftDeltaNRightZero:
			p.ubitvarFP(d)
			return right == 0
		case PushOneLeftDeltaNRightNonZero:
			p.ubitvarFP(d - 2)
			p.ubitvarFP(right - 1)
		case PushOneLeftDeltaNRightNonZeroPack6Bits:
			p.bits(d-2, 3)
			p.bits(right-1, 3)
		case PushOneLeftDeltaNRightNonZeroPack8Bits:
			p.bits(d-2, 4)
			p.bits(right-1, 4)
		}
		return true
	case PushTwoLeftDeltaZero, PushTwoPack5LeftDeltaZero, PushThreeLeftDeltaZero, PushThreePack5LeftDeltaZero,
		PushTwoLeftDeltaOne, PushTwoPack5LeftDeltaOne, PushThreeLeftDeltaOne, PushThreePack5LeftDeltaOne,
		PushTwoLeftDeltaN, PushTwoPack5LeftDeltaN, PushThreeLeftDeltaN, PushThreePack5LeftDeltaN:
		k := int(op - PushTwoLeftDeltaZero)
		group, form := k/4, k%4
		count := 2
		if form >= 2 {
			count = 3
		}
		if b != a+count || !samePrefix(c, n, a) {
			return false
		}
		switch d := delta(a); group {
		case 0:
			if d != 0 {
				return false
			}
		case 1:
			if d != 1 {
				return false
			}
		case 2:
			p.ubitvar(d - 2)
		}
		for i := a + 1; i <= b; i++ {
			if form%2 == 1 {
				p.bits(int64(n.Idx[i]), 5)
			} else {
				p.ubitvarFP(int64(n.Idx[i]))
			}
		}
		return true
	case PushN:
		if b < a || !samePrefix(c, n, a) {
			return false
		}
		p.ubitvar(int64(b - a))
		p.ubitvar(delta(a))
		pushed()
		return true
	case PushNAndNonTopological:
		if b < a || !nonTopo(a, 1, false) {
			return false
		}
		p.ubitvar(int64(b - a))
		pushed()
		return true
	case PopOnePlusOne, PopOnePlusN:
		if b != a-1 || !samePrefix(c, n, b) {
			return false
		}
		if op == PopOnePlusOne {
			return delta(b) == 1
		}
		p.ubitvarFP(delta(b) - 1)
		return true
	case PopAllButOnePlusOne, PopAllButOnePlusN, PopAllButOnePlusNPack3Bits, PopAllButOnePlusNPack6Bits:
		if b != 0 {
			return false
		}
		switch d := delta(0); op {
		case PopAllButOnePlusOne:
			return d == 1
		case PopAllButOnePlusN:
			p.ubitvarFP(d - 1)
		case PopAllButOnePlusNPack3Bits:
			p.bits(d-1, 3)
		default:
			p.bits(d-1, 6)
		}
		return true
	case PopNPlusOne, PopNPlusN:
		if b > a || !samePrefix(c, n, b) {
			return false
		}
		p.ubitvarFP(int64(a - b))
		if op == PopNPlusOne {
			return delta(b) == 1
		}
		p.varint32(delta(b))
		return true
	case PopNAndNonTopographical:
		if b > a {
			return false
		}
		p.ubitvarFP(int64(a - b))
		return nonTopo(b, 0, false)
	case NonTopoComplex, NonTopoComplexPack4Bits:
		return b == a && nonTopo(a, 0, op == NonTopoComplexPack4Bits)
	case NonTopoPenultimatePlusOne:
		return b == a && a >= 1 && samePrefix(c, n, a-1) && delta(a-1) == 1 && delta(a) == 0
	}
	return false
}
