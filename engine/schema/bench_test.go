package schema

import (
	"testing"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/wiretree"
	"github.com/dembug/dembug/internal/testreplays"
)

// dotaSendTables is the Dota 2 replay's DEM_SendTables body.
func dotaSendTables(b *testing.B) []byte {
	_, data := testreplays.Read(b, "dota2")
	body := serializerOf(data)
	if body == nil {
		b.Fatal("no send tables in the Dota 2 replay")
	}
	return body
}

// BenchmarkParse builds the Dota 2 replay's schema: serializers, fields,
// types and the choice of every field's decoder.
func BenchmarkParse(b *testing.B) {
	body := dotaSendTables(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(body, game.Dota2); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckIndexes reads every serializer message of the Dota 2
// replay's schema as a parse does: some 100,000 field indexes.
func BenchmarkCheckIndexes(b *testing.B) {
	body := dotaSendTables(b)
	var msgs [][]byte
	nField := 0
	for c := wiretree.NewCursor(body); c.Step(); {
		switch c.Num {
		case 1:
			msgs = append(msgs, c.Bytes())
		case 3:
			nField++
		}
	}
	hasSer := make([]bool, nField)
	for i := range hasSer {
		hasSer[i] = i%8 == 3
	}
	var edges []nestEdge
	b.ReportAllocs()
	for b.Loop() {
		edges = edges[:0]
		for _, m := range msgs {
			var ok bool
			if _, _, _, edges, _, ok = checkIndexes(m, hasSer, edges); !ok {
				b.Fatal("a serializer of an unusual shape")
			}
		}
	}
}

// BenchmarkParseReleased is BenchmarkParse with each schema released
// (Schema.Release), as a released decode's is: the next parse reads into
// its storage.
func BenchmarkParseReleased(b *testing.B) {
	body := dotaSendTables(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := Parse(body, game.Dota2)
		if err != nil {
			b.Fatal(err)
		}
		s.Release()
	}
}
