package fieldpath

import (
	"fmt"
	"strings"

	"github.com/dembug/dembug/engine/bitio"
)

// A field-path op taken apart for a reader to follow (the debugger's
// inspector): its Huffman code and operands as the bits hold them.

// OpBits is an op read at o.Start of data, taken apart: its code's bits,
// and the bits after the code (o.Bits - the code's length) up to 64.
type OpBits struct {
	Code      Code
	CodeBits  string // the code's bits as read
	Operand   uint   // bits after the code
	OperandAt uint   // where they start
	Raw       string // up to 64 of them, as read
}

// ReadOpBits takes apart op o of data.
func ReadOpBits(data []byte, o OpRecord) OpBits {
	c := CodeOf(o.Op)
	b := OpBits{Code: c, CodeBits: bitio.SpellAt(data, o.Start, uint(c.Len)), OperandAt: o.Start + uint(c.Len)}
	if o.Bits > uint(c.Len) {
		b.Operand = o.Bits - uint(c.Len)
		b.Raw = bitio.SpellAt(data, b.OperandAt, min(b.Operand, 64))
	}
	return b
}

// FinishAt is the finish op that ends an update's paths at bit end (the
// end of its path bits).
func FinishAt(end uint) OpRecord {
	fc := CodeOf(Finish)
	return OpRecord{Op: Finish, Start: end - uint(fc.Len), Bits: uint(fc.Len)}
}

// SpellOperands spells an op's n operand bits at bit at of data, one
// group per operand as ReadOperands reads them, each with its value
// ("01 0011=12 1=1"): bits in read order, the value as read (before the
// op adds to it). Operands that do not read back as n bits are spelt as
// raw bits alone (up to 64). pathLen is the path's length before the op.
func SpellOperands(data []byte, at, n uint, op Op, pathLen int) string {
	var r bitio.Reader
	r.Reset(data)
	r.Seek(at)
	ops, err := ReadOperands(&r, op, pathLen)
	if err != nil || r.Pos() != at+n {
		return bitio.SpellAt(data, at, min(n, 64))
	}
	// Read again operand by operand, as ReadOperands read them, for each
	// one's bits.
	r.Reset(data)
	r.Seek(at)
	parts := make([]string, 0, len(ops))
	for _, o := range ops {
		from := r.Pos()
		switch o.Form {
		case FormBits:
			r.Bits(uint(o.N))
		case FormUBitVar:
			r.UBitVar()
		case FormUBitVarFP:
			r.UBitVarFP()
		case FormVarInt32:
			r.VarInt32()
		}
		parts = append(parts, fmt.Sprintf("%s=%d", bitio.SpellRange(data, from, r.Pos()-from), o.V))
	}
	return strings.Join(parts, " ")
}
