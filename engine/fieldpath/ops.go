package fieldpath

// Op is one field-path operation. The numbering is the order of Valve's op
// table, which the Huffman weights below follow.
type Op uint8

const (
	PlusOne Op = iota
	PlusTwo
	PlusThree
	PlusFour
	PlusN
	PushOneLeftDeltaZeroRightZero
	PushOneLeftDeltaZeroRightNonZero
	PushOneLeftDeltaOneRightZero
	PushOneLeftDeltaOneRightNonZero
	PushOneLeftDeltaNRightZero
	PushOneLeftDeltaNRightNonZero
	PushOneLeftDeltaNRightNonZeroPack6Bits
	PushOneLeftDeltaNRightNonZeroPack8Bits
	PushTwoLeftDeltaZero
	PushTwoPack5LeftDeltaZero
	PushThreeLeftDeltaZero
	PushThreePack5LeftDeltaZero
	PushTwoLeftDeltaOne
	PushTwoPack5LeftDeltaOne
	PushThreeLeftDeltaOne
	PushThreePack5LeftDeltaOne
	PushTwoLeftDeltaN
	PushTwoPack5LeftDeltaN
	PushThreeLeftDeltaN
	PushThreePack5LeftDeltaN
	PushN
	PushNAndNonTopological
	PopOnePlusOne
	PopOnePlusN
	PopAllButOnePlusOne
	PopAllButOnePlusN
	PopAllButOnePlusNPack3Bits
	PopAllButOnePlusNPack6Bits
	PopNPlusOne
	PopNPlusN
	PopNAndNonTopographical
	NonTopoComplex
	NonTopoPenultimatePlusOne
	NonTopoComplexPack4Bits
	Finish
	NumOps
)

var opInfo = [NumOps]struct {
	name   string
	weight int
}{
	{"PlusOne", 36271},
	{"PlusTwo", 10334},
	{"PlusThree", 1375},
	{"PlusFour", 646},
	{"PlusN", 4128},
	{"PushOneLeftDeltaZeroRightZero", 35},
	{"PushOneLeftDeltaZeroRightNonZero", 3},
	{"PushOneLeftDeltaOneRightZero", 521},
	{"PushOneLeftDeltaOneRightNonZero", 2942},
	{"PushOneLeftDeltaNRightZero", 560},
	{"PushOneLeftDeltaNRightNonZero", 471},
	{"PushOneLeftDeltaNRightNonZeroPack6Bits", 10530},
	{"PushOneLeftDeltaNRightNonZeroPack8Bits", 251},
	{"PushTwoLeftDeltaZero", 0},
	{"PushTwoPack5LeftDeltaZero", 0},
	{"PushThreeLeftDeltaZero", 0},
	{"PushThreePack5LeftDeltaZero", 0},
	{"PushTwoLeftDeltaOne", 0},
	{"PushTwoPack5LeftDeltaOne", 0},
	{"PushThreeLeftDeltaOne", 0},
	{"PushThreePack5LeftDeltaOne", 0},
	{"PushTwoLeftDeltaN", 0},
	{"PushTwoPack5LeftDeltaN", 0},
	{"PushThreeLeftDeltaN", 0},
	{"PushThreePack5LeftDeltaN", 0},
	{"PushN", 0},
	{"PushNAndNonTopological", 310},
	{"PopOnePlusOne", 2},
	{"PopOnePlusN", 0},
	{"PopAllButOnePlusOne", 1837},
	{"PopAllButOnePlusN", 149},
	{"PopAllButOnePlusNPack3Bits", 300},
	{"PopAllButOnePlusNPack6Bits", 634},
	{"PopNPlusOne", 0},
	{"PopNPlusN", 0},
	{"PopNAndNonTopographical", 1},
	{"NonTopoComplex", 76},
	{"NonTopoPenultimatePlusOne", 271},
	{"NonTopoComplexPack4Bits", 99},
	{"FieldPathEncodeFinish", 25474},
}

func (o Op) String() string {
	if o < NumOps {
		return opInfo[o].name
	}
	return "invalid op"
}

// Weight is the op's standard Huffman weight (frequency in Valve's table).
func (o Op) Weight() int { return opInfo[o].weight }
