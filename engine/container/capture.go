package container

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// A broadcast capture (what a Source 2 server's tv_broadcast serves over
// HTTP, saved as files) carries the same demo commands as a .dem file,
// framed differently and without the PBDEMS2 header:
//
//	command id (varint) | tick (uint32 LE) | one byte (0) | size (uint32 LE) | body
//
// DEM_Packet and DEM_SignonPacket bodies are the bit-packed inner messages
// themselves (no CDemoPacket around them), and DEM_SpawnGroups bodies are
// not protobuf either. A command 0 carries no size and ends the stream.
// The signon is in start.bin; N/full.bin is a full frame to start from at
// fragment N and N/delta.bin the commands after it.
//
// dembug reads a capture as one byte slice: CaptureMagic, a table of the
// fragment files (name and size, in the order they are read) and then the
// files' bytes one after the other (AssembleCapture). A byte offset into
// it maps back to a file and an offset in that file (Reader.Place).

// CaptureMagic starts a capture assembled by AssembleCapture. It is not a
// file format of Valve's: only dembug writes it, in memory.
const CaptureMagic = "DMBGCAP\x00"

// maxFragments bounds a capture's table (a match is a few thousand).
const maxFragments = 1 << 20

// Fragment is one file of a capture.
type Fragment struct {
	Name string // as the user knows it, e.g. "35/delta.bin"
	Data []byte
}

// Segment is where a fragment file's bytes lie in the assembled data.
type Segment struct {
	Name       string
	Start, End int
}

// IsCapture reports whether data was assembled by AssembleCapture.
func IsCapture(data []byte) bool {
	return len(data) >= len(CaptureMagic) && string(data[:len(CaptureMagic)]) == CaptureMagic
}

// AssembleCapture lays fragment files out as one byte slice Reader reads.
func AssembleCapture(frags []Fragment) []byte {
	n := len(CaptureMagic) + 4
	for _, f := range frags {
		n += 8 + len(f.Name) + len(f.Data)
	}
	out := make([]byte, 0, n)
	out = append(out, CaptureMagic...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(frags)))
	for _, f := range frags {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(f.Name)))
		out = append(out, f.Name...)
		out = binary.LittleEndian.AppendUint32(out, uint32(len(f.Data)))
	}
	for _, f := range frags {
		out = append(out, f.Data...)
	}
	return out
}

// parseCapture reads the fragment table; it returns the segments and the
// offset of the first fragment's first byte.
func parseCapture(data []byte) ([]Segment, int, error) {
	pos := len(CaptureMagic)
	u32 := func(what string) (int, error) {
		if len(data)-pos < 4 {
			return 0, fmt.Errorf("capture table: %s: %w", what, ErrTruncated)
		}
		v := binary.LittleEndian.Uint32(data[pos:])
		pos += 4
		return int(v), nil
	}
	n, err := u32("fragment count")
	if err != nil {
		return nil, 0, err
	}
	if n > maxFragments {
		return nil, 0, fmt.Errorf("capture table: %d fragments, over the limit of %d", n, maxFragments)
	}
	segs := make([]Segment, 0, min(n, 4096))
	total := 0
	for i := 0; i < n; i++ {
		l, err := u32("name length")
		if err != nil {
			return nil, 0, err
		}
		if l > len(data)-pos {
			return nil, 0, fmt.Errorf("capture table: name: %w", ErrTruncated)
		}
		name := string(data[pos : pos+l])
		pos += l
		size, err := u32("size")
		if err != nil {
			return nil, 0, err
		}
		segs = append(segs, Segment{Name: name, Start: total, End: total + size})
		total += size
		if total > len(data) {
			return nil, 0, fmt.Errorf("capture table: fragments of %d bytes in %d: %w", total, len(data), ErrTruncated)
		}
	}
	for i := range segs {
		segs[i].Start += pos
		segs[i].End += pos
	}
	if len(segs) > 0 && segs[len(segs)-1].End > len(data) {
		return nil, 0, fmt.Errorf("capture table: fragments end at byte %d of %d: %w", segs[len(segs)-1].End, len(data), ErrTruncated)
	}
	return segs, pos, nil
}

// IsCapture reports whether the reader reads a broadcast capture.
func (r *Reader) IsCapture() bool { return r.segs != nil }

// Segments are the capture's fragment files in the order read (nil for a
// .dem file).
func (r *Reader) Segments() []Segment { return r.segs }

// Place names the file a byte offset lies in and the offset within it: for
// a .dem file the offset itself and an empty name.
func (r *Reader) Place(off int) (name string, local int) {
	return SegmentAt(r.segs, off)
}

// SegmentAt is Place over a segment list.
func SegmentAt(segs []Segment, off int) (name string, local int) {
	if segs == nil {
		return "", off
	}
	i := sort.Search(len(segs), func(i int) bool { return segs[i].End > off })
	if i == len(segs) {
		if i == 0 {
			return "", off
		}
		s := segs[i-1]
		return s.Name, off - s.Start
	}
	return segs[i].Name, off - segs[i].Start
}

