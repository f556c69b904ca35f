// Package lzss implements Valve's LZSS codec, the older of the two
// compressions found in string-table data (newer demos use snappy).
//
// The format, as produced by the engine's CLZSS codec:
//
//	"LZSS"              4-byte magic
//	size                uint32, little-endian: length of the decoded data
//	groups...           one command byte, then up to eight items
//
// The command byte's bits, lowest first, describe the items that follow it.
// A 0 bit is a literal: one byte copied to the output. A 1 bit is a
// back-reference of two bytes b0, b1: the 12-bit value (b0<<4 | b1>>4) is the
// distance minus one, and (b1&0x0f)+1 is the number of bytes to copy, one at a
// time so that a reference may overlap the bytes it produces. A back-reference
// whose count is 1 (b1&0x0f == 0) ends the stream; the decoded length must then
// equal the declared size.
package lzss

import (
	"encoding/binary"
	"fmt"
)

// Magic is the 4-byte header that marks LZSS data.
const Magic = "LZSS"

// HeaderSize is the length of the magic plus the declared size.
const HeaderSize = 8

const (
	windowSize = 1 << 12 // largest distance a back-reference can reach
	maxMatch   = 16      // longest copy a back-reference can express
	minMatch   = 3       // shorter matches cost as much as literals
)

// Error describes malformed input. Offset is the byte offset in the
// compressed input where the problem was found.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("lzss: %s at byte %d (0x%x)", e.Msg, e.Offset, e.Offset)
}

func errorf(off int, format string, args ...any) error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// IsCompressed reports whether src starts with the LZSS magic.
func IsCompressed(src []byte) bool {
	return len(src) >= len(Magic) && string(src[:len(Magic)]) == Magic
}

// DeclaredSize returns the decoded size recorded in the header of src.
func DeclaredSize(src []byte) (int, error) {
	if len(src) < HeaderSize {
		return 0, errorf(len(src), "truncated header: %d of %d bytes", len(src), HeaderSize)
	}
	if !IsCompressed(src) {
		return 0, errorf(0, "bad magic %q, want %q", src[:len(Magic)], Magic)
	}
	return int(binary.LittleEndian.Uint32(src[4:HeaderSize])), nil
}

// Decode decompresses src. maxSize bounds the output (a declared size above
// it is rejected before anything is allocated); maxSize <= 0 means only the
// declared size limits it. Decode never panics: bad magic, truncated input,
// back-references before the start of the output and output that would exceed
// the declared size are reported as *Error, naming the offending byte offset
// in src.
func Decode(src []byte, maxSize int) ([]byte, error) {
	size, err := DeclaredSize(src)
	if err != nil {
		return nil, err
	}
	if maxSize > 0 && size > maxSize {
		return nil, errorf(4, "declared size %d exceeds limit %d", size, maxSize)
	}
	// Each group of 17 input bytes yields at most 128 output bytes, so a
	// short input cannot justify a huge allocation whatever it declares.
	out := make([]byte, 0, min(size, 8*len(src)))

	p := HeaderSize
	for {
		if p >= len(src) {
			return nil, errorf(p, "truncated input: missing command byte (%d of %d bytes decoded)", len(out), size)
		}
		cmdAt := p
		cmd := src[p]
		p++
		for bit := 0; bit < 8; bit++ {
			if cmd&(1<<bit) == 0 {
				if p >= len(src) {
					return nil, errorf(p, "truncated input: missing literal %d of command byte at 0x%x", bit, cmdAt)
				}
				if len(out) >= size {
					return nil, errorf(p, "literal exceeds declared size %d", size)
				}
				out = append(out, src[p])
				p++
				continue
			}
			if p+2 > len(src) {
				return nil, errorf(p, "truncated input: back-reference %d of command byte at 0x%x needs 2 bytes, %d left", bit, cmdAt, len(src)-p)
			}
			b0, b1 := src[p], src[p+1]
			count := int(b1&0x0f) + 1
			if count == 1 {
				if len(out) != size {
					return nil, errorf(p, "end marker after %d bytes, declared size is %d", len(out), size)
				}
				return out, nil
			}
			dist := (int(b0)<<4 | int(b1)>>4) + 1
			if dist > len(out) {
				return nil, errorf(p, "back-reference to distance %d before start of output (%d bytes decoded)", dist, len(out))
			}
			if len(out)+count > size {
				return nil, errorf(p, "back-reference of %d bytes exceeds declared size %d (%d bytes decoded)", count, size, len(out))
			}
			from := len(out) - dist
			for i := range count {
				out = append(out, out[from+i])
			}
			p += 2
		}
	}
}

// Encode compresses src into the format Decode reads, using literals and
// greedy back-references found through a hash of 3-byte prefixes. It is
// correct rather than optimal. src must be shorter than 4 GiB.
func Encode(src []byte) []byte {
	out := make([]byte, HeaderSize, HeaderSize+len(src)+len(src)/8+4)
	copy(out, Magic)
	binary.LittleEndian.PutUint32(out[4:], uint32(len(src)))

	cmdAt, nbits := 0, 8 // nbits == 8: the next item needs a new command byte
	item := func(ref bool) {
		if nbits == 8 {
			cmdAt = len(out)
			out = append(out, 0)
			nbits = 0
		}
		if ref {
			out[cmdAt] |= 1 << nbits
		}
		nbits++
	}

	const (
		hashBits  = 14
		maxChain  = 64
		noPos     = -1
		hashShift = 32 - hashBits
	)
	head := make([]int32, 1<<hashBits)
	for i := range head {
		head[i] = noPos
	}
	prev := make([]int32, len(src))
	hash := func(i int) uint32 {
		v := uint32(src[i]) | uint32(src[i+1])<<8 | uint32(src[i+2])<<16
		return (v * 2654435761) >> hashShift
	}
	insert := func(i int) {
		if i+minMatch <= len(src) {
			h := hash(i)
			prev[i] = head[h]
			head[h] = int32(i)
		}
	}

	for i := 0; i < len(src); {
		bestLen, bestDist := 0, 0
		if i+minMatch <= len(src) {
			limit := min(maxMatch, len(src)-i)
			for c, n := head[hash(i)], 0; c != noPos && n < maxChain; c, n = prev[c], n+1 {
				d := i - int(c)
				if d > windowSize {
					break
				}
				l := 0
				for l < limit && src[int(c)+l] == src[i+l] {
					l++
				}
				if l > bestLen {
					bestLen, bestDist = l, d
					if l == limit {
						break
					}
				}
			}
		}
		if bestLen >= minMatch {
			item(true)
			code := bestDist - 1
			out = append(out, byte(code>>4), byte(code&0x0f)<<4|byte(bestLen-1))
			for k := range bestLen {
				insert(i + k)
			}
			i += bestLen
			continue
		}
		item(false)
		out = append(out, src[i])
		insert(i)
		i++
	}
	item(true)
	return append(out, 0, 0) // count 1: end of stream
}
