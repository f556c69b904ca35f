package fieldpath

import (
	"fmt"
	"math/bits"
	"strconv"

	"github.com/dembug/dembug/engine/bitio"
)

// MaxDepth bounds path length; Valve's serializers nest far less deeply.
const MaxDepth = 8

// MaxPaths bounds the paths of one entity update, so that corrupt data
// cannot loop for long.
const MaxPaths = 1 << 14

// Path is a field path: indexes into the serializer tree, Idx[0..Last].
type Path struct {
	Idx  [MaxDepth]int32
	Last int
}

// Len is the number of indexes.
func (p *Path) Len() int { return p.Last + 1 }

// Before reports whether p sorts before q, index by index (a prefix
// first): the order Valve writes an update's paths in.
func (p *Path) Before(q *Path) bool {
	for i := 0; i <= p.Last && i <= q.Last; i++ {
		if p.Idx[i] != q.Idx[i] {
			return p.Idx[i] < q.Idx[i]
		}
	}
	return p.Last < q.Last
}

// Slice returns the indexes.
func (p *Path) Slice() []int32 { return p.Idx[:p.Last+1] }

// String formats the path as "[3 12 0]".
func (p Path) String() string {
	b := []byte{'['}
	for i := 0; i <= p.Last; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(p.Idx[i]), 10)
	}
	return string(append(b, ']'))
}

// OpRecord says which op produced a path and where its bits are.
type OpRecord struct {
	Op    Op
	Start uint // bit offset of the op's Huffman code
	Bits  uint // code plus operand bits
}

// Span is the op's bits.
func (o OpRecord) Span() bitio.Span { return bitio.Span{Start: o.Start, Bits: o.Bits} }

// Error locates a bad field-path stream.
type Error struct {
	Bit  uint // bit offset of the op
	Op   Op
	Path Path
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("field path op %s at bit %s: %s (path %s)", e.Op, bitio.Offset(e.Bit), e.Msg, e.Path)
}

// readOp decodes one Huffman code.
func readOp(r *bitio.Reader) Op {
	if e := lookup[r.Peek(lookupBits)]; e != 0 {
		r.Skip(uint(e >> 8))
		return Op(e & 0xff)
	}
	n := root
	for n.left != nil {
		if r.Bool() {
			n = n.right
		} else {
			n = n.left
		}
		if r.Overflowed() {
			return Finish
		}
	}
	return Op(n.value)
}

