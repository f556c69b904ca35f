package writer

import (
	"fmt"
	"math"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/stringtable"
)

// The sample replay's landmarks, for its tests and docs/sample-tour.md.
const (
	SampleTickBase   = 27000 // server tick of demo tick 0 (15 minutes in)
	SampleLastTick   = 89    // 90 packets, one per tick, 3 s at 30 ticks/s
	SampleCellCross  = 7     // the hero's m_cellX goes 130 → 131
	SampleHeroStops  = 13    // velocity becomes zero: ENCODE_ZERO bits
	SampleCreepsIn   = 15    // two creeps are created
	SampleSeedUpdate = 30    // the game rules update of the seed document
	SampleCreepLeave = 45    // creep 300 leaves the view
	SampleLevelUp    = 50    // ROUNDUP and ENCODE_INTEGERS values
	SampleCreepsGone = 60    // creep 300 deleted by command, 301 by the deletion list
	SampleRoshanHit  = 75    // Roshan takes damage

	SampleRulesIndex = 1   // CDOTAGamerulesProxy
	SampleHeroIndex  = 256 // CDOTA_Unit_Hero_Axe
	SampleCreepA     = 300 // created, updated, leaves, deleted
	SampleCreepB     = 301 // created, deleted by the deletion list
	SampleRoshan     = 320 // CDOTA_Unit_Roshan
	SampleHeroSerial = 7

	// SampleGameDir is the game directory in the file header and
	// svc_ServerInfo: a dedicated server's path naming the build
	// (dota_vNNNN), as SourceTV demos carry it; parsers take the build
	// from it.
	SampleGameDir = "/opt/srcds/dota_v10000/game/dota"
	SampleBuild   = 10000
)

