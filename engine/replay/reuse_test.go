package replay_test

import (
	"testing"

	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// A second decode of a file takes the first's schema, and decodes alike;
// under other aliases it parses its own.
func TestReuseSchema(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	first, _ := replay.Open(data)
	if err := first.Run(nil); err != nil {
		t.Fatal(err)
	}
	second, _ := replay.Open(data)
	second.ReuseSchema(first)
	if err := second.Run(nil); err != nil {
		t.Fatal(err)
	}
	if second.Schema != first.Schema || second.Entities.Stats.Fields != first.Entities.Stats.Fields || second.Stats.Misaligned != 0 {
		t.Fatalf("reused %v, fields %d vs %d, misaligned %d", second.Schema == first.Schema, second.Entities.Stats.Fields, first.Entities.Stats.Fields, second.Stats.Misaligned)
	}
	other, _ := replay.Open(data)
	other.ReuseSchema(first)
	other.Aliases = schema.Aliases{}.With(schema.KindType, "AbilityID_t", "int32")
	if err := other.Run(nil); err != nil {
		t.Fatal(err)
	}
	if other.Schema == first.Schema {
		t.Fatal("a decode under other aliases took the schema parsed without them")
	}
}
