package entity

import (
	"bytes"
	"testing"
)

// A what-if edit keeps the data's length: bits inserted push the tail out,
// and bits inserted at the very end are dropped rather than lengthening the
// data (the decode would otherwise report offsets past the message's end).
func TestWhatIfEditKeepsLength(t *testing.T) {
	data := []byte{0xa5, 0x3c}
	for _, w := range []WhatIf{
		{Bit: 3, Insert: 5, InsertValue: 0x1f},
		{Bit: 16, Insert: 6, InsertValue: 0x3f},
		{Bit: 1000, Insert: 64, InsertValue: ^uint64(0)},
		{Bit: 16, Insert: 1 << 40},
	} {
		if got := w.Edit(data); len(got) != len(data) {
			t.Errorf("%+v: %d bytes, want %d", w, len(got), len(data))
		}
	}
	if got := (&WhatIf{Bit: 16, Insert: 6}).Edit(data); !bytes.Equal(got, data) {
		t.Errorf("insert at the end changed the data: % x", got)
	}
	if got := (&WhatIf{Bit: 4, Insert: 4, InsertValue: 0xf}).Edit(data); !bytes.Equal(got, []byte{0xf5, 0xca}) {
		t.Errorf("insert 4 bits at bit 4: % x", got)
	}
}
