package wiretree

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"pgregory.net/rapid"
)

// TestUvarintMatchesProtowire holds the hand-written varint reader to
// protowire's on arbitrary bytes, including truncated and overlong input.
func TestUvarintMatchesProtowire(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.Byte(), 0, 12).Draw(t, "bytes")
		if rapid.Bool().Draw(t, "continuation bits") {
			for i := range b {
				b[i] |= 0x80 // long and overlong varints
			}
			if len(b) > 0 && rapid.Bool().Draw(t, "terminated") {
				b[len(b)-1] &^= 0x80
			}
		}
		v, n := uvarint(b)
		wv, wn := protowire.ConsumeVarint(b)
		if n != wn || (n > 0 && v != wv) {
			t.Fatalf("uvarint(% x) = %d, %d; protowire says %d, %d", b, v, n, wv, wn)
		}
	})
}

// TestCursorMatchesField walks random messages, valid ones made with
// protowire and arbitrary bytes, with the cursor and with the general
// single-field decoder, which must agree on every field and on where and
// why the walk stops. Step and Bytes read what Next and Data do.
func TestCursorMatchesField(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b []byte
		if rapid.Bool().Draw(t, "arbitrary") {
			b = rapid.SliceOfN(rapid.Byte(), 0, 40).Draw(t, "bytes")
		} else {
			for range rapid.IntRange(0, 8).Draw(t, "fields") {
				num := protowire.Number(rapid.OneOf(rapid.Int32Range(1, 15), rapid.Int32Range(1, int32(protowire.MaxValidNumber))).Draw(t, "num"))
				switch rapid.IntRange(0, 3).Draw(t, "type") {
				case 0:
					b = protowire.AppendTag(b, num, protowire.VarintType)
					b = protowire.AppendVarint(b, rapid.Uint64().Draw(t, "v"))
				case 1:
					b = protowire.AppendTag(b, num, protowire.Fixed32Type)
					b = protowire.AppendFixed32(b, rapid.Uint32().Draw(t, "v"))
				case 2:
					b = protowire.AppendTag(b, num, protowire.Fixed64Type)
					b = protowire.AppendFixed64(b, rapid.Uint64().Draw(t, "v"))
				case 3:
					b = protowire.AppendTag(b, num, protowire.BytesType)
					b = protowire.AppendBytes(b, rapid.SliceOfN(rapid.Byte(), 0, 20).Draw(t, "data"))
				}
			}
			b = b[:rapid.IntRange(0, len(b)).Draw(t, "truncate at")]
		}
		c := NewCursor(b)
		off := 0
		fast := protowire.Number(rapid.IntRange(1, 15).Draw(t, "fast path field"))
		useStep := rapid.Bool().Draw(t, "Step instead of Next")
		for {
			if v, ok := c.NextVarintOf(fast); ok {
				num, typ, wv, _, n, err := field(b[off:], protowire.MaxValidNumber+1)
				if err != nil || num != fast || typ != protowire.VarintType || wv != v || c.Offset() != off {
					t.Fatalf("NextVarintOf(%d) at %d read %d; field() says %d/%d/%d, %v", fast, off, v, num, typ, wv, err)
				}
				off += n
				continue
			}
			if useStep && !c.Step() || !useStep && !c.Next() {
				break
			}
			num, typ, v, data, n, err := field(b[off:], protowire.MaxValidNumber+1)
			if string(c.Bytes()) != string(data) || !useStep && string(c.Data) != string(data) {
				t.Fatalf("at %d cursor's bytes %x (Data %x), field() %x", off, c.Bytes(), c.Data, data)
			}
			if err != nil {
				t.Fatalf("cursor read field %d at %d where field() fails: %v", c.Num, off, err)
			}
			if c.Offset() != off || c.Num != num || c.Type != typ || c.V != v || string(c.Raw()) != string(b[off:off+n]) {
				t.Fatalf("at %d cursor has %d/%d/%d/%x, field() %d/%d/%d/%x", off, c.Num, c.Type, c.V, c.Data, num, typ, v, data)
			}
			off += n
		}
		if off == len(b) {
			if c.Err() != nil {
				t.Fatalf("clean end reported as %v", c.Err())
			}
			return
		}
		var pe *ParseError
		if !errors.As(c.Err(), &pe) || pe.Offset != off {
			t.Fatalf("stopped at %d with %v", off, c.Err())
		}
		if _, _, _, _, _, err := field(b[off:], protowire.MaxValidNumber+1); err == nil {
			t.Fatalf("cursor failed at %d (%v) where field() succeeds", off, c.Err())
		}
	})
}
