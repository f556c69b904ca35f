package lzss

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// hdr builds the 8-byte header for a declared size.
func hdr(size uint32) []byte {
	return []byte{'L', 'Z', 'S', 'S', byte(size), byte(size >> 8), byte(size >> 16), byte(size >> 24)}
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func TestDecodeHandMade(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
		want string
	}{
		{
			name: "empty",
			// command byte 0b1: item 0 is a reference with count 1 = end.
			src:  cat(hdr(0), []byte{0x01, 0x00, 0x00}),
			want: "",
		},
		{
			name: "literals only",
			// bits 0..2 literal, bit 3 end marker.
			src:  cat(hdr(3), []byte{0x08, 'a', 'b', 'c', 0x00, 0x00}),
			want: "abc",
		},
		{
			name: "back-reference",
			// "abc" then copy 3 bytes from distance 3 (code 2), then end.
			// b0=0x00, b1=0x22: position=(0<<4)|(0x22>>4)=2, count=(2)+1=3.
			src:  cat(hdr(6), []byte{0b0011000, 'a', 'b', 'c', 0x00, 0x22, 0x00, 0x00}),
			want: "abcabc",
		},
		{
			name: "overlapping run",
			// "x" then copy 16 bytes from distance 1: a run of 17 x's.
			src:  cat(hdr(17), []byte{0b110, 'x', 0x00, 0x0f, 0x00, 0x00}),
			want: strings.Repeat("x", 17),
		},
		{
			name: "second command byte",
			// eight literals fill the first group; the end marker is the
			// first item of the second group.
			src:  cat(hdr(8), []byte{0x00}, []byte("12345678"), []byte{0x01, 0x00, 0x00}),
			want: "12345678",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(tt.src, 0)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if string(got) != tt.want {
				t.Fatalf("Decode = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDecodeFarReference checks the 12-bit position split across both bytes:
// the largest distance, 4096, is code 0xfff: b0=0xff, b1=0xf0|count-1.
func TestDecodeFarReference(t *testing.T) {
	prefix := make([]byte, 4096)
	for i := range prefix {
		prefix[i] = byte(i * 7)
	}
	var src []byte
	src = append(src, hdr(4096+4)...)
	for i := 0; i < len(prefix); i += 8 {
		src = append(src, 0x00)
		src = append(src, prefix[i:i+8]...)
	}
	src = append(src, 0b11, 0xff, 0xf3, 0x00, 0x00)
	got, err := Decode(src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]byte{}, prefix...), prefix[:4]...)
	if !bytes.Equal(got, want) {
		t.Fatalf("tail = %x, want %x", got[4096:], want[4096:])
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name    string
		src     []byte
		max     int
		offset  int
		contain string
	}{
		{"short header", []byte("LZS"), 0, 3, "truncated header"},
		{"bad magic", cat([]byte("LZSX"), []byte{0, 0, 0, 0, 1, 0, 0}), 0, 0, "bad magic"},
		{"no command byte", hdr(1), 0, 8, "missing command byte"},
		{"missing literal", cat(hdr(2), []byte{0x00, 'a'}), 0, 10, "missing literal"},
		{"half reference", cat(hdr(2), []byte{0x02, 'a', 0x00}), 0, 10, "needs 2 bytes"},
		{"reference before start", cat(hdr(4), []byte{0x02, 'a', 0x00, 0x12}), 0, 10, "before start"},
		{"reference past size", cat(hdr(2), []byte{0x02, 'a', 0x00, 0x02}), 0, 10, "exceeds declared size"},
		{"literal past size", cat(hdr(1), []byte{0x00, 'a', 'b'}), 0, 10, "exceeds declared size"},
		{"short output", cat(hdr(2), []byte{0x02, 'a', 0x00, 0x00}), 0, 10, "end marker after 1 bytes"},
		{"over caller limit", cat(hdr(100), []byte{0x01, 0, 0}), 99, 4, "exceeds limit 99"},
		{"missing end marker", cat(hdr(1), []byte{0x00, 'a'}), 0, 10, "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Decode(tt.src, tt.max)
			if err == nil {
				t.Fatalf("Decode = %q, want error", out)
			}
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("error %T is not *Error", err)
			}
			if le.Offset != tt.offset {
				t.Errorf("offset = %d, want %d (%v)", le.Offset, tt.offset, err)
			}
			if !strings.Contains(err.Error(), tt.contain) {
				t.Errorf("error %q does not mention %q", err, tt.contain)
			}
			if !strings.Contains(err.Error(), "byte") {
				t.Errorf("error %q does not name the byte offset", err)
			}
		})
	}
}

func TestEncodeKnown(t *testing.T) {
	if got, want := Encode(nil), cat(hdr(0), []byte{0x01, 0, 0}); !bytes.Equal(got, want) {
		t.Fatalf("Encode(nil) = %x, want %x", got, want)
	}
	// A long run must compress to references.
	run := bytes.Repeat([]byte{'z'}, 1000)
	enc := Encode(run)
	if len(enc) > 200 {
		t.Errorf("Encode(run of 1000) is %d bytes, expected references", len(enc))
	}
	dec, err := Decode(enc, 0)
	if err != nil || !bytes.Equal(dec, run) {
		t.Fatalf("round trip failed: %v", err)
	}
}

func TestRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// A small alphabet makes matches (and overlapping ones) common.
		alpha := rapid.SliceOfN(rapid.Byte(), 1, 8).Draw(t, "alphabet")
		n := rapid.IntRange(0, 9000).Draw(t, "len")
		idx := rapid.SliceOfN(rapid.IntRange(0, len(alpha)-1), n, n).Draw(t, "idx")
		src := make([]byte, n)
		for i, k := range idx {
			src[i] = alpha[k]
		}
		enc := Encode(src)
		got, err := Decode(enc, len(src))
		if err != nil {
			t.Fatalf("Decode(Encode(src)): %v", err)
		}
		if !bytes.Equal(got, src) {
			t.Fatalf("round trip mismatch")
		}
		if len(src) > 1 { // a limit of 0 means "declared size only"
			if _, err := Decode(enc, len(src)-1); err == nil {
				t.Fatalf("limit below the declared size was accepted")
			}
		}
	})
}

func TestRoundTripRandomBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := rapid.SliceOf(rapid.Byte()).Draw(t, "src")
		got, err := Decode(Encode(src), 0)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("round trip: err=%v equal=%v", err, bytes.Equal(got, src))
		}
	})
}

// TestTruncatedNeverPanics cuts and corrupts valid streams: every prefix
// shorter than the end marker must fail cleanly.
func TestTruncatedNeverPanics(t *testing.T) {
	src := []byte(strings.Repeat("the quick brown fox jumps over the lazy dog ", 20))
	enc := Encode(src)
	for n := 0; n < len(enc)-1; n++ {
		if _, err := Decode(enc[:n], 0); err == nil {
			t.Fatalf("prefix of %d/%d bytes decoded without error", n, len(enc))
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		b := append([]byte{}, enc...)
		flips := rapid.IntRange(1, 8).Draw(t, "flips")
		for range flips {
			i := rapid.IntRange(0, len(b)-1).Draw(t, "at")
			b[i] ^= rapid.ByteRange(1, 255).Draw(t, "xor")
		}
		out, err := Decode(b, 1<<16)
		if err == nil && len(out) > 1<<16 {
			t.Fatalf("output exceeds limit")
		}
	})
}

func FuzzDecode(f *testing.F) {
	f.Add(Encode(nil))
	f.Add(Encode([]byte("abcabcabcabc")))
	f.Add(Encode(bytes.Repeat([]byte("string table "), 50)))
	f.Add(cat(hdr(4), []byte{0x02, 'a', 0x00, 0x12}))
	f.Add(cat(hdr(0xffffffff), []byte{0xff, 0xff, 0xff}))
	f.Add([]byte("LZSS"))
	f.Fuzz(func(t *testing.T, src []byte) {
		const limit = 1 << 20
		out, err := Decode(src, limit)
		if err != nil {
			var le *Error
			if !errors.As(err, &le) || le.Offset < 0 || le.Offset > len(src) {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		if len(out) > limit {
			t.Fatalf("output %d exceeds limit", len(out))
		}
		if n, _ := DeclaredSize(src); n != len(out) {
			t.Fatalf("output %d != declared %d", len(out), n)
		}
		again, err := Decode(Encode(out), limit)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("re-encode round trip failed: %v", err)
		}
	})
}
