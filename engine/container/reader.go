package container

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/golang/snappy"
)

// Magic starts every Source 2 demo file.
const Magic = "PBDEMS2\x00"

// HeaderSize is the magic plus the two offsets.
const HeaderSize = 16

// MaxBodySize bounds a single command body, compressed or not. Real bodies
// are at most a few MiB; anything larger is corruption.
const MaxBodySize = 256 << 20

// maxSnappyRatio bounds how far snappy data can expand (64 bytes from a
// 3-byte copy element, rounded up).
const maxSnappyRatio = 22

// Header is the fixed start of the file.
type Header struct {
	FileInfoOffset    int32 // byte offset of the DEM_FileInfo command
	SpawnGroupsOffset int32 // byte offset of the DEM_SpawnGroups command, or 0
}

// Command is one demo command as framed in the file.
type Command struct {
	Index      int   // position in file order, from 0
	Offset     int   // byte offset of the command's first varint
	BodyOffset int   // byte offset of the (possibly compressed) body
	Kind       Kind  // command without the compression flag
	Compressed bool  // body was snappy-compressed in the file
	Tick       int32 // demo tick; -1 during signon (0xffffffff in the file)
	Size       int   // body size in the file (compressed size)
	Body       []byte
	// Broadcast says the command comes from a broadcast capture, where
	// DEM_Packet and DEM_SignonPacket bodies are the packet data itself
	// (no CDemoPacket) and DEM_SpawnGroups bodies are not protobuf.
	Broadcast bool
}

// End is the byte offset just past the command.
func (c *Command) End() int { return c.BodyOffset + c.Size }

// Error locates a container failure.
type Error struct {
	Offset  int // byte offset in the file
	Command int // command index, -1 for the header
	Tick    int32
	Err     error
}