// Read decodes field paths up to the finish op, appending them to paths. If
// rec is non-nil one OpRecord per path is appended to it, and the finish op
// last. On error the paths read so far are returned.
func Read(r *bitio.Reader, paths []Path, rec *[]OpRecord) ([]Path, error) {
	p := Path{}
	p.Idx[0] = -1
	for {
		start := r.Pos()
		// The op's code comes from the table when a bit window is at hand
		// (everywhere but the data's last 8 bytes), and the frequent ops
		// (nine in ten) then run here, reading their operands from the
		// same window; they change at most the last two indexes and leave
		// the checks to the end of the loop. Everything else goes through
		// readOp and apply.
		var op Op
		w, inline := r.Window()
		if e := lookup[w&(1<<lookupBits-1)]; inline && e != 0 {
			op = Op(e & 0xff)
			r.Skip(uint(e >> 8))
			w >>= e >> 8
		} else {
			op, inline = readOp(r), false
		}
		if inline && p.Last+1 >= MaxDepth && op >= PushOneLeftDeltaZeroRightZero && op <= PushOneLeftDeltaNRightNonZeroPack8Bits {
			inline = false // apply reports the depth error
		}
		n := uint(0)   // operand bits the inline ops take from w
		run := uint(0) // PlusOne codes right after this PlusOne, in w
		if inline {
			switch op {
			case Finish:
			case PlusOne:
				p.Idx[p.Last]++
				// PlusOne's code is the one bit 0, so the zeros that follow
				// in w (at least 56 bits of data) are more of them.
				run = uint(bits.TrailingZeros64(w | 1<<56))
			case PlusTwo:
				p.Idx[p.Last] += 2
			case PlusThree:
				p.Idx[p.Last] += 3
			case PlusFour:
				p.Idx[p.Last] += 4
			case PlusN:
				v, k := bitio.UBitVarFPOf(w)
				p.Idx[p.Last] += int32(v) + 5
				n += k
			case PushOneLeftDeltaZeroRightZero:
				p.Last++
				p.Idx[p.Last] = 0
			case PushOneLeftDeltaOneRightZero:
				p.Idx[p.Last]++
				p.Last++
				p.Idx[p.Last] = 0
			case PushOneLeftDeltaOneRightNonZero:
				v, k := bitio.UBitVarFPOf(w)
				p.Idx[p.Last]++
				p.Last++
				p.Idx[p.Last] = int32(v)
				n += k
			case PushOneLeftDeltaNRightZero:
				v, k := bitio.UBitVarFPOf(w)
				p.Idx[p.Last] += int32(v)
				p.Last++
				p.Idx[p.Last] = 0
				n += k
			case PushOneLeftDeltaNRightNonZeroPack6Bits:
				p.Idx[p.Last] += int32(w&7) + 2
				p.Last++
				p.Idx[p.Last] = int32(w>>3&7) + 1
				n += 6
			case PushOneLeftDeltaNRightNonZeroPack8Bits:
				p.Idx[p.Last] += int32(w&15) + 2
				p.Last++
				p.Idx[p.Last] = int32(w>>4&15) + 1
				n += 8
			case PopAllButOnePlusOne:
				p.popAll()
				p.Idx[0]++
			case PopAllButOnePlusN:
				v, k := bitio.UBitVarFPOf(w)
				p.popAll()
				p.Idx[0] += int32(v) + 1
				n += k
			case PopAllButOnePlusNPack3Bits:
				p.popAll()
				p.Idx[0] += int32(w&7) + 1
				n += 3
			case PopAllButOnePlusNPack6Bits:
				p.popAll()
				p.Idx[0] += int32(w&63) + 1
				n += 6
			default:
				inline = false
			}
		}
		switch {
		case inline:
			r.Skip(n)
		case op != Finish:
			if msg := apply(r, &p, op); msg != "" {
				if r.Overflowed() {
					return paths, r.Err() // an op read from past the end is an over-read
				}
				return paths, &Error{Bit: start, Op: op, Path: p, Msg: msg}
			}
		}
		if op == Finish {
			if rec != nil {
				*rec = append(*rec, OpRecord{Op: Finish, Start: start, Bits: r.Pos() - start})
			}
			return paths, r.Err()
		}
		if r.Overflowed() {
			return paths, r.Err()
		}
		// The inline ops change at most the last two indexes and check
		// none; an index past MaxInt32 wraps negative.
		if p.Idx[p.Last] < 0 || p.Last > 0 && p.Idx[p.Last-1] < 0 {
			return paths, &Error{Bit: start, Op: op, Path: p, Msg: errNegative}
		}
		paths = append(paths, p)
		if rec != nil {
			*rec = append(*rec, OpRecord{Op: op, Start: start, Bits: r.Pos() - start})
		}
		if len(paths) > MaxPaths {
			return paths, &Error{Bit: start, Op: op, Path: p, Msg: errTooMany}
		}
		// The run of PlusOne: a path a bit, checked as above, without the
		// lookup and switch (up to the data's end; past it the loop above
		// reads the op and reports the over-read as before).
		for ; run > 0 && r.Remaining() > 0; run-- {
			start = r.Pos()
			r.Skip(1)
			p.Idx[p.Last]++
			if p.Idx[p.Last] < 0 {
				return paths, &Error{Bit: start, Op: PlusOne, Path: p, Msg: errNegative}
			}
			paths = append(paths, p)
			if rec != nil {
				*rec = append(*rec, OpRecord{Op: PlusOne, Start: start, Bits: 1})
			}
			if len(paths) > MaxPaths {
				return paths, &Error{Bit: start, Op: PlusOne, Path: p, Msg: errTooMany}
			}
		}
	}
}

// popAll leaves only the first index.
func (p *Path) popAll() {
	for ; p.Last > 0; p.Last-- {
		p.Idx[p.Last] = 0
	}
}

func push(p *Path, v int32) bool {
	if p.Last+1 >= MaxDepth {
		return false
	}
	p.Last++
	p.Idx[p.Last] = v
	return true
}

func pop(p *Path, n int) bool {
	if n > p.Last {
		return false
	}
	for ; n > 0; n-- {
		p.Idx[p.Last] = 0
		p.Last--
	}
	return true
}

func nonTopo(r *bitio.Reader, p *Path, pack4 bool) {
	for i := 0; i <= p.Last; i++ {
		if r.Bool() {
			if pack4 {
				p.Idx[i] += int32(r.Bits(4)) - 7
			} else {
				p.Idx[i] += r.VarInt32()
			}
		}
	}
}

// errTooMany is what Read says past MaxPaths paths.
var errTooMany = fmt.Sprintf("more than %d paths in one update", MaxPaths)

const (
	errDepth    = "path deeper than the maximum"
	errPop      = "pops more levels than the path has"
	errNegative = "index went negative"
)

