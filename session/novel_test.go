package session

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/knownfmt"
)

// The wire view names a field number no definition gives as new, and
// names the ones the definitions give that its own table leaves out.
func TestWireRowsNameNovelFields(t *testing.T) {
	var body []byte
	body = protowire.AppendVarint(protowire.AppendTag(body, 11, protowire.VarintType), 300) // max_classes
	body = protowire.AppendVarint(protowire.AppendTag(body, 20, protowire.BytesType), 0)    // game_session_manifest, empty
	body = protowire.AppendVarint(protowire.AppendTag(body, 99, protowire.VarintType), 1)
	rows, err := WireRows("svc_ServerInfo", body)
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	if rows[0].Name != "max_classes" || rows[1].Name != "game_session_manifest" || rows[2].Name != NovelNote {
		t.Fatalf("names %q %q %q", rows[0].Name, rows[1].Name, rows[2].Name)
	}
	// A message dembug does not read keeps its numbers only.
	rows, _ = WireRows("svc_Print", body)
	if rows[2].Name != "" {
		t.Fatalf("svc_Print field named %q", rows[2].Name)
	}
}

func TestNovelCommand(t *testing.T) {
	for k := container.DemError; k <= container.Recovery; k++ {
		if NovelCommand(k) {
			t.Errorf("%v novel", k)
		}
	}
	if !NovelCommand(container.Recovery+1) || !NovelCommand(-2) {
		t.Error("ids past the table not novel")
	}
}

// Every field the wire view names in a message dembug reads is one the
// definitions give: the two tables agree.
func TestWireNamesAreKnownFields(t *testing.T) {
	for msg, m := range wireKnown {
		for num, nm := range wireMessages[msg] {
			if !knownfmt.Known(m, game.Unknown, num) {
				t.Errorf("%s field #%d (%s) is not in knownfmt's table", msg, num, nm.name)
			}
		}
	}
}
