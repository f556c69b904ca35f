package container

import "encoding/binary"

// Where the file header's fields stand: the magic in its first 8 bytes,
// then two little-endian int32 byte offsets.
const (
	FileInfoAt    = 8  // DEM_FileInfo's offset
	SpawnGroupsAt = 12 // DEM_SpawnGroups' offset, 0 for none
)

// ReadHeader reads the file header at the start of data, as Open does,
// without checking the magic: the magic's bytes and the two offsets.
// false when data is shorter than the header.
func ReadHeader(data []byte) (magic []byte, h Header, ok bool) {
	if len(data) < HeaderSize {
		return nil, Header{}, false
	}
	return data[:8], Header{
		FileInfoOffset:    int32(binary.LittleEndian.Uint32(data[FileInfoAt:])),
		SpawnGroupsOffset: int32(binary.LittleEndian.Uint32(data[SpawnGroupsAt:])),
	}, true
}