// sampleSerializers is the sample's schema: Dota-shaped classes whose
// fields use every decoder family Dota 2's decoder choice can give.
func sampleSerializers() []SerializerSpec {
	pos := func(axis string) FieldSpec {
		// The seed's position offset: 13 bits over 0..256 with ROUNDDOWN,
		// which set-up drops after moving the top to 255.96875.
		return Field("m_vec"+axis, "float32").WithBits(13).WithHigh(256).WithFlags(decoder.QuantRoundDown)
	}
	body := Field("CBodyComponent", "CBodyComponent").WithSerializer("CBodyComponentBaseAnimatingOverlay", 0)
	return []SerializerSpec{
		{Name: "CBodyComponentBaseAnimatingOverlay", Fields: []FieldSpec{
			Field("m_cellX", "uint16"), Field("m_cellY", "uint16"), Field("m_cellZ", "uint16"),
			pos("X"), pos("Y"), pos("Z"),
			Field("m_angRotation", "QAngle"),
		}},
		{Name: "CDOTA_ItemStockInfo", Fields: []FieldSpec{
			Field("m_nItemID", "AbilityID_t"),
			Field("m_iStockCount", "int32"),
			Field("m_fCooldown", "GameTime_t"),
		}},
		{Name: "CDOTAGamerules", Fields: []FieldSpec{
			Field("m_iFoWFrameNumber", "int32"),
			Field("m_nHeroPickState", "DOTA_HeroPickState"),
			Field("m_flHeroPickStateTransitionTime", "GameTime_t"),
			Field("m_iPlayerIDsInControl", "uint64").WithEncoder("fixed64"),
			Field("m_iCaptainPlayerIDs", "PlayerID_t[2]"),
			Field("m_nGameState", "DOTA_GameState"),
			Field("m_flGameStartTime", "GameTime_t"),
			// No bit count and the full float range: what the engine
			// writes for an unbounded float; the name makes it a rune time.
			Field("m_flRuneTime", "float32").WithRange(-math.MaxFloat32, math.MaxFloat32),
			Field("m_vecItemStockInfo", "CUtlVectorEmbeddedNetworkVar< CDOTA_ItemStockInfo >").WithSerializer("CDOTA_ItemStockInfo", 0),
		}},
		{Name: "CDOTAGamerulesProxy", Fields: []FieldSpec{
			Field("m_pGameRules", "CDOTAGamerules*").WithSerializer("CDOTAGamerules", 0),
		}},
		{Name: "CDOTA_BaseNPC_Creep_Lane", Fields: []FieldSpec{
			body,
			Field("m_flSimulationTime", "float32"),
			Field("m_iTeamNum", "uint8"),
			Field("m_iHealth", "int32"),
			Field("m_iMaxHealth", "int32"),
			Field("m_iszUnitName", "CUtlSymbolLarge"),
			Field("m_hAttackTarget", "CHandle< CBaseEntity >"),
		}},
		{Name: "CDOTA_Unit_Hero_Axe", Fields: []FieldSpec{
			body,
			Field("m_flSimulationTime", "float32"),
			Field("m_flAnimTime", "float32"),
			Field("m_iTeamNum", "uint8"),
			Field("m_iHealth", "int32"),
			Field("m_iMaxHealth", "int32"),
			Field("m_flMana", "CNetworkedQuantizedFloat").WithBits(20).WithHigh(65536),
			Field("m_flMaxMana", "CNetworkedQuantizedFloat").WithBits(20).WithHigh(65536),
			Field("m_iCurrentLevel", "int32"),
			Field("m_iAbilityPoints", "int16"),
			Field("m_flHealthRegen", "float32").WithBits(10).WithRange(0, 1000).WithFlags(decoder.QuantRoundUp),
			Field("m_flMoveSpeedBonus", "float32").WithBits(10).WithRange(-1000, 1000).WithFlags(decoder.QuantEncodeZero),
			Field("m_flStrengthTotal", "float32").WithBits(10).WithRange(0, 500).WithFlags(decoder.QuantEncodeIntegers),
			Field("m_vecVelocity", "Vector").WithBits(12).WithRange(-2048, 2048).WithFlags(decoder.QuantEncodeZero),
			Field("m_vecFacing", "Vector").WithEncoder("normal"),
			Field("m_angEyeAngles", "QAngle").WithEncoder("qangle_pitch_yaw").WithBits(16),
			Field("m_angNetworkAngles", "QAngle").WithBits(10),
			Field("m_flWaterLevel", "float32").WithEncoder("coord"),
			Field("m_iszUnitName", "CUtlSymbolLarge"),
			Field("m_hOwnerEntity", "CHandle< CBaseEntity >"),
			Field("m_bIsIllusion", "bool"),
			Field("m_nTotalDamageTaken", "int64"),
			Field("m_nFacetKey", "HeroFacetKey_t"),
			Field("m_nHeroID", "HeroID_t"),
			Field("m_vecModifierIDs", "CNetworkUtlVectorBase< uint32 >"),
		}},
		{Name: "CDOTA_Unit_Roshan", Fields: []FieldSpec{
			body,
			Field("m_flSimulationTime", "float32"),
			Field("m_iTeamNum", "uint8"),
			Field("m_iHealth", "int32"),
			Field("m_iMaxHealth", "int32"),
			Field("m_iszUnitName", "CUtlSymbolLarge"),
		}},
		{Name: "CWorld", Fields: []FieldSpec{
			Field("m_WorldMins", "Vector"),
			Field("m_WorldMaxs", "Vector"),
			Field("m_iszMapName", "CUtlString"),
			Field("m_nMapSeed", "uint64"),
		}},
	}
}

// Class ids in name order, as Valve numbers them. Five classes, not a
// power of two: at a power of two, parsers disagree on the class-id width
// (floor(log2 n) + 1, Valve's formula, gives one bit more than log2 n).
var sampleClasses = []messages.Class{
	{ID: 0, NetworkName: "CDOTAGamerulesProxy"},
	{ID: 1, NetworkName: "CDOTA_BaseNPC_Creep_Lane"},
	{ID: 2, NetworkName: "CDOTA_Unit_Hero_Axe"},
	{ID: 3, NetworkName: "CDOTA_Unit_Roshan"},
	{ID: 4, NetworkName: "CWorld"},
}