func (e *Error) Error() string {
	if e.Command < 0 {
		return fmt.Sprintf("byte %d: header: %v", e.Offset, e.Err)
	}
	return fmt.Sprintf("byte %d: command #%d (tick %d): %v", e.Offset, e.Command, e.Tick, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrTruncated says the file ends inside a command.
var ErrTruncated = errors.New("file ends inside a command (truncated)")

// Reader walks the commands of an in-memory demo file.
type Reader struct {
	data     []byte
	pos      int
	index    int
	lastTick int32
	Header   Header
	scratch  []byte // reused decompression buffer

	segs    []Segment // a capture's fragment files (nil for a .dem file)
	seg     int       // the segment pos lies in
	stopped bool      // a capture's command 0 was read
}

// NewReader checks the header and positions the reader at the first command.
func NewReader(data []byte) (*Reader, error) {
	if IsCapture(data) {
		segs, pos, err := parseCapture(data)
		if err != nil {
			return nil, &Error{Offset: 0, Command: -1, Err: err}
		}
		if segs == nil {
			segs = []Segment{}
		}
		if len(segs) > 0 && segs[len(segs)-1].End == segs[0].Start {
			return nil, &Error{Offset: 0, Command: -1, Err: fmt.Errorf("the capture's %d fragment files are all empty: no command to read", len(segs))}
		}
		r := &Reader{data: data, pos: pos, segs: segs}
		if len(segs) > 0 {
			r.pos = segs[0].Start
		}
		return r, nil
	}
	if len(data) < HeaderSize {
		return nil, &Error{Offset: 0, Command: -1, Err: fmt.Errorf("file is %d bytes, shorter than the %d-byte header", len(data), HeaderSize)}
	}
	if string(data[:8]) != Magic {
		return nil, &Error{Offset: 0, Command: -1, Err: fmt.Errorf("magic is %q, want %q (%s)", data[:8], Magic, notADemo(data))}
	}
	return &Reader{
		data: data,
		pos:  HeaderSize,
		Header: Header{
			FileInfoOffset:    int32(binary.LittleEndian.Uint32(data[8:])),
			SpawnGroupsOffset: int32(binary.LittleEndian.Uint32(data[12:])),
		},
	}, nil
}

// Pos is the byte offset of the next command.
func (r *Reader) Pos() int { return r.pos }

// Seek moves to a command boundary found earlier (for example Command.Offset)
// and sets the index the next command will get.
func (r *Reader) Seek(offset, index int) {
	r.pos, r.index = offset, index
	if r.segs != nil {
		r.stopped = false
		r.seekSegment(offset)
	}
}

func (r *Reader) varint(what string) (uint64, error) {
	v, n := binary.Uvarint(r.data[r.pos:])
	if n == 0 {
		return 0, fmt.Errorf("%s: %w", what, ErrTruncated)
	}
	if n < 0 || v > 1<<32-1 {
		return 0, fmt.Errorf("%s: varint overflows 32 bits", what)
	}
	r.pos += n
	return v, nil
}

// PeekTick returns the tick of the next command without reading its body,
// and false at the end of the data or when its varints are broken.
func (r *Reader) PeekTick() (int32, bool) {
	pos, end, ok := r.peekSpan()
	if !ok {
		return 0, false
	}
	cmd, n := binary.Uvarint(r.data[pos:end])
	switch {
	case n <= 0:
	case r.segs != nil: // a capture's tick is a little-endian uint32
		if end-pos-n >= 4 {
			return r.captureTick(cmd, int32(binary.LittleEndian.Uint32(r.data[pos+n:]))), true
		}
	default:
		if tick, m := binary.Uvarint(r.data[pos+n : end]); m > 0 {
			return int32(uint32(tick)), true
		}
	}
	return 0, false
}

// PeekKind returns the kind of the next command without reading its body,
// and false where PeekTick has none.
func (r *Reader) PeekKind() (Kind, bool) {
	pos, end, ok := r.peekSpan()
	if !ok {
		return 0, false
	}
	if k, n := binary.Uvarint(r.data[pos:end]); n > 0 {
		return Kind(k &^ compressedFlag), true
	}
	return 0, false
}

// peekSpan is where the next command starts and the end of the bytes it
// may span (a capture's fragment); false when there is none.
func (r *Reader) peekSpan() (pos, end int, ok bool) {
	if r.segs == nil {
		return r.pos, len(r.data), true
	}
	seg, pos := r.segmentFrom(r.seg, r.pos)
	if seg >= len(r.segs) || r.stopped {
		return 0, 0, false
	}
	return pos, r.segs[seg].End, true
}

// Next returns the next command, or io.EOF after the last byte. The body
// aliases the file data, or for compressed commands a buffer reused by the
// next call: copy it to keep it.
func (r *Reader) Next() (Command, error) {
	if r.segs != nil {
		return r.nextCapture()
	}
	if r.pos >= len(r.data) {
		return Command{}, io.EOF
	}
	c := Command{Index: r.index, Offset: r.pos, Tick: r.lastTick}
	fail := func(err error) (Command, error) {
		return c, &Error{Offset: c.Offset, Command: c.Index, Tick: c.Tick, Err: err}
	}
	cmd, err := r.varint("command")
	if err != nil {
		return fail(err)
	}
	// The kind is known from here on: a broken tick or size is reported
	// against this command's kind, not the one before.
	c.Kind = Kind(cmd &^ compressedFlag)
	c.Compressed = cmd&compressedFlag != 0
	tick, err := r.varint("tick")
	if err != nil {
		return fail(err)
	}
	c.Tick = int32(uint32(tick))
	size, err := r.varint("size")
	if err != nil {
		return fail(err)
	}
	c.BodyOffset = r.pos
	c.Size = int(size)
	if c.Size > MaxBodySize {
		return fail(fmt.Errorf("%s body of %d bytes exceeds the %d-byte limit", c.Kind, c.Size, MaxBodySize))
	}
	if c.Size > len(r.data)-r.pos {
		return fail(fmt.Errorf("%s body needs %d bytes, %d remain: %w", c.Kind, c.Size, len(r.data)-r.pos, ErrTruncated))
	}
	raw := r.data[r.pos : r.pos+c.Size]
	r.pos += c.Size
	r.index++
	r.lastTick = c.Tick
	c.Body = raw
	if c.Compressed {
		out, err := r.decompress(raw)
		if err != nil {
			return fail(err)
		}
		c.Body = out
	}
	return c, nil
}

// decompress undoes snappy into the reused scratch buffer.
func (r *Reader) decompress(raw []byte) ([]byte, error) {
	n, err := snappy.DecodedLen(raw)
	if err != nil {
		return nil, fmt.Errorf("snappy body: %v", err)
	}
	if n > MaxBodySize {
		return nil, fmt.Errorf("snappy body claims %d bytes, over the %d-byte limit", n, MaxBodySize)
	}
	// snappy.Decode allocates the claimed length before decoding; no
	// snappy element yields more than 64 bytes per 3 input bytes, so a
	// larger claim is corrupt and must not cost an allocation.
	if n > maxSnappyRatio*len(raw) {
		return nil, fmt.Errorf("snappy body claims %d bytes, impossible from %d compressed bytes", n, len(raw))
	}
	out, err := snappy.Decode(r.scratch[:cap(r.scratch)], raw)
	if err != nil {
		return nil, fmt.Errorf("snappy body: %v", err)
	}
	r.scratch = out
	return out, nil
}

// ResetScratch drops the decompression buffer, so that a copy of the
// reader does not share it with the original.
func (r *Reader) ResetScratch() { r.scratch = nil }

// Scratch is the decompression buffer, for a later reader (UseScratch)
// once this one is done.
func (r *Reader) Scratch() []byte { return r.scratch }

// UseScratch gives the reader a buffer to decompress into, one a reader
// that is done had (Scratch).
func (r *Reader) UseScratch(b []byte) { r.scratch = b[:0] }

// notADemo says what a file that is no Source 2 demo looks like it is, by
// its first bytes, when that tells a user what to do: Valve serves
// replays compressed (.dem.bz2), and a Source 1 demo has a magic of its own.
func notADemo(data []byte) string {
	decompress := func(kind, tool string) string {
		return "not a Source 2 demo but " + kind + " file: decompress it first (" + tool + ")"
	}
	switch {
	case len(data) >= 4 && string(data[:3]) == "BZh" && data[3] >= '1' && data[3] <= '9':
		return decompress("a bzip2", "bunzip2; Valve serves replays as .dem.bz2")
	case len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b:
		return decompress("a gzip", "gunzip")
	case len(data) >= 4 && string(data[:4]) == "\x28\xb5\x2f\xfd":
		return decompress("a zstd", "unzstd")
	case len(data) >= 6 && string(data[:6]) == "\xfd7zXZ\x00":
		return decompress("an xz", "unxz")
	case len(data) >= 4 && string(data[:4]) == "PK\x03\x04":
		return "not a Source 2 demo but a zip archive: extract the .dem from it first"
	case len(data) >= 8 && string(data[:8]) == "HL2DEMO\x00":
		return "a Source 1 demo (CS:GO, or Dota 2 before Source 2): dembug reads Source 2 demos"
	}
	return "not a Source 2 demo"
}
