package replay_test

import (
	"os"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/knownfmt"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/wiretree"
	"github.com/dembug/dembug/engine/writer"
	"github.com/dembug/dembug/internal/testreplays"
)

// withSchemaFieldAdded returns data with varint field add appended to the
// first entry numbered top (1: a serializer, 3: a field) of its schema.
func withSchemaFieldAdded(t *testing.T, data []byte, top, add protowire.Number) []byte {
	t.Helper()
	edited := 0
	patched, err := writer.RewriteCommands(data, func(c container.Command) []writer.Command {
		out := []writer.Command{{Kind: c.Kind, Tick: c.Tick, Body: c.Body, Compressed: c.Compressed}}
		if c.Kind != container.SendTables {
			return out
		}
		flat, err := messages.SendTablesData(c.Body)
		if err != nil {
			t.Fatal(err)
		}
		var nb []byte
		for fc := wiretree.NewCursor(flat); fc.Next(); {
			if fc.Num == top && edited == 0 {
				e := protowire.AppendVarint(protowire.AppendTag(append([]byte(nil), fc.Data...), add, protowire.VarintType), 1)
				nb = protowire.AppendBytes(protowire.AppendTag(nb, top, protowire.BytesType), e)
				edited++
				continue
			}
			nb = append(nb, fc.Raw()...)
		}
		out[0].Body = writer.SendTablesBody(nb)
		return out
	})
	if err != nil {
		t.Fatal(err)
	}
	if edited != 1 {
		t.Fatalf("%d schema entries numbered %d edited", edited, top)
	}
	return patched
}

// The format check passes over the serializers and the fields the schema's
// parse read as plain: a serializer or a field message carrying a number no
// definition gives is not plain, and the check still names the number, in
// the serializer or the field.
func TestUnknownFieldInSchemaNoted(t *testing.T) {
	files := testreplays.Files(t, "dota2")
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		top, add protowire.Number
		in       string
	}{
		{1, 9, "ProtoFlattenedSerializer_t"},
		{3, 13, "ProtoFlattenedSerializerField_t"},
	} {
		if fieldNoted(t, data, c.in, int(c.add)) {
			t.Fatalf("the unchanged replay has field %d in a %s", c.add, c.in)
		}
		if !fieldNoted(t, withSchemaFieldAdded(t, data, c.top, c.add), c.in, int(c.add)) {
			t.Errorf("field %d in a %s went unnoted", c.add, c.in)
		}
	}
}

// The format check passes over a DEM_StringTables snapshot's items when
// its reading found each to hold only a key and a value: an item carrying
// a field number no definition gives, among the items or the client-side
// ones, is still named, in the item.
func TestUnknownFieldInSnapshotItemNoted(t *testing.T) {
	data := readDota(t)
	unknownIn := func(data []byte) bool { return fieldNoted(t, data, "DEM_StringTables.items_t", 7) }
	if unknownIn(data) {
		t.Fatal("the unchanged replay has field 7 in a snapshot item")
	}
	// item appends field 7 to the first item of the first table with
	// items in field num (2: items, 3: the client-side ones; a table with
	// none gets one).
	withField7 := func(num protowire.Number) []byte {
		edited := 0
		patched, err := writer.RewriteCommands(data, func(c container.Command) []writer.Command {
			out := []writer.Command{{Kind: c.Kind, Tick: c.Tick, Body: c.Body, Compressed: c.Compressed}}
			if c.Kind != container.StringTables || edited > 0 {
				return out
			}
			var body []byte
			for tc := wiretree.NewCursor(c.Body); tc.Next(); {
				if tc.Num != 1 || edited > 0 {
					body = append(body, tc.Raw()...)
					continue
				}
				var table []byte
				for ic := wiretree.NewCursor(tc.Data); ic.Next(); {
					table = append(table, ic.Raw()...)
				}
				item := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte("k"))
				item = protowire.AppendVarint(protowire.AppendTag(item, 7, protowire.VarintType), 1)
				table = protowire.AppendBytes(protowire.AppendTag(table, num, protowire.BytesType), item)
				body = protowire.AppendBytes(protowire.AppendTag(body, 1, protowire.BytesType), table)
				edited++
			}
			out[0].Body = body
			return out
		})
		if err != nil {
			t.Fatal(err)
		}
		if edited != 1 {
			t.Fatalf("%d tables edited", edited)
		}
		return patched
	}
	for _, num := range []protowire.Number{2, 3} {
		if !unknownIn(withField7(num)) {
			t.Errorf("field 7 in an item of field %d went unnoted", num)
		}
	}
}

// fieldNoted decodes data whole and reports whether the format check named
// field number id as unknown in message in.
func fieldNoted(t *testing.T, data []byte, in string, id int) bool {
	t.Helper()
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(nil); err != nil {
		t.Fatal(err)
	}
	for _, it := range r.Format.Items() {
		if it.Kind == knownfmt.KindField && it.In == in && it.ID == id {
			return true
		}
	}
	return false
}