// sampleScript fills a Demo. Field values are set by name; the first
// error stops everything.
type sampleScript struct {
	d   *Demo
	err error
}

// newSampleScript starts a sample's demo: a SourceTV recording with the
// header fields every sample shares filled in, room on the server for
// every class, and demo tick 0 at server tick tickBase.
func newSampleScript(h messages.FileHeader, server messages.ServerInfo, sers []SerializerSpec, classes []messages.Class, tickBase uint32) (*sampleScript, error) {
	h.DemoFileStamp, h.ClientName, h.FullpacketsVersion, h.DemoVersionName = container.Magic, "SourceTV Demo", 2, "valve_demo_2"
	server.MaxClasses = int32(len(classes))
	d, err := NewDemo(h, server, sers, classes)
	if err != nil {
		return nil, err
	}
	d.TickBase = tickBase
	return &sampleScript{d: d}, nil
}

// ch builds changes for a class from name, value pairs.
func (s *sampleScript) ch(class string, kv ...any) Changes {
	ser := s.d.Serializer(class)
	out := Changes{}
	for i := 0; i+1 < len(kv); i += 2 {
		name := kv[i].(string)
		if err := out.Set(ser, name, kv[i+1].(decoder.Value)); err != nil && s.err == nil {
			s.err = err
		}
	}
	return out
}

// baseline sets class's instance baseline from name, value pairs.
func (s *sampleScript) baseline(class string, kv ...any) {
	s.check(s.d.SetBaseline(s.d.Class(class), s.ch(class, kv...)))
}

func (s *sampleScript) check(err error) {
	if err != nil && s.err == nil {
		s.err = err
	}
}

func sampleHandle(index int32, serial uint32) decoder.Value {
	return decoder.Handle(uint64(index) | uint64(serial)<<decoder.HandleIndexBits)
}

// sampleSimTime is the simulation time of a demo tick: its server tick
// count times the tick interval, in float32 as the decoder computes it.
func sampleSimTime(tick int) decoder.Value {
	return decoder.Float(float64(float32(SampleTickBase+tick) * float32(1.0/30)))
}

// sampleRuneTime is the k-th of the 16 values the rune-time decoder can
// give (k × 2^-149: the 4 bits are taken as a float's low bits).
func sampleRuneTime(k uint32) decoder.Value {
	return decoder.Float(float64(math.Float32frombits(k)))
}

// sampleHeroX is the hero's world x at a tick: it walks +x at 9.375 units a
// tick (about 281 units a second) from tick 1 to tick 12.
func sampleHeroX(tick int) float64 {
	t := min(max(tick, 0), 12)
	return 130*128 + 69.1875 + 9.375*float64(t)
}

// Generate returns dembug's sample replay: a short, Dota-shaped demo that
// exercises every decoder family Dota 2's decoder choice can give, with
// landmarks described in docs/sample-tour.md. The bytes are the same on
// every call and every machine.
func Generate() []byte {
	data, err := generateSample()
	if err != nil {
		panic(fmt.Sprintf("writer.Generate: %v", err))
	}
	return data
}

