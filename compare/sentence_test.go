package compare

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/decoder"
)

// A value difference on a handle says what the handle holds and which part
// of it theirs is.
func TestHandleSentence(t *testing.T) {
	ours := func(v string, k decoder.Kind) *Read { return &Read{Kind: k, Value: []byte(v), Bits: 32, Offset: 0} }
	theirs := func(v string) *Read { return &Read{Value: []byte(v), Bits: -1, Offset: -1} }
	for _, c := range []struct {
		o    *Read
		t    *Read
		want string
	}{
		{ours("14860705", decoder.KindHandle), theirs("417"), "they got 417, we got 14860705 (ours is a handle: entity 417, serial 907; theirs is its entity index)"},
		{ours("14860705", decoder.KindHandle), theirs("907"), "(ours is a handle: entity 417, serial 907; theirs is its serial)"},
		{ours("14860705", decoder.KindHandle), theirs("5"), "(ours is a handle: entity 417, serial 907)"},
		{ours("16777215", decoder.KindHandle), theirs("-1"), "(ours is the handle that names no entity)"},
		{ours("14860705", decoder.KindUint), theirs("417"), "they got 417, we got 14860705"},
	} {
		d := Difference{What: Value, Ours: c.o, Theirs: c.t}
		s := d.Sentence()
		if !strings.HasSuffix(s, c.want) || (c.o.Kind != decoder.KindHandle && strings.Contains(s, "handle")) {
			t.Errorf("%s vs %s: %q, want …%q", c.o.Value, c.t.Value, s, c.want)
		}
	}
}
