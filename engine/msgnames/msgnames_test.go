package msgnames

import (
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/game"
)

var allGames = []game.Game{game.Unknown, game.Dota2, game.CS2, game.Deadlock}

func TestCommonNamesForEveryGame(t *testing.T) {
	common := map[uint32]string{
		0:   "net_NOP",
		4:   "net_Tick",
		7:   "net_SignonState",
		8:   "net_SpawnGroup_Load",
		16:  "bi_RebroadcastGameEvent",
		19:  "bi_PredictionEvent",
		40:  "svc_ServerInfo",
		41:  "svc_FlattenedSerializer",
		42:  "svc_ClassInfo",
		44:  "svc_CreateStringTable",
		45:  "svc_UpdateStringTable",
		51:  "svc_ClearAllStringTables",
		55:  "svc_PacketEntities",
		62:  "svc_HLTVStatus",
		70:  "svc_FullFrameSplit",
		76:  "svc_UserCmds",
		118: "UM_SayText2",
		136: "EM_PlayJingle",
		141: "EM_FixAngle",
		145: "UM_ParticleManager",
		166: "UM_PlayResponseConditional",
		205: "GE_Source1LegacyGameEventList",
		207: "GE_Source1LegacyGameEvent",
		208: "GE_SosStartSoundEvent",
		400: "TE_EffectDispatchId",
		426: "TE_SmokeId",
	}
	for _, g := range allGames {
		for id, want := range common {
			got, ok := Name(g, id)
			if !ok || got != want {
				t.Errorf("Name(%v, %d) = %q, %v; want %q, true", g, id, got, ok, want)
			}
		}
	}
}

func TestGameSpecificNames(t *testing.T) {
	cases := []struct {
		g    game.Game
		id   uint32
		want string
	}{
		{game.Dota2, 464, "DOTA_UM_AddUnitToSelection"},
		{game.Dota2, 466, "DOTA_UM_ChatEvent"},
		{game.Dota2, 483, "DOTA_UM_OverheadEvent"},
		{game.Dota2, 554, "DOTA_UM_CombatLogDataHLTV"},
		{game.Dota2, 636, "DOTA_UM_GiveItem"},
		{game.CS2, 301, "CS_UM_VGUIMenu"},
		{game.CS2, 352, "CS_UM_ServerRankUpdate"},
		{game.CS2, 369, "CS_UM_WeaponSound"},
		{game.CS2, 450, "GE_PlayerAnimEventId"},
		{game.CS2, 452, "GE_FireBulletsId"},
		{game.Deadlock, 300, "k_EUserMsg_Damage"},
		{game.Deadlock, 314, "k_EUserMsg_ChatMsg"},
		{game.Deadlock, 319, "k_EUserMsg_HeroKilled"},
		{game.Deadlock, 450, "GE_FireBullets"},
		{game.Deadlock, 461, "GE_BulletImpact"},
		{game.Deadlock, 500, "k_EEntityMsg_BreakablePropSpawnDebris"},
	}
	for _, c := range cases {
		got, ok := Name(c.g, c.id)
		if !ok || got != c.want {
			t.Errorf("Name(%v, %d) = %q, %v; want %q, true", c.g, c.id, got, ok, c.want)
		}
	}
}

func TestGameSpecificNamesStayInTheirGame(t *testing.T) {
	cases := []struct {
		owner game.Game
		id    uint32
	}{
		{game.Dota2, 483},    // DOTA_UM_OverheadEvent
		{game.Dota2, 636},    // DOTA_UM_GiveItem
		{game.CS2, 385},      // CS_UM_CounterStrafe
		{game.CS2, 390},      // CS_UM_CustomHudClicked
		{game.Deadlock, 300}, // k_EUserMsg_Damage
		{game.Deadlock, 458}, // GE_ParticleSystemManager
	}
	for _, c := range cases {
		for _, g := range allGames {
			if g == c.owner {
				continue
			}
			if name, ok := Name(g, c.id); ok {
				t.Errorf("Name(%v, %d) = %q, true; want it named only for %v", g, c.id, name, c.owner)
			}
		}
	}
	// Dota's chat event number is not a CS2 message.
	if name, ok := Name(game.CS2, 466); ok {
		t.Errorf("Name(cs2, 466) = %q, true; want unknown", name)
	}
}

