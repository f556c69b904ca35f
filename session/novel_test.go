package session

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/container"
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
