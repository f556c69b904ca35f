package fieldpath

import (
	"container/heap"
	"strings"
)

// Code is an op's Huffman code: Len bits, first bit read in bit 0.
type Code struct {
	Bits uint32
	Len  uint8
}

// String spells the code in read order, e.g. "1110".
func (c Code) String() string {
	var b strings.Builder
	for i := uint8(0); i < c.Len; i++ {
		b.WriteByte('0' + byte(c.Bits>>i&1))
	}
	return b.String()
}

type hnode struct {
	weight      int
	value       int // leaf: op; inner: creation number from NumOps up
	left, right *hnode
}

type hheap []*hnode

func (h hheap) Len() int { return len(h) }
func (h hheap) Less(i, j int) bool {
	// Lighter first; on equal weight the higher value first. Values are
	// unique, so the tree is fully determined.
	if h[i].weight == h[j].weight {
		return h[i].value >= h[j].value
	}
	return h[i].weight < h[j].weight
}
func (h hheap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *hheap) Push(x any)   { *h = append(*h, x.(*hnode)) }
func (h *hheap) Pop() any {
	old := *h
	n := old[len(old)-1]
	*h = old[:len(old)-1]
	return n
}

// lookupBits is the width of the first-level decode table; codes up to this
// long (every op with a weight above 100) decode with one table read, 4 KiB.
const lookupBits = 11

var (
	codes [NumOps]Code
	root  *hnode
	// lookup maps the next lookupBits bits to op|len<<8, or 0 when the code
	// is longer and the tree must be walked.
	lookup [1 << lookupBits]uint16
)

func init() {
	h := make(hheap, 0, NumOps)
	for op := Op(0); op < NumOps; op++ {
		w := op.Weight()
		if w == 0 {
			w = 1 // unused ops still get a (long) code
		}
		h = append(h, &hnode{weight: w, value: int(op)})
	}
	heap.Init(&h)
	next := int(NumOps)
	for h.Len() > 1 {
		a := heap.Pop(&h).(*hnode)
		b := heap.Pop(&h).(*hnode)
		heap.Push(&h, &hnode{weight: a.weight + b.weight, value: next, left: a, right: b})
		next++
	}
	root = heap.Pop(&h).(*hnode)
	var walk func(n *hnode, bits uint32, depth uint8)
	walk = func(n *hnode, bits uint32, depth uint8) {
		if n.left == nil {
			codes[n.value] = Code{Bits: bits, Len: depth}
			return
		}
		walk(n.left, bits, depth+1)
		walk(n.right, bits|1<<depth, depth+1)
	}
	walk(root, 0, 0)
	for op, c := range codes {
		if c.Len > lookupBits {
			continue
		}
		for hi := uint32(0); hi < 1<<(lookupBits-c.Len); hi++ {
			lookup[c.Bits|hi<<c.Len] = uint16(op) | uint16(c.Len)<<8
		}
	}
}

// CodeOf returns the Huffman code of op.
func CodeOf(op Op) Code { return codes[op] }
