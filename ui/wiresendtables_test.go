package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/sample"
)

// selectSendTables moves the timeline to DEM_SendTables.
func selectSendTables(t *testing.T, hs *harness) {
	t.Helper()
	for i := 0; i < 40; i++ {
		if c := hs.m.ix.Cmd(hs.m.sel.Cmd); c != nil && c.Kind == container.SendTables && hs.m.sel.Msg < 0 {
			return
		}
		hs.keys("j")
	}
	t.Fatalf("no DEM_SendTables reached: selection %+v", hs.m.sel)
}

// DEM_SendTables opens as the schema it carries: its serializers, named
// and versioned, closed; enter opens one into its fields with their
// symbols resolved, enter again closes it.
func TestWireSendTables(t *testing.T) {
	hs := newHarness(t, "sample.dem", sample.Replay, 160, 48)
	selectSendTables(t, hs)
	w := hs.m.cache.wire
	if len(w) < 2 || !strings.Contains(w[0].Value, "then CSVCMsg_FlattenedSerializer") {
		t.Fatalf("no schema tree: %+v", w)
	}
	s := hs.m.stTree.st
	if len(w) != 1+len(s.Serializers) {
		t.Fatalf("%d rows for %d serializers: fields shown before any is opened", len(w), len(s.Serializers))
	}
	// The first serializer with a field of a quantized float, or any with
	// fields.
	pick := -1
	for i, ser := range s.Serializers {
		if len(ser.Fields) > 0 && pick < 0 {
			pick = i
		}
	}
	if pick < 0 {
		t.Fatal("no serializer with fields")
	}
	if l := w[1+pick]; l.Name != s.Serializers[pick].Name || !strings.Contains(l.Value, "▸ version ") {
		t.Errorf("serializer row %+v", l)
	}
	hs.keys("tab")
	for i := 0; i < 1+pick; i++ {
		hs.keys("j")
	}
	hs.keys("enter")
	w = hs.m.cache.wire
	n := len(s.Serializers[pick].Fields)
	if len(w) != 1+len(s.Serializers)+n || hs.m.wireSel != 1+pick || !strings.Contains(w[1+pick].Value, "▾") {
		t.Fatalf("enter did not open serializer %d (%d fields): %d rows, selected %d", pick, n, len(w), hs.m.wireSel)
	}
	for k := 0; k < n; k++ {
		f, _ := s.Field(s.Serializers[pick].Fields[k])
		l := w[2+pick+k]
		if l.Depth != 2 || l.Field != 3 || l.Name != f.VarName || f.VarName == "" || !strings.HasPrefix(l.Value, f.VarType) || f.VarType == "" {
			t.Errorf("field row %+v for %+v", l, f)
		}
		if !strings.Contains(l.Value, "encoder") {
			t.Errorf("field row %q says nothing of its encoder", l.Value)
		}
	}
	hs.keys("j")
	if !strings.Contains(inspectorText(hs), "Wire field") {
		t.Errorf("the inspector does not explain the field row:\n%s", inspectorText(hs))
	}
	hs.keys("k", "enter")
	if len(hs.m.cache.wire) != 1+len(s.Serializers) {
		t.Errorf("enter again leaves %d rows", len(hs.m.cache.wire))
	}
}

// The Dota replay's schema (1,654 serializers) shows within a second of
// selecting its command.
func TestWireSendTablesDotaFast(t *testing.T) {
	if testing.Short() {
		t.Skip("the Dota replay")
	}
	path, data := loadReplay(t, dotaReplay)
	hs := newHarness(t, path, data, 160, 48)
	start := time.Now()
	selectSendTables(t, hs)
	s := hs.screen()
	took := time.Since(start)
	if hs.m.stTree == nil || len(hs.m.stTree.st.Serializers) < 1000 || !strings.Contains(s, "Wire · DEM_SendTables") {
		t.Fatalf("no schema tree for the Dota replay")
	}
	if took > time.Second {
		t.Errorf("selecting DEM_SendTables took %v", took)
	}
	t.Logf("%d serializers, %d fields, selected and drawn in %v", len(hs.m.stTree.st.Serializers), hs.m.stTree.st.NumFields(), took)
}
