package fieldpath

import (
	"strings"

	"github.com/dembug/dembug/engine/bitio"
)

// The forms an op's operands are read in, as a learner reads them.
const (
	// UBitVarFPDoc is the field-path varint (Reader.UBitVarFP).
	UBitVarFPDoc = "fpvar: a field-path varint, prefix bits then the value's bits (read order, lowest bit first): " +
		"1 then 2 bits (0-3); 01 then 4 bits (0-15); 001 then 10 bits; 0001 then 17 bits; 0000 then 31 bits"
	// UBitVarDoc is the ubitvar (Reader.UBitVar), the form of inner
	// message types too.
	UBitVarDoc = "ubitvar: 6 bits, whose low 4 are the value's low 4 bits and whose top 2 say how many bits follow " +
		"(0, 4, 8 or 28); the bits that follow count x16 (they are the value's bits from bit 4 up)"
	// VarInt32Doc is a zigzag varint (Reader.VarInt32).
	VarInt32Doc = "varint32: a protobuf varint (bytes of 8 bits, low 7 the value, the top bit set when another follows), " +
		"then zigzag: 0, 1, 2, 3, 4 are 0, -1, 1, -2, 2"
	// TreeDoc says how the Huffman tree of the ops is built.
	TreeDoc = "The codes are a Huffman tree over the 40 ops, each a leaf weighted by its frequency in Valve's table " +
		"(the 16 ops of weight 0 in that table count as 1 and still get a code). The two lightest nodes are " +
		"joined into one of their summed weight, again and again until one is left; the first of the two taken is " +
		"the 0 branch, the second the 1 branch. Ties: of two nodes of equal weight the one with the higher number is " +
		"taken first, where a leaf's number is its op's (0 PlusOne ... 39 FieldPathEncodeFinish) and joined nodes " +
		"are numbered 40, 41, ... as they are made; so the tree, and every code, is fixed. A code is the branches " +
		"from the root, the first bit read first; no code is the start of another. The path starts as [-1] for " +
		"every update; every op but the finish yields the path it leaves."
)

// Form is how one operand is read.
type Form uint8

const (
	FormBits      Form = oBits      // N raw bits, lowest first
	FormUBitVar   Form = oUBitVar   // UBitVarDoc
	FormUBitVarFP Form = oUBitVarFP // UBitVarFPDoc
	FormVarInt32  Form = oVarInt32  // VarInt32Doc
)

// Operand is one operand of an example: its form, bits (FormBits) and
// value.
type Operand struct {
	Form Form
	N    uint8
	V    int64
}

// Doc describes an op for a learner: how its operands are read, what it
// does to the path, and an example that the package's tests run through
// Read.
type Doc struct {
	Operand string // the operands in reading order, or "none"
	Effect  string // what the op does to the path ("last" is its last index)
	// Example: the op read after a path Before, with operands of these
	// values, leaves After (nil for the finish op, which yields none).
	Before, After []int32
	Operands      []Operand
}

