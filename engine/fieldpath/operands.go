package fieldpath

import (
	"fmt"

	"github.com/dembug/dembug/engine/bitio"
)

// ReadOperands reads the operands of op from r, positioned just after the
// op's code, as Read reads them, and returns each in reading order with the
// form it was read in and its value as read (before the op adds anything
// to it: PushOneLeftDeltaNRightNonZeroPack8Bits's operands are a and b, not
// a + 2 and b + 1). The non-topological ops read a bit per index of the
// path, so pathLen is the length of the path before the op. It is how the
// operand bits trace --ops prints become numbers.
func ReadOperands(r *bitio.Reader, op Op, pathLen int) ([]Operand, error) {
	var out []Operand
	bits := func(n uint8) int64 {
		v := int64(r.Bits(uint(n)))
		out = append(out, Operand{Form: FormBits, N: n, V: v})
		return v
	}
	fpv := func() int64 {
		v := int64(r.UBitVarFP())
		out = append(out, Operand{Form: FormUBitVarFP, V: v})
		return v
	}
	ubv := func() int64 {
		v := int64(r.UBitVar())
		out = append(out, Operand{Form: FormUBitVar, V: v})
		return v
	}
	vi := func() {
		out = append(out, Operand{Form: FormVarInt32, V: int64(r.VarInt32())})
	}
	nonTopo := func(n int, pack4 bool) {
		for i := 0; i < n; i++ {
			if bits(1) == 1 {
				if pack4 {
					bits(4)
				} else {
					vi()
				}
			}
		}
	}
	pushes := func(n int64, pack5 bool) error {
		if n < 0 || n > MaxDepth {
			return fmt.Errorf("%s pushes %d indexes", op, n)
		}
		for i := int64(0); i < n; i++ {
			if pack5 {
				bits(5)
			} else {
				fpv()
			}
		}
		return nil
	}
	switch op {
	case PlusOne, PlusTwo, PlusThree, PlusFour, PushOneLeftDeltaZeroRightZero, PushOneLeftDeltaOneRightZero,
		PopOnePlusOne, PopAllButOnePlusOne, NonTopoPenultimatePlusOne, Finish:
	case PlusN, PushOneLeftDeltaZeroRightNonZero, PushOneLeftDeltaOneRightNonZero, PushOneLeftDeltaNRightZero,
		PopOnePlusN, PopAllButOnePlusN, PopNPlusOne:
		fpv()
	case PushOneLeftDeltaNRightNonZero:
		fpv()
		fpv()
	case PushOneLeftDeltaNRightNonZeroPack6Bits:
		bits(3)
		bits(3)
	case PushOneLeftDeltaNRightNonZeroPack8Bits:
		bits(4)
		bits(4)
	case PushTwoLeftDeltaZero, PushTwoPack5LeftDeltaZero, PushThreeLeftDeltaZero, PushThreePack5LeftDeltaZero,
		PushTwoLeftDeltaOne, PushTwoPack5LeftDeltaOne, PushThreeLeftDeltaOne, PushThreePack5LeftDeltaOne,
		PushTwoLeftDeltaN, PushTwoPack5LeftDeltaN, PushThreeLeftDeltaN, PushThreePack5LeftDeltaN:
		k := int(op - PushTwoLeftDeltaZero)
		group, form := k/4, k%4
		if group == 2 {
			ubv()
		}
		count := int64(2)
		if form >= 2 {
			count = 3
		}
		pushes(count, form%2 == 1)
	case PushN:
		n := ubv()
		ubv()
		if err := pushes(n, false); err != nil {
			return out, err
		}
	case PushNAndNonTopological:
		nonTopo(pathLen, false)
		if err := pushes(ubv(), false); err != nil {
			return out, err
		}
	case PopAllButOnePlusNPack3Bits:
		bits(3)
	case PopAllButOnePlusNPack6Bits:
		bits(6)
	case PopNPlusN:
		fpv()
		vi()
	case PopNAndNonTopographical:
		n := fpv()
		if n > int64(pathLen) {
			return out, fmt.Errorf("%s pops %d of %d indexes", op, n, pathLen)
		}
		nonTopo(pathLen-int(n), false)
	case NonTopoComplex:
		nonTopo(pathLen, false)
	case NonTopoComplexPack4Bits:
		nonTopo(pathLen, true)
	default:
		return nil, fmt.Errorf("unknown op %d", op)
	}
	return out, r.Err()
}