// FormatPlace writes an offset as "byte N" for a .dem file and "FILE byte
// N" for a capture.
func FormatPlace(segs []Segment, off int) string {
	name, local := SegmentAt(segs, off)
	if name == "" {
		return fmt.Sprintf("byte %d", local)
	}
	return fmt.Sprintf("%s byte %d", name, local)
}

// seekSegment makes r.seg the segment holding offset off.
func (r *Reader) seekSegment(off int) {
	r.seg = sort.Search(len(r.segs), func(i int) bool { return r.segs[i].End > off })
}

// segmentFrom is where the next command starts from segment seg and
// offset pos: at a segment's end, the next segment's start.
func (r *Reader) segmentFrom(seg, pos int) (int, int) {
	for seg < len(r.segs) && pos >= r.segs[seg].End {
		seg++
		if seg < len(r.segs) {
			pos = r.segs[seg].Start
		}
	}
	return seg, pos
}

// captureTick is the tick of a capture's command cmd that carries tick:
// the end of the broadcast (command 0) may carry tick 0, and ends at the
// last tick played, not before it (a capture's last tick was reported as 0).
func (r *Reader) captureTick(cmd uint64, tick int32) int32 {
	if cmd == 0 && tick < r.lastTick {
		return r.lastTick
	}
	return tick
}

// bytesAfter counts the capture's bytes after offset p of the current
// segment, and the later segments' files.
func (r *Reader) bytesAfter(p int) (bytes, files int) {
	bytes = r.segs[r.seg].End - p
	for _, s := range r.segs[r.seg+1:] {
		bytes += s.End - s.Start
	}
	return bytes, len(r.segs) - r.seg - 1
}

// nextCapture reads one command of a capture.
func (r *Reader) nextCapture() (Command, error) {
	r.seg, r.pos = r.segmentFrom(r.seg, r.pos)
	if r.seg >= len(r.segs) || r.stopped {
		return Command{}, io.EOF
	}
	end := r.segs[r.seg].End
	c := Command{Index: r.index, Offset: r.pos, Tick: r.lastTick, Broadcast: true}
	fail := func(err error) (Command, error) {
		return c, &Error{Offset: c.Offset, Command: c.Index, Tick: c.Tick, Err: err}
	}
	cmd, n := binary.Uvarint(r.data[r.pos:end])
	if n == 0 {
		return fail(fmt.Errorf("command: %w", ErrTruncated))
	}
	if n < 0 || cmd > 1<<32-1 {
		return fail(errors.New("command: varint overflows 32 bits"))
	}
	c.Kind = Kind(cmd &^ compressedFlag)
	c.Compressed = cmd&compressedFlag != 0
	p := r.pos + n
	if end-p < 5 {
		return fail(fmt.Errorf("%s tick: %w", c.Kind, ErrTruncated))
	}
	c.Tick = r.captureTick(cmd, int32(binary.LittleEndian.Uint32(r.data[p:])))
	p += 5 // the tick and a byte that is always 0
	if cmd == 0 {
		// The end of the broadcast is its last bytes: read anywhere else,
		// it is bytes gone bad (a zeroed stretch reads as command 0), and
		// what follows would be dropped unseen.
		if after, files := r.bytesAfter(p); after > 0 {
			later := fmt.Sprintf("%d later fragment files", files)
			if files == 1 {
				later = "1 later fragment file"
			}
			return fail(fmt.Errorf("command 0 (the end of the broadcast) with %d bytes after it (the rest of %s and %s): a corrupt fragment, not its end", after, r.segs[r.seg].Name, later))
		}
		// The end of the broadcast: no size, no body.
		c.BodyOffset, c.Kind, c.Compressed = p, Stop, false
		r.pos, r.stopped = p, true
		r.index++
		r.lastTick = c.Tick
		return c, nil
	}
	if end-p < 4 {
		return fail(fmt.Errorf("%s size: %w", c.Kind, ErrTruncated))
	}
	size := int(binary.LittleEndian.Uint32(r.data[p:]))
	p += 4
	c.BodyOffset, c.Size = p, size
	if size > MaxBodySize {
		return fail(fmt.Errorf("%s body of %d bytes exceeds the %d-byte limit", c.Kind, size, MaxBodySize))
	}
	if size > end-p {
		return fail(fmt.Errorf("%s body needs %d bytes, %d remain in %s: %w", c.Kind, size, end-p, r.segs[r.seg].Name, ErrTruncated))
	}
	r.pos = p + size
	r.index++
	r.lastTick = c.Tick
	c.Body = r.data[p : p+size]
	if c.Compressed {
		out, err := r.decompress(c.Body)
		if err != nil {
			return fail(err)
		}
		c.Body = out
	}
	return c, nil
}
