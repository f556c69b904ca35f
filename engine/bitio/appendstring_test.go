package bitio

import (
	"testing"

	"pgregory.net/rapid"
)

// TestAppendStringMatchesBytewise holds AppendString, which reads seven
// bytes a window, to a byte-by-byte read from any bit offset, with zero
// bytes anywhere, any maximum and the data's end anywhere.
func TestAppendStringMatchesBytewise(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		buf := rapid.SliceOfN(rapid.SampledFrom([]byte{0, 1, 0x7f, 0x80, 0xff, 'a'}), 0, 40).Draw(t, "buf")
		start := uint(rapid.IntRange(0, len(buf)*8).Draw(t, "start"))
		max := rapid.IntRange(0, 45).Draw(t, "max")
		r := NewReader(buf)
		r.Seek(start)
		got := r.AppendString([]byte("x"), max)
		ref := NewReader(buf)
		ref.Seek(start)
		want := []byte("x")
		for range max {
			b := byte(ref.Bits(8))
			if b == 0 || ref.Overflowed() {
				break
			}
			want = append(want, b)
		}
		if string(got) != string(want) || r.Pos() != ref.Pos() || r.Overflowed() != ref.Overflowed() {
			t.Fatalf("from bit %d, max %d: %q at %d (overflow %v); bytewise %q at %d (%v)", start, max, got, r.Pos(), r.Overflowed(), want, ref.Pos(), ref.Overflowed())
		}
	})
}
