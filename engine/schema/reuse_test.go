package schema

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/internal/testreplays"
)

// schemaText is everything a parsed schema says, serializer by serializer
// and field by field, pointers by name: two schemas of the same text are
// the same to every reader.
func schemaText(s *Schema) string {
	var b strings.Builder
	name := func(x *Serializer) string {
		if x == nil {
			return "-"
		}
		return fmt.Sprintf("%s/%d#%d", x.Name, x.Version, x.id)
	}
	for _, ser := range s.Serializers {
		fmt.Fprintf(&b, "%s %v\n", name(ser), ser.HasPolymorphic())
		for i, f := range ser.Fields {
			fmt.Fprintf(&b, "  %d %s %q %+v enc=%q node=%q varser=%q bits=%d/%v range=%g/%v..%g/%v flags=%d ser=%q/%d %s model=%s",
				f.id, f.Name, f.VarType, f.Type, f.Encoder, f.SendNode, f.VarSerializer, f.BitCount, f.BitCountSet,
				f.Low, f.LowSet, f.High, f.HighSet, f.EncodeFlags, f.SerializerName, f.SerializerVersion, name(f.Serializer), f.Model)
			for _, p := range f.Polymorphic {
				b.WriteString(" poly=" + name(p))
			}
			if f.Decoder != nil {
				b.WriteString(" dec=" + f.Decoder.Describe())
			}
			if f.Elem != nil {
				b.WriteString(" elem=" + f.Elem.Describe())
			}
			fmt.Fprintf(&b, " problem=%q why=%q elemwhy=%q patched=%q unknown=%q/%q alias=%q as=%q corr=%v\n",
				f.Problem, f.Why, f.ElemWhy, f.Patched, f.UnknownType, f.UnknownEncoder, f.Alias, f.EncoderAsWritten, f.Correction != nil)
			h := ser.Hot()[i]
			fmt.Fprintf(&b, "    hot %s %v %d %s\n", h.Model, h.Poly, h.Count, name(h.Sub))
		}
	}
	return b.String()
}

// A parse into a released schema's storage, of the same replay's schema or
// another game's, builds the schema a parse into new storage does: every
// shared replay's schema is parsed fresh, then each in turn into what the
// one before left, released half used (lazy, some serializers loaded) or
// complete.
func TestParseIntoReleasedStorage(t *testing.T) {
	type file struct {
		name string
		body []byte
		g    game.Game
		want string
	}
	games := map[string]game.Game{"dota2": game.Dota2, "cs2": game.CS2, "deadlock": game.Deadlock}
	var files []file
	testreplays.EachFile(t, func(path string, data []byte) {
		body := serializerOf(data)
		if body == nil {
			return
		}
		g := games[filepath.Base(filepath.Dir(path))]
		s, err := ParseWithTick(body, g, Aliases{}, 1.0/30)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file{filepath.Base(path), body, g, schemaText(s)})
	})
	if len(files) == 0 {
		t.Skip("no shared replays")
	}
	for round := range 3 {
		for _, f := range files {
			s, err := ParseLazyWithTick(f.body, f.g, Aliases{}, 1.0/30)
			if err != nil {
				t.Fatal(err)
			}
			if round == 1 { // half used: some serializers loaded, some fields built
				for i, ser := range s.Serializers {
					if i%3 == 0 {
						ser.Load()
						ser.Hot()
					}
				}
				s.Release()
				continue
			}
			if got := schemaText(s.Complete()); got != f.want {
				t.Fatalf("round %d, %s: the schema parsed into released storage differs from a fresh parse", round, f.name)
			}
			s.Release()
		}
	}
}
