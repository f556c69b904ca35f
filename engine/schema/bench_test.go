package schema

import (
	"testing"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/internal/testreplays"
)

// BenchmarkParse builds the Dota 2 replay's schema: serializers, fields,
// types and the choice of every field's decoder.
func BenchmarkParse(b *testing.B) {
	_, data := testreplays.Read(b, "dota2")
	body := serializerOf(data)
	if body == nil {
		b.Fatal("no send tables in the Dota 2 replay")
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(body, game.Dota2); err != nil {
			b.Fatal(err)
		}
	}
}