func generateSample() ([]byte, error) {
	h := messages.FileHeader{NetworkProtocol: 47, ServerName: "dembug sample", MapName: "dota", GameDirectory: SampleGameDir,
		DemoVersionGUID: "64656d62-7567-4000-8000-73616d706c65", BuildNum: SampleBuild}
	server := messages.ServerInfo{MaxClients: 64, TickInterval: 1.0 / 30, GameDir: SampleGameDir, MapName: "dota"}
	s, err := newSampleScript(h, server, sampleSerializers(), sampleClasses, SampleTickBase)
	if err != nil {
		return nil, err
	}
	d := s.d
	// Value shorthands.
	u := decoder.Uint
	i := decoder.Int
	f := decoder.Float
	b := decoder.Bool
	str := decoder.String
	vec := decoder.Vector
	const (
		rules  = "CDOTAGamerulesProxy"
		creep  = "CDOTA_BaseNPC_Creep_Lane"
		hero   = "CDOTA_Unit_Hero_Axe"
		roshan = "CDOTA_Unit_Roshan"
		world  = "CWorld"
	)
	heroHandle := sampleHandle(SampleHeroIndex, SampleHeroSerial)

	// Baselines: what a create starts from, one for every class, as
	// Valve's servers send them.
	s.baseline(world, "m_iszMapName", str("dota"))
	s.baseline(rules, "m_pGameRules", b(true))
	s.baseline(creep,
		"CBodyComponent", b(true), "m_iTeamNum", u(3), "m_iHealth", i(550), "m_iMaxHealth", i(550),
		"m_iszUnitName", str("npc_dota_creep_badguys_melee"))
	s.baseline(hero,
		"CBodyComponent", b(true), "m_iTeamNum", u(2), "m_iHealth", i(620), "m_iMaxHealth", i(620),
		"m_iCurrentLevel", i(1), "m_iszUnitName", str("npc_dota_hero_axe"),
		"m_hOwnerEntity", decoder.Handle(decoder.HandleInvalid), "m_bIsIllusion", b(false))
	s.baseline(roshan,
		"CBodyComponent", b(true), "m_iTeamNum", u(4), "m_iHealth", i(6000), "m_iMaxHealth", i(6000),
		"m_iszUnitName", str("npc_dota_roshan"))
	names := &stringtable.Table{Name: "EntityNames", VarintBitCounts: true}
	namesID, err := d.AddStringTable(names, []stringtable.Entry{
		{Index: 0, Key: "npc_dota_hero_axe"}, {Index: 1, Key: "npc_dota_creep_badguys_melee"},
	}, true)
	s.check(err)
	if s.err != nil {
		return nil, s.err
	}
	s.check(d.Signon())

	for tick := 0; tick <= SampleLastTick; tick++ {
		fr := d.Frame()
		var extra []Inner
		// Entities go in index order: world 0, rules 1, hero 256, creeps
		// 300, 301, Roshan 320.
		switch tick {
		case 0:
			s.check(fr.Create(0, d.Class(world), 1, s.ch(world,
				"m_WorldMins", vec(-8288, -8288, -512), "m_WorldMaxs", vec(8288, 8288, 1536),
				"m_nMapSeed", u(7452108))))
			s.check(fr.Create(SampleRulesIndex, d.Class(rules), 3, s.ch(rules,
				"m_pGameRules.m_iFoWFrameNumber", i(12),
				"m_pGameRules.m_nHeroPickState", u(6),
				"m_pGameRules.m_flHeroPickStateTransitionTime", f(893.5),
				"m_pGameRules.m_iPlayerIDsInControl", u(0),
				// Player and ability ids go as zigzag varints, as the
				// game writes them (docs/corrections.md): captain 1 is
				// the varint 2, which the seed's reading shows.
				"m_pGameRules.m_iCaptainPlayerIDs.0000", i(1),
				"m_pGameRules.m_iCaptainPlayerIDs.0001", i(7),
				"m_pGameRules.m_nGameState", u(2),
				"m_pGameRules.m_flGameStartTime", f(0),
				"m_pGameRules.m_flRuneTime", sampleRuneTime(3),
				"m_pGameRules.m_vecItemStockInfo", u(2),
				"m_pGameRules.m_vecItemStockInfo.0000.m_nItemID", i(21),
				"m_pGameRules.m_vecItemStockInfo.0000.m_iStockCount", i(2),
				"m_pGameRules.m_vecItemStockInfo.0000.m_fCooldown", f(135),
				"m_pGameRules.m_vecItemStockInfo.0001.m_nItemID", i(94),
				"m_pGameRules.m_vecItemStockInfo.0001.m_iStockCount", i(1),
				"m_pGameRules.m_vecItemStockInfo.0001.m_fCooldown", f(210),
			)))
			s.check(fr.Create(SampleHeroIndex, d.Class(hero), SampleHeroSerial, s.ch(hero,
				"CBodyComponent.m_cellX", u(130), "CBodyComponent.m_cellY", u(122), "CBodyComponent.m_cellZ", u(128),
				"CBodyComponent.m_vecX", f(69.1875), "CBodyComponent.m_vecY", f(203.84375), "CBodyComponent.m_vecZ", f(96),
				"CBodyComponent.m_angRotation", vec(0, 90, 0),
				"m_flSimulationTime", sampleSimTime(0), "m_flAnimTime", sampleSimTime(0),
				"m_flMana", f(291), "m_flMaxMana", f(291),
				"m_iAbilityPoints", i(0),
				"m_flHealthRegen", f(2.5),
				"m_flMoveSpeedBonus", f(0),
				"m_flStrengthTotal", f(25),
				"m_vecVelocity", vec(0, 0, 0),
				"m_vecFacing", vec(0, 1, 0),
				"m_angEyeAngles", vec(0, 90, 0),
				"m_angNetworkAngles", vec(0, 90, 0),
				"m_flWaterLevel", f(0),
				"m_bIsIllusion", b(false),
				"m_nTotalDamageTaken", i(0),
				"m_nFacetKey", u(1<<32|2),
				"m_nHeroID", u(2),
				"m_vecModifierIDs", u(0),
			)))
		case SampleSeedUpdate:
			// The update of the seed document (field-decoders.txt): five
			// values, 8 + 8 + 32 + 64 + 8 = 120 bits.
			s.check(fr.Update(SampleRulesIndex, s.ch(rules,
				"m_pGameRules.m_iFoWFrameNumber", i(14),
				"m_pGameRules.m_nHeroPickState", u(7),
				"m_pGameRules.m_flHeroPickStateTransitionTime", f(0),
				"m_pGameRules.m_iPlayerIDsInControl", u(2),
				"m_pGameRules.m_iCaptainPlayerIDs.0001", i(8),
			)))
		case 45:
			s.check(fr.Update(SampleRulesIndex, s.ch(rules,
				"m_pGameRules.m_vecItemStockInfo", u(3),
				"m_pGameRules.m_vecItemStockInfo.0002.m_nItemID", i(109),
				"m_pGameRules.m_vecItemStockInfo.0002.m_iStockCount", i(3),
				"m_pGameRules.m_vecItemStockInfo.0002.m_fCooldown", f(70),
			)))
		case 75:
			s.check(fr.Update(SampleRulesIndex, s.ch(rules,
				"m_pGameRules.m_nGameState", u(4),
				"m_pGameRules.m_flGameStartTime", f(901.5),
				"m_pGameRules.m_flRuneTime", sampleRuneTime(5),
				"m_pGameRules.m_vecItemStockInfo", u(1),
			)))
		}

		// The hero: walks, stops, turns, takes damage, casts, levels up.
		hc := s.ch(hero)
		set := func(kv ...any) {
			for k, v := range s.ch(hero, kv...) {
				hc[k] = v
			}
		}
		if tick >= 1 && tick <= SampleHeroStops {
			x := sampleHeroX(tick)
			cell := math.Floor(x / 128)
			set("CBodyComponent.m_vecX", f(x-cell*128), "m_flSimulationTime", sampleSimTime(tick), "m_flAnimTime", sampleSimTime(tick))
			if cell != math.Floor(sampleHeroX(tick-1)/128) {
				set("CBodyComponent.m_cellX", u(uint64(cell)))
			}
		}
		switch tick {
		case 1:
			set("m_vecVelocity", vec(281.25, 0, 0))
		case SampleHeroStops:
			set("m_vecVelocity", vec(0, 0, 0))
		case 16:
			set("m_vecModifierIDs", u(2), "m_vecModifierIDs.0000", u(17), "m_vecModifierIDs.0001", u(4242))
		case 20:
			// Facing (-0.6, 0.8): x² + y² quantizes to just over 1, so z is 0.
			set("CBodyComponent.m_angRotation", vec(0, 126.875, 0), "m_vecFacing", vec(-0.6, 0.8, 0),
				"m_angEyeAngles", vec(10, 126.875, 0), "m_angNetworkAngles", vec(0, 126.875, 0), "m_flSimulationTime", sampleSimTime(tick))
		case 25:
			set("m_iHealth", i(540), "m_nTotalDamageTaken", i(80), "m_flHealthRegen", f(4.5), "m_flMoveSpeedBonus", f(-100),
				"m_flSimulationTime", sampleSimTime(tick))
		case 33:
			set("m_flMana", f(191), "m_vecModifierIDs", u(3), "m_vecModifierIDs.0002", u(99))
		case 40:
			set("m_flMoveSpeedBonus", f(0), "m_vecModifierIDs", u(1))
		case SampleLevelUp:
			set("m_iCurrentLevel", i(2), "m_iAbilityPoints", i(1), "m_iMaxHealth", i(700), "m_iHealth", i(620),
				"m_flMaxMana", f(327), "m_flStrengthTotal", f(27), "m_flHealthRegen", f(1000), "m_nFacetKey", u(1<<32|3))
		case 55:
			set("m_flWaterLevel", f(-12.5), "CBodyComponent.m_vecZ", f(64), "m_flSimulationTime", sampleSimTime(tick))
		}
		if len(hc) > 0 {
			s.check(fr.Update(SampleHeroIndex, hc))
		}

		// The creeps.
		switch tick {
		case SampleCreepsIn:
			for k, idx := range []int32{SampleCreepA, SampleCreepB} {
				kv := []any{
					"CBodyComponent.m_cellX", u(133), "CBodyComponent.m_cellY", u(122), "CBodyComponent.m_cellZ", u(128),
					"CBodyComponent.m_vecX", f(40 + 24*float64(k)), "CBodyComponent.m_vecY", f(180), "CBodyComponent.m_vecZ", f(96),
					"CBodyComponent.m_angRotation", vec(0, 180, 0),
					"m_flSimulationTime", sampleSimTime(tick), "m_hAttackTarget", heroHandle,
				}
				if k == 1 {
					kv = append(kv, "m_iszUnitName", str("npc_dota_creep_badguys_ranged"), "m_iHealth", i(300), "m_iMaxHealth", i(300))
				}
				s.check(fr.Create(idx, d.Class(creep), uint32(11+k), s.ch(creep, kv...)))
			}
			u, err := d.UpdateStringTable(namesID, []stringtable.Entry{{Index: 2, Key: "npc_dota_creep_badguys_ranged"}})
			s.check(err)
			extra = append(extra, u)
		case SampleSeedUpdate:
			s.check(fr.Update(SampleCreepA, s.ch(creep, "m_iHealth", i(480), "CBodyComponent.m_vecX", f(21.5),
				"m_flSimulationTime", sampleSimTime(tick))))
		case SampleCreepLeave:
			s.check(fr.Leave(SampleCreepA))
		case SampleCreepsGone:
			s.check(fr.Delete(SampleCreepA))
			s.check(fr.DeleteAtEnd(SampleCreepB))
		}

		// Roshan: in his pit from the start, hit once.
		switch tick {
		case 0:
			s.check(fr.Create(SampleRoshan, d.Class(roshan), 5, s.ch(roshan,
				"CBodyComponent.m_cellX", u(121), "CBodyComponent.m_cellY", u(132), "CBodyComponent.m_cellZ", u(129),
				"CBodyComponent.m_vecX", f(16), "CBodyComponent.m_vecY", f(96), "CBodyComponent.m_vecZ", f(32),
				"CBodyComponent.m_angRotation", vec(0, 270, 0),
				"m_flSimulationTime", sampleSimTime(0))))
		case SampleRoshanHit:
			s.check(fr.Update(SampleRoshan, s.ch(roshan, "m_iHealth", i(5820), "m_flSimulationTime", sampleSimTime(tick))))
		}
		if s.err != nil {
			return nil, fmt.Errorf("tick %d: %w", tick, s.err)
		}
		s.check(d.Packet(int32(tick), fr, extra...))
	}
	if s.err != nil {
		return nil, s.err
	}
	return d.Finish(), nil
}
