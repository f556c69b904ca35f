package stringtable

import (
	"bytes"
	"errors"
	"testing"

	"github.com/golang/snappy"

	"github.com/dembug/dembug/engine/lzss"
)

// FuzzDecompress decompresses arbitrary svc_CreateStringTable data, as
// snappy or LZSS by its magic, under an arbitrary declared size. Whatever
// the input: no panic, the output never exceeds the declared size (when
// positive) nor MaxDecompressed nor what the input can expand to, LZSS
// errors name a byte offset inside the input, and data that is not flagged
// compressed comes back untouched.
func FuzzDecompress(f *testing.F) {
	plain := bytes.Repeat([]byte("models/heroes/axe/axe.vmdl\x00"), 40)
	f.Add(snappy.Encode(nil, plain), true, int32(len(plain)))
	f.Add(lzss.Encode(plain), true, int32(len(plain)))
	f.Add(lzss.Encode(plain), true, int32(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, true, int32(0))
	f.Add([]byte("LZSS\xff\xff\xff\x7f\x00"), true, int32(-1))
	f.Add(plain, false, int32(3))
	f.Fuzz(func(t *testing.T, data []byte, compressed bool, size int32) {
		out, err := Decompress(data, compressed, int(size))
		if !compressed {
			if err != nil || !bytes.Equal(out, data) {
				t.Fatalf("uncompressed data changed: %v", err)
			}
			return
		}
		if err != nil {
			var le *lzss.Error
			if lzss.IsCompressed(data) && (!errors.As(err, &le) || le.Offset < 0 || le.Offset > len(data)) {
				t.Fatalf("lzss error without an offset: %v", err)
			}
			return
		}
		if len(out) > MaxDecompressed || (size > 0 && len(out) > int(size)) {
			t.Fatalf("%d bytes out, declared %d", len(out), size)
		}
		if !lzss.IsCompressed(data) && len(out) > 22*len(data) {
			t.Fatalf("%d bytes from %d snappy bytes", len(out), len(data))
		}
	})
}
