package session

import (
	"testing"

	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/testreplays"
)

// One reading against itself changes nothing; an alias that reads a type
// another way changes the values of its fields (and no more than all).
func TestValueChanges(t *testing.T) {
	_, data := testreplays.Read(t, "dota2")
	c, n, err := ValueChanges(data, schema.Aliases{}, schema.Aliases{})
	if err != nil || c != 0 || n < 1000 {
		t.Fatalf("same readings: %d of %d changed, %v", c, n, err)
	}
	a, err := schema.ParseAliases([]string{"GameTime_t=uint32"}, game.Unknown)
	if err != nil {
		t.Fatal(err)
	}
	c2, n2, err := ValueChanges(data, schema.Aliases{}, a)
	if c2 == 0 || c2 > n2 || n2 < n {
		t.Fatalf("GameTime_t as uint32: %d of %d changed (%v)", c2, n2, err)
	}
}
