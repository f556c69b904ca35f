package messages

import (
	"fmt"
	"reflect"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"pgregory.net/rapid"

	"github.com/dembug/dembug/engine/wiretree"
)

// classInfoByFields is DEM_ClassInfo read by a walk with callbacks, as
// ParseClassInfo read it before its cursors: the reference it is held to.
func classInfoByFields(b []byte) ([]Class, error) {
	var out []Class
	err := wiretree.Fields(b, func(n protowire.Number, _ protowire.Type, _ uint64, d []byte) error {
		if n != 1 {
			return nil
		}
		var c Class
		err := wiretree.Fields(d, func(n protowire.Number, _ protowire.Type, v uint64, d []byte) error {
			switch n {
			case 1:
				c.ID = int32(v)
			case 2:
				c.NetworkName = string(d)
			case 3:
				c.TableName = string(d)
			}
			return nil
		})
		out = append(out, c)
		return err
	})
	return out, wrap("CDemoClassInfo", err)
}

// ParseClassInfo reads what the callback walk reads, the same classes and
// the same error, on class lists with fields of every wire type, repeated
// and unknown ones, malformed classes, cut anywhere.
func TestClassInfoAgreesWithAWalk(t *testing.T) {
	field := func(rt *rapid.T, b []byte, nums []int) []byte {
		num := protowire.Number(rapid.SampledFrom(nums).Draw(rt, "num"))
		switch rapid.IntRange(0, 3).Draw(rt, "wire") {
		case 0:
			return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), rapid.Uint64().Draw(rt, "v"))
		case 1:
			return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), []byte(rapid.StringN(0, 12, -1).Draw(rt, "s")))
		case 2:
			return protowire.AppendFixed32(protowire.AppendTag(b, num, protowire.Fixed32Type), 9)
		default:
			return append(protowire.AppendTag(b, num, protowire.BytesType), 0x85) // a length past the end
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		var b []byte
		for range rapid.IntRange(0, 6).Draw(rt, "classes") {
			var c []byte
			for range rapid.IntRange(0, 5).Draw(rt, "fields") {
				c = field(rt, c, []int{1, 2, 3, 3, 4})
			}
			if rapid.IntRange(0, 5).Draw(rt, "other") == 0 {
				b = field(rt, b, []int{1, 2, 5})
				continue
			}
			b = protowire.AppendBytes(protowire.AppendTag(b, 1, protowire.BytesType), c)
		}
		b = b[:rapid.IntRange(0, len(b)).Draw(rt, "cut")]
		got, gerr := ParseClassInfo(b)
		want, werr := classInfoByFields(b)
		if len(got) == 0 {
			got = nil
		}
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			rt.Fatalf("classes %+v, %v; the walk %+v, %v", got, gerr, want, werr)
		}
	})
}
