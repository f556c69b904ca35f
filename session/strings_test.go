package session

import (
	"fmt"
	"testing"

	"github.com/dembug/dembug/testdata"
)

// The sample's string-table messages decode to the entries they wrote:
// the instance baselines by class id, the entity names, and the tick-15
// update of EntityNames (decoded with its create's settings).
func TestStringTableChangesOfTheSample(t *testing.T) {
	ix := BuildIndex("sample.dem", testdata.Sample)
	var got []string
	for i := range ix.Commands {
		c := &ix.Commands[i]
		for j, m := range c.Msgs() {
			if m.Name != "svc_CreateStringTable" && m.Name != "svc_UpdateStringTable" {
				continue
			}
			ch, err := stringTableChange(testdata.Sample, ix, c, j)
			if err != nil {
				t.Fatalf("command #%d message %d: %v", c.Index, j, err)
			}
			s := fmt.Sprintf("%s %d:", ch.Table, ch.ID)
			for _, e := range ch.Entries {
				s += fmt.Sprintf(" %d=%q", e.Index, e.Key)
				if e.Class != "" {
					s += "(" + e.Class + ")"
				}
				if e.HasValue {
					s += fmt.Sprintf("+%dB", e.Value)
				}
			}
			got = append(got, s)
		}
	}
	want := []string{
		`instancebaseline -1: 0="0"(CDOTAGamerulesProxy)+1B 1="1"(CDOTA_BaseNPC_Creep_Lane)+36B 2="2"(CDOTA_Unit_Hero_Axe)+32B 3="3"(CDOTA_Unit_Roshan)+23B 4="4"(CWorld)+6B`,
		`EntityNames -1: 0="npc_dota_hero_axe" 1="npc_dota_creep_badguys_melee"`,
		`EntityNames 1: 2="npc_dota_creep_badguys_ranged"`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got\n%v\nwant\n%v", got, want)
	}
}
