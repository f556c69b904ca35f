package ui

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/diagnose"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/internal/brokendemo"
)

// L lists the file's anomalies grouped by rule and severity, with their
// fields; m mutes the rule under the cursor; enter goes to the first
// occurrence of the group.
func TestScreenAnomalyList(t *testing.T) {
	screenTest(t, func(hs *harness) {
		hs.keys("L")
	}, func(t *testing.T, hs *harness, s string) {
		for _, want := range []string{"14 × handle to an entity that does not exist (weak)", "14 × m_hGoalEntity", "Anomalies · 14 (0 strong)"} {
			if !strings.Contains(s, want) {
				t.Errorf("list lacks %q:\n%s", want, s)
			}
		}
		// Item ids are read whole (the game's reading): no overflow.
		if strings.Contains(s, "varint holding more than 32 bits") {
			t.Error("a 64-bit item id listed as cut")
		}
		if strings.Contains(s, "decoded by the fallback decoder") {
			t.Error("a read by the default decoder is listed as an anomaly")
		}
	})
}

func TestAnomalyListMuteAndGo(t *testing.T) {
	_, data := loadReplay(t, dotaReplay)
	// Under the seed's reading, which cuts item ids to 32 bits (the
	// game's reads them whole: no overflow to go to).
	hs := newHarnessWith(t, "dota", data, 160, 48, Options{NoColor: true, Aliases: schema.Aliases{Seed: true}})
	hs.keys("L", "m")
	if !hs.m.mute.Muted(diagnose.DanglingHandle, "") || !strings.Contains(hs.screen(), "[muted]") {
		t.Fatalf("m on the first group did not mute its rule:\n%s", hs.screen())
	}
	hs.keys("m")
	if hs.m.mute.Muted(diagnose.DanglingHandle, "") {
		t.Fatal("m again did not unmute the rule")
	}
	// The varint-overflow group comes after the handle group and its one
	// field row.
	hs.keys("j", "j", "enter")
	if hs.m.list != nil {
		t.Fatal("enter did not close the list")
	}
	if f := selField(hs); f == nil || f.Name != "m_iItemID" {
		t.Fatalf("enter went to %+v, want m_iItemID", f)
	}
	if !strings.Contains(inspectorText(hs), "read 25787853485 (35 bits), kept the low 32 bits: 18049709") {
		t.Errorf("the inspector does not show the value before the cut:\n%s", inspectorText(hs))
	}
	// M mutes the selected field: its marker goes (strong: its type,
	// itemid_t, is under a values verdict in the seed's reading).
	if !markedField(hs.screen(), "m_iItemID", "!") {
		t.Fatalf("m_iItemID not marked '!':\n%s", hs.screen())
	}
	hs.keys("M")
	if markedField(hs.screen(), "m_iItemID", "!") || markedField(hs.screen(), "m_iItemID", "?") {
		t.Errorf("m_iItemID still marked after M:\n%s", hs.screen())
	}
}

// A muted rule is no stop of a/A.
func TestMutedRuleIsNoStop(t *testing.T) {
	hs := newHarness(t, wrongName, brokendemo.WrongDecoder(), 160, 48)
	all := len(hs.m.stops())
	if all == 0 {
		t.Fatal("no stops in the broken demo")
	}
	var muted int
	for _, st := range hs.m.ix.Anoms {
		if st.Rule != "" {
			hs.m.mute.MuteRule(st.Rule, true)
			muted++
		}
	}
	if got := len(hs.m.stops()); muted == 0 || got != all-muted {
		t.Errorf("%d stops after muting %d rules' stops, want %d", got, muted, all-muted)
	}
}
