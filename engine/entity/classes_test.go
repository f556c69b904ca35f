package entity

import (
	"testing"

	"github.com/dembug/dembug/engine/messages"
)

// Class ids must be below max_classes and near the number of classes
// listed: the class table is sized by the largest.
func TestSetClassesRefusesFarIDs(t *testing.T) {
	tb := NewTable()
	if err := tb.SetClasses([]messages.Class{{ID: 0}, {ID: 1}, {ID: 2}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := tb.SetClasses([]messages.Class{{ID: 1 << 20}}, nil); err == nil {
		t.Fatal("class id 2^20 in a list of one accepted")
	}
	tb.SetClassCount(3)
	if err := tb.SetClasses([]messages.Class{{ID: 3}}, nil); err == nil {
		t.Fatal("class id 3 accepted with max_classes 3")
	}
	if err := tb.SetClasses([]messages.Class{{ID: 2}}, nil); err != nil {
		t.Fatal(err)
	}
}
