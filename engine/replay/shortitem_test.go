package replay

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"pgregory.net/rapid"
)

// shortItem either declines an item or reads what the general walk
// (walkItem) reads: the last key, the last value and whether there is
// one, on items of the usual shape, other shapes and arbitrary bytes.
func TestShortItemMatchesWalk(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var d []byte
		if rapid.Bool().Draw(t, "arbitrary") {
			d = rapid.SliceOfN(rapid.Byte(), 0, 20).Draw(t, "bytes")
		} else {
			for range rapid.IntRange(0, 3).Draw(t, "fields") {
				num := protowire.Number(rapid.IntRange(1, 3).Draw(t, "num"))
				if rapid.IntRange(0, 5).Draw(t, "varint") == 0 {
					d = protowire.AppendTag(d, num, protowire.VarintType)
					d = protowire.AppendVarint(d, 7)
					continue
				}
				d = protowire.AppendTag(d, num, protowire.BytesType)
				d = protowire.AppendBytes(d, make([]byte, rapid.OneOf(rapid.IntRange(0, 4), rapid.IntRange(120, 200)).Draw(t, "len")))
			}
			d = d[:rapid.IntRange(0, len(d)).Draw(t, "truncate at")]
		}
		key, value, hasValue, ok := shortItem(d)
		if !ok {
			return
		}
		wkey, wvalue, whas, _, err := walkItem(d)
		if err != nil {
			t.Fatalf("% x: shortItem read an item the walk refuses: %v", d, err)
		}
		if !bytes.Equal(key, wkey) || (key == nil) != (wkey == nil) || !bytes.Equal(value, wvalue) || (value == nil) != (wvalue == nil) || hasValue != whas || cap(key) != len(key) || cap(value) != len(value) {
			t.Fatalf("% x: shortItem %x %x %v; walk %x %x %v", d, key, value, hasValue, wkey, wvalue, whas)
		}
	})
}
