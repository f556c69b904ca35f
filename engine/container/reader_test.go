package container

import (
	"encoding/binary"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/golang/snappy"
)

// file builds a demo file from raw command frames.
func file(frames ...[]byte) []byte {
	b := []byte(Magic)
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = binary.LittleEndian.AppendUint32(b, 0)
	for _, fr := range frames {
		b = append(b, fr...)
	}
	return b
}

// frame is one command: command varint, tick, size, body.
func frame(cmd, tick uint64, body []byte) []byte {
	b := binary.AppendUvarint(nil, cmd)
	b = binary.AppendUvarint(b, tick)
	b = binary.AppendUvarint(b, uint64(len(body)))
	return append(b, body...)
}

// A snappy body whose header claims far more than its bytes could expand
// to is refused before anything is allocated for it.
func TestSnappyClaimBeyondExpansion(t *testing.T) {
	// Header claims 200 MiB (under MaxBodySize), then one literal byte.
	body := binary.AppendUvarint(nil, 200<<20)
	body = append(body, 0x00, 'x')
	data := file(frame(uint64(Packet)|compressedFlag, 5, body))
	r, _ := NewReader(data)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := r.Next()
	runtime.ReadMemStats(&after)
	var ce *Error
	if !errors.As(err, &ce) || ce.Offset != HeaderSize || ce.Command != 0 || !strings.Contains(err.Error(), "impossible") {
		t.Fatalf("got %v, want an error at byte %d, command 0", err, HeaderSize)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Fatalf("refusing the body allocated %d bytes", n)
	}
	// A real body still decodes, including one that expands a lot.
	plain := make([]byte, 1<<16)
	enc := snappy.Encode(nil, plain)
	if len(plain) <= 10*len(enc) {
		t.Fatalf("test data compresses only %d → %d", len(plain), len(enc))
	}
	r, _ = NewReader(file(frame(uint64(Packet)|compressedFlag, 5, enc)))
	c, err := r.Next()
	if err != nil || len(c.Body) != len(plain) {
		t.Fatalf("real snappy body: %d bytes, %v", len(c.Body), err)
	}
}

// Sizes read from the file are checked against what remains before a body
// is sliced, and every framing failure names byte offset and command.
func TestFramingErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"size past end", file(frame(uint64(Packet), 1, []byte{1, 2, 3})[:5])},
		{"size over limit", file(append(binary.AppendUvarint([]byte{byte(Packet), 1}, MaxBodySize+1), 0))},
		{"varint over 32 bits", file([]byte{byte(Packet), 0xff, 0xff, 0xff, 0xff, 0x7f, 0})},
		{"truncated varint", file([]byte{byte(Packet), 0x80})},
	} {
		r, _ := NewReader(tc.data)
		_, err := r.Next()
		var ce *Error
		if !errors.As(err, &ce) || ce.Offset != HeaderSize || ce.Command != 0 {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// A broken tick or size varint is reported against its own command's kind.
func TestBrokenVarintNamesItsCommand(t *testing.T) {
	frame := []byte{byte(Packet), 5}
	for range 12 {
		frame = append(frame, 0xff)
	}
	r, err := NewReader(file(frame))
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Next()
	if err == nil || !strings.Contains(err.Error(), "size") {
		t.Fatalf("err = %v, want a size error", err)
	}
	if c.Kind != Packet {
		t.Fatalf("kind %s, want DEM_Packet", c.Kind)
	}
}

// A file that is no Source 2 demo is named by what its first bytes say it
// is, where that tells a user what to do; anything else is just not a demo.
func TestNotADemoSaysWhatItIs(t *testing.T) {
	body := strings.Repeat("\x00", 32)
	for _, c := range []struct{ head, want string }{
		{"BZh91AY&SY", "a bzip2 file: decompress it first (bunzip2"},
		{"\x1f\x8b\x08\x08", "a gzip file: decompress it first (gunzip)"},
		{"\x28\xb5\x2f\xfd", "a zstd file: decompress it first (unzstd)"},
		{"\xfd7zXZ\x00\x00", "an xz file: decompress it first (unxz)"},
		{"PK\x03\x04", "a zip archive: extract the .dem"},
		{"HL2DEMO\x00", "a Source 1 demo"},
		{"BZh0", "(not a Source 2 demo)"},
		{"# notes", "(not a Source 2 demo)"},
	} {
		_, err := NewReader([]byte(c.head + body))
		var ce *Error
		if !errors.As(err, &ce) || ce.Offset != 0 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error at byte 0 saying %q", c.head, err, c.want)
		}
	}
}
