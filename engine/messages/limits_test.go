package messages

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/bitio"
)

// updated_entries is an int32: a varint past its range or a negative one is
// an error, never a wrapped count.
func TestUpdatedEntriesOutOfRange(t *testing.T) {
	for v, want := range map[uint64]string{1<<32 + 3: "does not fit", 1<<64 - 1: "negative", 1<<63 + 5: "does not fit"} {
		b := protowire.AppendTag(nil, 2, protowire.VarintType)
		b = protowire.AppendVarint(b, v)
		if _, err := ParsePacketEntities(b); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("updated_entries varint %d: err %v, want %q", v, err, want)
		}
	}
	b := protowire.AppendTag(nil, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, 1<<31-1)
	if m, err := ParsePacketEntities(b); err != nil || m.UpdatedEntries != 1<<31-1 {
		t.Fatalf("2^31-1: %+v, %v", m, err)
	}
}

func TestSplitInnerStopsAtTheMessageLimit(t *testing.T) {
	var w bitio.Writer
	for range MaxInnerMessages + 10 {
		w.UBitVar(0)
		w.VarUint32(0)
	}
	out, _, err := SplitInner(w.Bytes(), nil, nil)
	if err == nil || !strings.Contains(err.Error(), "messages in one packet") {
		t.Fatalf("err = %v", err)
	}
	if len(out) != MaxInnerMessages {
		t.Fatalf("%d messages split, want %d", len(out), MaxInnerMessages)
	}
}
