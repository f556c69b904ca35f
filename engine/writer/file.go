package writer

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/golang/snappy"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
)

// compressedFlag marks a snappy-compressed body in the command varint.
const compressedFlag = 64

// File is a demo file being written: the PBDEMS2 header, then commands.
// The header's two offsets are filled in by Bytes from the positions of the
// DEM_FileInfo and DEM_SpawnGroups commands (0 when absent).
type File struct {
	buf         []byte
	fileInfo    int
	spawnGroups int
	commands    int
}

// NewFile starts a file with its header.
func NewFile() *File {
	f := &File{buf: make([]byte, 0, 4096)}
	f.buf = append(f.buf, container.Magic...)
	f.buf = append(f.buf, make([]byte, container.HeaderSize-len(container.Magic))...)
	return f
}

// Command appends one demo command: kind, tick (-1 during signon, written
// as 0xffffffff), body size and body. With compress the body is
// snappy-compressed and the kind carries the compression flag. It returns
// the command's byte offset.
func (f *File) Command(kind container.Kind, tick int32, body []byte, compress bool) int {
	if compress {
		body = snappy.Encode(nil, body)
	}
	return f.Raw(kind, tick, compress, body)
}

// Raw appends a command exactly as another file framed it: kind, tick and
// body as stored there (compressed when compressed is set), so that the
// body's bytes are the original's. It returns the command's byte offset.
func (f *File) Raw(kind container.Kind, tick int32, compressed bool, stored []byte) int {
	off := len(f.buf)
	switch kind {
	case container.FileInfo:
		f.fileInfo = off
	case container.SpawnGroups:
		f.spawnGroups = off
	}
	cmd := uint64(kind)
	if compressed {
		cmd |= compressedFlag
	}
	f.buf = protowire.AppendVarint(f.buf, cmd)
	f.buf = protowire.AppendVarint(f.buf, uint64(uint32(tick)))
	f.buf = protowire.AppendVarint(f.buf, uint64(len(stored)))
	f.buf = append(f.buf, stored...)
	f.commands++
	return off
}

// Commands is the number of commands written.
func (f *File) Commands() int { return f.commands }

// Bytes returns the file with the header offsets filled in. The slice is
// the file's own buffer: writing more commands may reuse it.
func (f *File) Bytes() []byte {
	binary.LittleEndian.PutUint32(f.buf[8:], uint32(f.fileInfo))
	binary.LittleEndian.PutUint32(f.buf[12:], uint32(f.spawnGroups))
	return f.buf
}

// ShouldCompress reports whether snappy makes body smaller by a useful
// margin, for callers that compress only where it pays, as Valve's
// recorders do for large bodies.
func ShouldCompress(body []byte, threshold int) bool {
	if threshold < 0 || len(body) <= threshold {
		return false
	}
	return len(snappy.Encode(nil, body)) < len(body)*9/10
}

// pb is a protobuf message being built.
type pb struct{ b []byte }

func (m *pb) varint(n protowire.Number, v uint64) {
	m.b = protowire.AppendTag(m.b, n, protowire.VarintType)
	m.b = protowire.AppendVarint(m.b, v)
}

// int32 writes a proto int32: negative values take ten bytes, as
// protobuf sign-extends them.
func (m *pb) int32(n protowire.Number, v int32) { m.varint(n, uint64(int64(v))) }

func (m *pb) bool(n protowire.Number, v bool) {
	m.varint(n, protowire.EncodeBool(v))
}

func (m *pb) float(n protowire.Number, v float32) {
	m.b = protowire.AppendTag(m.b, n, protowire.Fixed32Type)
	m.b = protowire.AppendFixed32(m.b, math.Float32bits(v))
}

func (m *pb) bytes(n protowire.Number, v []byte) {
	m.b = protowire.AppendTag(m.b, n, protowire.BytesType)
	m.b = protowire.AppendBytes(m.b, v)
}

func (m *pb) string(n protowire.Number, v string) {
	m.b = protowire.AppendTag(m.b, n, protowire.BytesType)
	m.b = protowire.AppendString(m.b, v)
}

// optString writes v when it is not empty.
func (m *pb) optString(n protowire.Number, v string) {
	if v != "" {
		m.string(n, v)
	}
}

// optInt32 writes v when it is not zero.
func (m *pb) optInt32(n protowire.Number, v int32) {
	if v != 0 {
		m.int32(n, v)
	}
}

func errorf(format string, args ...any) error { return fmt.Errorf("writer: "+format, args...) }