// apply runs one op on p, returning a problem description or "".
func apply(r *bitio.Reader, p *Path, op Op) string {
	switch op {
	case PlusOne:
		p.Idx[p.Last]++
	case PlusTwo:
		p.Idx[p.Last] += 2
	case PlusThree:
		p.Idx[p.Last] += 3
	case PlusFour:
		p.Idx[p.Last] += 4
	case PlusN:
		p.Idx[p.Last] += int32(r.UBitVarFP()) + 5
	case PushOneLeftDeltaZeroRightZero:
		if !push(p, 0) {
			return errDepth
		}
	case PushOneLeftDeltaZeroRightNonZero:
		if !push(p, int32(r.UBitVarFP())) {
			return errDepth
		}
	case PushOneLeftDeltaOneRightZero:
		p.Idx[p.Last]++
		if !push(p, 0) {
			return errDepth
		}
	case PushOneLeftDeltaOneRightNonZero:
		p.Idx[p.Last]++
		if !push(p, int32(r.UBitVarFP())) {
			return errDepth
		}
	case PushOneLeftDeltaNRightZero:
		p.Idx[p.Last] += int32(r.UBitVarFP())
		if !push(p, 0) {
			return errDepth
		}
	case PushOneLeftDeltaNRightNonZero:
		p.Idx[p.Last] += int32(r.UBitVarFP()) + 2
		if !push(p, int32(r.UBitVarFP())+1) {
			return errDepth
		}
	case PushOneLeftDeltaNRightNonZeroPack6Bits:
		p.Idx[p.Last] += int32(r.Bits(3)) + 2
		if !push(p, int32(r.Bits(3))+1) {
			return errDepth
		}
	case PushOneLeftDeltaNRightNonZeroPack8Bits:
		p.Idx[p.Last] += int32(r.Bits(4)) + 2
		if !push(p, int32(r.Bits(4))+1) {
			return errDepth
		}
	case PushTwoLeftDeltaZero, PushTwoPack5LeftDeltaZero, PushThreeLeftDeltaZero, PushThreePack5LeftDeltaZero,
		PushTwoLeftDeltaOne, PushTwoPack5LeftDeltaOne, PushThreeLeftDeltaOne, PushThreePack5LeftDeltaOne,
		PushTwoLeftDeltaN, PushTwoPack5LeftDeltaN, PushThreeLeftDeltaN, PushThreePack5LeftDeltaN:
		k := int(op - PushTwoLeftDeltaZero)
		group, form := k/4, k%4 // group: left delta zero/one/N; form: two, two pack5, three, three pack5
		switch group {
		case 1:
			p.Idx[p.Last]++
		case 2:
			p.Idx[p.Last] += int32(r.UBitVar()) + 2
		}
		count := 2
		if form >= 2 {
			count = 3
		}
		for i := 0; i < count; i++ {
			var v int32
			if form%2 == 1 {
				v = int32(r.Bits(5))
			} else {
				v = int32(r.UBitVarFP())
			}
			if !push(p, v) {
				return errDepth
			}
		}
	case PushN:
		n := int(r.UBitVar())
		p.Idx[p.Last] += int32(r.UBitVar())
		for i := 0; i < n; i++ {
			if !push(p, int32(r.UBitVarFP())) {
				return errDepth
			}
		}
	case PushNAndNonTopological:
		for i := 0; i <= p.Last; i++ {
			if r.Bool() {
				p.Idx[i] += r.VarInt32() + 1
			}
		}
		n := int(r.UBitVar())
		for i := 0; i < n; i++ {
			if !push(p, int32(r.UBitVarFP())) {
				return errDepth
			}
		}
	case PopOnePlusOne:
		if !pop(p, 1) {
			return errPop
		}
		p.Idx[p.Last]++
	case PopOnePlusN:
		if !pop(p, 1) {
			return errPop
		}
		p.Idx[p.Last] += int32(r.UBitVarFP()) + 1
	case PopAllButOnePlusOne:
		pop(p, p.Last)
		p.Idx[0]++
	case PopAllButOnePlusN:
		pop(p, p.Last)
		p.Idx[0] += int32(r.UBitVarFP()) + 1
	case PopAllButOnePlusNPack3Bits:
		pop(p, p.Last)
		p.Idx[0] += int32(r.Bits(3)) + 1
	case PopAllButOnePlusNPack6Bits:
		pop(p, p.Last)
		p.Idx[0] += int32(r.Bits(6)) + 1
	case PopNPlusOne:
		if !pop(p, int(r.UBitVarFP())) {
			return errPop
		}
		p.Idx[p.Last]++
	case PopNPlusN:
		if !pop(p, int(r.UBitVarFP())) {
			return errPop
		}
		p.Idx[p.Last] += r.VarInt32()
	case PopNAndNonTopographical:
		if !pop(p, int(r.UBitVarFP())) {
			return errPop
		}
		nonTopo(r, p, false)
	case NonTopoComplex:
		nonTopo(r, p, false)
	case NonTopoPenultimatePlusOne:
		if p.Last < 1 {
			return "no penultimate index"
		}
		p.Idx[p.Last-1]++
	case NonTopoComplexPack4Bits:
		nonTopo(r, p, true)
	default:
		return "unknown op"
	}
	for i := 0; i <= p.Last; i++ {
		if p.Idx[i] < 0 {
			return errNegative
		}
	}
	return ""
}