// The same number can mean different things in different games.
func TestSharedNumbersDifferPerGame(t *testing.T) {
	want := map[game.Game]string{
		game.Dota2:    "DOTA_UM_ChatEvent",
		game.Deadlock: "GE_RemoveBullet",
	}
	for g, w := range want {
		if got, _ := Name(g, 466); got != w {
			t.Errorf("Name(%v, 466) = %q; want %q", g, got, w)
		}
	}
	if got, _ := Name(game.CS2, 450); got != "GE_PlayerAnimEventId" {
		t.Errorf("Name(cs2, 450) = %q", got)
	}
	if got, _ := Name(game.Deadlock, 450); got != "GE_FireBullets" {
		t.Errorf("Name(deadlock, 450) = %q", got)
	}
}

func TestUnknownIDs(t *testing.T) {
	for _, g := range allGames {
		for _, id := range []uint32{2, 10, 14, 39, 64, 78, 123, 147, 299, 9999, 1<<32 - 1} {
			if name, ok := Name(g, id); ok {
				t.Errorf("Name(%v, %d) = %q, true; want unknown", g, id, name)
			}
		}
	}
	if got := Display(game.Dota2, 9999); got != "unknown(9999)" {
		t.Errorf("Display(dota2, 9999) = %q", got)
	}
	if got := Display(game.CS2, 466); got != "unknown(466)" {
		t.Errorf("Display(cs2, 466) = %q", got)
	}
	if got := Display(game.Unknown, 1<<32-1); got != "unknown(4294967295)" {
		t.Errorf("Display(unknown, max) = %q", got)
	}
	if got := Display(game.Deadlock, 55); got != "svc_PacketEntities" {
		t.Errorf("Display(deadlock, 55) = %q", got)
	}
}

// A Game value beyond the known ones gets the common tables only.
func TestOutOfRangeGame(t *testing.T) {
	g := game.Game(200)
	if got, ok := Name(g, 55); !ok || got != "svc_PacketEntities" {
		t.Errorf("Name(200, 55) = %q, %v", got, ok)
	}
	if name, ok := Name(g, 466); ok {
		t.Errorf("Name(200, 466) = %q, true; want unknown", name)
	}
}

func TestNameDoesNotAllocate(t *testing.T) {
	var sink string
	allocs := testing.AllocsPerRun(1000, func() {
		for _, g := range allGames {
			sink, _ = Name(g, 55)
			sink, _ = Name(g, 466)
			sink, _ = Name(g, 9999)
			sink = Display(g, 4)
		}
	})
	_ = sink
	if allocs != 0 {
		t.Errorf("Name/Display of known ids allocate %v times per run; want 0", allocs)
	}
}

func TestTablesAreConsistent(t *testing.T) {
	if _, conflicts := build(); len(conflicts) != 0 {
		for _, c := range conflicts {
			t.Errorf("%v: id %d claimed by both %q and %q", c.game, c.id, c.kept, c.other)
		}
	}
	tables := append([]table(nil), commonTables...)
	for _, ts := range gameTables {
		tables = append(tables, ts...)
	}
	for _, tb := range tables {
		if len(tb.entries) == 0 {
			t.Errorf("table %s is empty", tb.enum)
		}
		for i, e := range tb.entries {
			if e.name == "" || strings.ContainsAny(e.name, " \t\n()") {
				t.Errorf("table %s: bad name %q for id %d", tb.enum, e.name, e.id)
			}
			if i > 0 && tb.entries[i-1].id >= e.id {
				t.Errorf("table %s: id %d listed after %d; keep tables sorted", tb.enum, e.id, tb.entries[i-1].id)
			}
		}
	}
	// Every game sees every common entry plus exactly its own.
	for g := range numGames {
		want := 0
		for _, tb := range commonTables {
			want += len(tb.entries)
		}
		for _, tb := range gameTables[g] {
			want += len(tb.entries)
		}
		if got := len(byGame[g]); got != want {
			t.Errorf("%v: %d names, want %d", game.Game(g), got, want)
		}
	}
}
