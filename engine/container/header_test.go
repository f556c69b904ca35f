package container

import (
	"encoding/binary"
	"testing"
)

// ReadHeader reads the magic and both offsets where Open does.
func TestReadHeader(t *testing.T) {
	b := make([]byte, HeaderSize+4)
	copy(b, Magic)
	binary.LittleEndian.PutUint32(b[FileInfoAt:], 672489)
	binary.LittleEndian.PutUint32(b[SpawnGroupsAt:], 543629)
	magic, h, ok := ReadHeader(b)
	if !ok || string(magic) != Magic || h.FileInfoOffset != 672489 || h.SpawnGroupsOffset != 543629 {
		t.Fatalf("%q %+v %v", magic, h, ok)
	}
	if _, _, ok := ReadHeader(b[:HeaderSize-1]); ok {
		t.Fatal("a short file has a header")
	}
}