// ExampleBits spells the example's operands as they are read, one group
// per operand, each lowest bit first ("1 01" for two operands).
func (d Doc) ExampleBits() string {
	var parts []string
	for _, o := range d.Operands {
		var w bitio.Writer
		o.write(&w)
		var r bitio.Reader
		r.Reset(w.Bytes())
		var b strings.Builder
		for i := uint(0); i < w.Len(); i++ {
			if r.Bool() {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		}
		parts = append(parts, b.String())
	}
	return strings.Join(parts, " ")
}

// write writes the operand as the ops' operands are written.
func (o Operand) write(w *bitio.Writer) {
	switch o.Form {
	case FormBits:
		w.Bits(uint64(o.V), uint(o.N))
	case FormUBitVar:
		w.UBitVar(uint32(o.V))
	case FormUBitVarFP:
		w.UBitVarFP(uint32(o.V))
	case FormVarInt32:
		w.VarUint32(zigzag32(o.V))
	}
}

func fp(v int64) Operand           { return Operand{Form: FormUBitVarFP, V: v} }
func ubv(v int64) Operand          { return Operand{Form: FormUBitVar, V: v} }
func vi(v int64) Operand           { return Operand{Form: FormVarInt32, V: v} }
func raw(n uint8, v int64) Operand { return Operand{Form: FormBits, N: n, V: v} }
func path(p ...int32) []int32      { return p }

const (
	nonTopoDoc = "per index, first to last: 1 bit, and when it is 1 a varint32 d"
	pushTwoFP  = "fpvar a, fpvar b"
	pushTwo5   = "5 bits a, 5 bits b"
	pushThrFP  = "fpvar a, fpvar b, fpvar c"
	pushThr5   = "5 bits a, 5 bits b, 5 bits c"
)

var docs = [NumOps]Doc{
	PlusOne:                                {"none", "last += 1", path(3), path(4), nil},
	PlusTwo:                                {"none", "last += 2", path(3), path(5), nil},
	PlusThree:                              {"none", "last += 3", path(3), path(6), nil},
	PlusFour:                               {"none", "last += 4", path(3), path(7), nil},
	PlusN:                                  {"fpvar v", "last += v + 5", path(3), path(10), []Operand{fp(2)}},
	PushOneLeftDeltaZeroRightZero:          {"none", "push 0", path(3), path(3, 0), nil},
	PushOneLeftDeltaZeroRightNonZero:       {"fpvar v", "push v", path(3), path(3, 5), []Operand{fp(5)}},
	PushOneLeftDeltaOneRightZero:           {"none", "last += 1, then push 0", path(3), path(4, 0), nil},
	PushOneLeftDeltaOneRightNonZero:        {"fpvar v", "last += 1, then push v", path(3), path(4, 5), []Operand{fp(5)}},
	PushOneLeftDeltaNRightZero:             {"fpvar v", "last += v, then push 0", path(3), path(8, 0), []Operand{fp(5)}},
	PushOneLeftDeltaNRightNonZero:          {"fpvar a, fpvar b", "last += a + 2, then push b + 1", path(3), path(6, 3), []Operand{fp(1), fp(2)}},
	PushOneLeftDeltaNRightNonZeroPack6Bits: {"3 bits a, 3 bits b", "last += a + 2, then push b + 1", path(3), path(6, 3), []Operand{raw(3, 1), raw(3, 2)}},
	PushOneLeftDeltaNRightNonZeroPack8Bits: {"4 bits a, 4 bits b", "last += a + 2, then push b + 1", path(3), path(14, 11), []Operand{raw(4, 9), raw(4, 10)}},
	PushTwoLeftDeltaZero:                   {pushTwoFP, "push a, push b", path(3), path(3, 1, 2), []Operand{fp(1), fp(2)}},
	PushTwoPack5LeftDeltaZero:              {pushTwo5, "push a, push b", path(3), path(3, 1, 2), []Operand{raw(5, 1), raw(5, 2)}},
	PushThreeLeftDeltaZero:                 {pushThrFP, "push a, b, c", path(3), path(3, 1, 2, 3), []Operand{fp(1), fp(2), fp(3)}},
	PushThreePack5LeftDeltaZero:            {pushThr5, "push a, b, c", path(3), path(3, 1, 2, 3), []Operand{raw(5, 1), raw(5, 2), raw(5, 3)}},
	PushTwoLeftDeltaOne:                    {pushTwoFP, "last += 1, then push a, push b", path(3), path(4, 1, 2), []Operand{fp(1), fp(2)}},
	PushTwoPack5LeftDeltaOne:               {pushTwo5, "last += 1, then push a, push b", path(3), path(4, 1, 2), []Operand{raw(5, 1), raw(5, 2)}},
	PushThreeLeftDeltaOne:                  {pushThrFP, "last += 1, then push a, b, c", path(3), path(4, 1, 2, 3), []Operand{fp(1), fp(2), fp(3)}},
	PushThreePack5LeftDeltaOne:             {pushThr5, "last += 1, then push a, b, c", path(3), path(4, 1, 2, 3), []Operand{raw(5, 1), raw(5, 2), raw(5, 3)}},
	PushTwoLeftDeltaN:                      {"ubitvar d, " + pushTwoFP, "last += d + 2, then push a, push b", path(3), path(6, 1, 2), []Operand{ubv(1), fp(1), fp(2)}},
	PushTwoPack5LeftDeltaN:                 {"ubitvar d, " + pushTwo5, "last += d + 2, then push a, push b", path(3), path(6, 1, 2), []Operand{ubv(1), raw(5, 1), raw(5, 2)}},
	PushThreeLeftDeltaN:                    {"ubitvar d, " + pushThrFP, "last += d + 2, then push a, b, c", path(3), path(6, 1, 2, 3), []Operand{ubv(1), fp(1), fp(2), fp(3)}},
	PushThreePack5LeftDeltaN:               {"ubitvar d, " + pushThr5, "last += d + 2, then push a, b, c", path(3), path(6, 1, 2, 3), []Operand{ubv(1), raw(5, 1), raw(5, 2), raw(5, 3)}},
	PushN:                                  {"ubitvar n, ubitvar d, then n fpvars", "last += d, then push each of the n values", path(3), path(4, 4, 5), []Operand{ubv(2), ubv(1), fp(4), fp(5)}},
	PushNAndNonTopological:                 {nonTopoDoc + "; then ubitvar n and n fpvars", "each index with its bit set += d + 1; then push each of the n values", path(3, 2), path(5, 2, 7), []Operand{raw(1, 1), vi(1), raw(1, 0), ubv(1), fp(7)}},
	PopOnePlusOne:                          {"none", "pop one index, then last += 1", path(3, 2), path(4), nil},
	PopOnePlusN:                            {"fpvar v", "pop one index, then last += v + 1", path(3, 2), path(6), []Operand{fp(2)}},
	PopAllButOnePlusOne:                    {"none", "keep only the first index, then += 1", path(3, 2, 1), path(4), nil},
	PopAllButOnePlusN:                      {"fpvar v", "keep only the first index, then += v + 1", path(3, 2, 1), path(6), []Operand{fp(2)}},
	PopAllButOnePlusNPack3Bits:             {"3 bits v", "keep only the first index, then += v + 1", path(3, 2, 1), path(6), []Operand{raw(3, 2)}},
	PopAllButOnePlusNPack6Bits:             {"6 bits v", "keep only the first index, then += v + 1", path(3, 2, 1), path(14), []Operand{raw(6, 10)}},
	PopNPlusOne:                            {"fpvar n", "pop n indexes, then last += 1", path(3, 2, 1), path(4), []Operand{fp(2)}},
	PopNPlusN:                              {"fpvar n, varint32 d", "pop n indexes, then last += d", path(3, 2, 1), path(3, 1), []Operand{fp(1), vi(-1)}},
	PopNAndNonTopographical:                {"fpvar n; then " + nonTopoDoc, "pop n indexes, then each index with its bit set += d", path(3, 2, 1), path(5, 2), []Operand{fp(1), raw(1, 1), vi(2), raw(1, 0)}},
	NonTopoComplex:                         {nonTopoDoc, "each index with its bit set += d (the path keeps its length)", path(3, 2), path(3, 1), []Operand{raw(1, 0), raw(1, 1), vi(-1)}},
	NonTopoPenultimatePlusOne:              {"none", "the index before the last += 1 (the path keeps its length)", path(3, 2), path(4, 2), nil},
	NonTopoComplexPack4Bits:                {"per index, first to last: 1 bit, and when it is 1 4 bits v", "each index with its bit set += v - 7 (the path keeps its length)", path(3, 2), path(5, 2), []Operand{raw(1, 1), raw(4, 9), raw(1, 0)}},
	Finish:                                 {"none", "ends the update's paths; yields no path (the values follow, one per path)", path(3), nil, nil},
}

// Describe returns op's description.
func Describe(op Op) Doc { return docs[op] }
