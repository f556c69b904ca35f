package replay_test

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/gameevents"
	"github.com/dembug/dembug/engine/knownfmt"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/wiretree"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// The format check reads the game event list and every game event down to
// their keys, and the shared replays carry no number in them that the
// definitions do not give (the CS2 ones send server_tick, 4).
func TestGameEventFieldsKnown(t *testing.T) {
	testreplays.Subtests(t, func(t *testing.T, data []byte) {
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Run(nil); err != nil {
			t.Fatal(err)
		}
		for _, it := range r.Format.Items() {
			if strings.HasPrefix(it.In, "GE_Source1Legacy") {
				t.Errorf("%s field %d (%s, first %s) unknown at command #%d", it.In, it.ID, it.Wire, it.Value, it.First.Command)
			}
		}
	})
}

// withEventField returns data with varint field 99 added to the first
// message of type typ, inside the first field numbered path[0], in it the
// first numbered path[1], and so on (no path: the message itself).
func withEventField(t *testing.T, data []byte, typ uint32, path ...protowire.Number) []byte {
	t.Helper()
	var add func(b []byte, path []protowire.Number) []byte
	add = func(b []byte, path []protowire.Number) []byte {
		if len(path) == 0 {
			return protowire.AppendVarint(protowire.AppendTag(append([]byte(nil), b...), 99, protowire.VarintType), 1)
		}
		var out []byte
		done := false
		for c := wiretree.NewCursor(b); c.Next(); {
			if c.Num != path[0] || done {
				out = append(out, c.Raw()...)
				continue
			}
			out = protowire.AppendBytes(protowire.AppendTag(out, c.Num, protowire.BytesType), add(c.Data, path[1:]))
			done = true
		}
		if !done {
			t.Fatalf("no field %d on the path %v", path[0], path)
		}
		return out
	}
	edited := 0
	out, _, err := writer.RewriteInner(data, func(_ int, msgs []writer.Inner) ([]writer.Inner, bool) {
		for i := range msgs {
			if msgs[i].Type == typ && edited == 0 {
				msgs[i].Body = add(msgs[i].Body, path)
				edited++
				return msgs, true
			}
		}
		return msgs, false
	})
	if err != nil {
		t.Fatal(err)
	}
	if edited != 1 {
		t.Fatalf("no message of type %d", typ)
	}
	return out
}

// A number no definition gives is named where it is: in the list, a
// descriptor, a descriptor's key, an event or an event's key.
func TestGameEventUnknownFieldNoted(t *testing.T) {
	_, data := testreplays.Read(t, "cs2")
	for _, c := range []struct {
		typ  uint32
		path []protowire.Number
		in   string
	}{
		{gameevents.ListMessage, nil, "GE_Source1LegacyGameEventList"},
		{gameevents.ListMessage, []protowire.Number{1}, "GE_Source1LegacyGameEventList.descriptor_t"},
		{gameevents.ListMessage, []protowire.Number{1, 3}, "GE_Source1LegacyGameEventList.key_t"},
		{gameevents.EventMessage, nil, "GE_Source1LegacyGameEvent"},
		{gameevents.EventMessage, []protowire.Number{3}, "GE_Source1LegacyGameEvent.key_t"},
	} {
		if !fieldNoted(t, withEventField(t, data, c.typ, c.path...), c.in, 99) {
			t.Errorf("field 99 in %s went unnoted", c.in)
		}
	}
	if _, ok := knownfmt.ByName("GE_Source1LegacyGameEvent"); !ok {
		t.Errorf("knownfmt does not name the event message")
	}
}
