package writer

import (
	"fmt"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/messages"
)

// The CS2 sample's landmarks, for its tests and docs/sample-tour.md.
const (
	SampleCS2TickBase   = 128000 // server tick of demo tick 0 (2000 s in)
	SampleCS2LastTick   = 63     // 64 packets, one per tick, 1 s at 64 ticks/s
	SampleCS2Follow     = 8      // the polymorphic pointer switches alternative
	SampleCS2Shot       = 20     // the taser fires: m_iClip1 1 → 0
	SampleCS2Turn       = 24     // the chicken turns: precise angles
	SampleCS2TaserGone  = 40     // the taser is deleted by command
	SampleCS2Topology   = 48     // a binary block of 6 bytes
	SampleCS2ChickenIdx = 100    // CChicken
	SampleCS2TaserIdx   = 200    // CWeaponTaser
	SampleCS2GameDir    = "/opt/srcds/cs2/game/csgo"
	SampleCS2Build      = 14160
)

// sampleCS2Serializers is the CS2 sample's schema: CS2-shaped classes with
// the families only CS2's decoder choice gives (precise angles, unsigned
// varint − 1, binary blocks) and a polymorphic pointer.
func sampleCS2Serializers() []SerializerSpec {
	sim := Field("m_flSimulationTime", "float32").WithEncoder("simtime")
	owner := Field("m_hOwnerEntity", "CHandle< CBaseEntity >")
	pos := func(axis string) FieldSpec {
		return Field("m_vec"+axis, "CNetworkedQuantizedFloat").WithBits(15).WithRange(0, 1024).WithFlags(decoder.QuantRoundDown)
	}
	activity := func(name string, more ...FieldSpec) SerializerSpec {
		return SerializerSpec{Name: name, Fields: append([]FieldSpec{Field("m_flStartTime", "GameTime_t")}, more...)}
	}
	sers := []SerializerSpec{
		{Name: "CBodyComponentBaseAnimGraph", Fields: []FieldSpec{
			Field("m_cellX", "uint16"), Field("m_cellY", "uint16"), Field("m_cellZ", "uint16"),
			pos("X"), pos("Y"), pos("Z"),
			Field("m_angRotation", "QAngle").WithEncoder("qangle_precise"),
		}},
		activity("CChickenActivity"),
		activity("CChickenActivity_Wander", Field("m_vecGoal", "Vector")),
		activity("CChickenActivity_Follow", Field("m_hLeader", "CHandle< CBaseEntity >")),
		{Name: "CChicken", Fields: []FieldSpec{
			sim, owner,
			Field("CBodyComponent", "CBodyComponent").WithSerializer("CBodyComponentBaseAnimGraph", 0),
			Field("m_iHealth", "int32"),
			Field("m_pActivity", "CChickenActivity*").WithSerializer("CChickenActivity", 0).
				WithPolymorphic(SerializerRef{"CChickenActivity_Wander", 0}, SerializerRef{"CChickenActivity_Follow", 0}),
			Field("m_topology", "CUtlBinaryBlock"),
		}},
		{Name: "CWeaponTaser", Fields: []FieldSpec{
			sim, owner,
			Field("m_iClip1", "int32"),
			Field("m_fLastShotTime", "GameTime_t"),
		}},
		{Name: "CWorld", Fields: []FieldSpec{
			sim,
			Field("m_WorldMins", "Vector"),
			Field("m_WorldMaxs", "Vector"),
			Field("m_flCreateTime", "GameTime_t"),
		}},
	}
	for _, c := range sampleCS2Classes {
		if c.NetworkName != "CChicken" && c.NetworkName != "CWeaponTaser" && c.NetworkName != "CWorld" {
			sers = append(sers, SerializerSpec{Name: c.NetworkName, Fields: []FieldSpec{sim, Field("m_iTeamNum", "uint8")}})
		}
	}
	return sers
}

// Class ids in name order. Only CChicken, CWeaponTaser and CWorld have
// entities; the others are there because CS2 parsers bind game state to
// them as soon as the class list is read (a real CS2 file has hundreds of
// classes, most never created in a short recording). Thirteen: not a power
// of two.
var sampleCS2Classes = func() []messages.Class {
	names := []string{"CBaseTrigger", "CC4", "CCSGameRulesProxy", "CCSPlayerController", "CCSPlayerPawn",
		"CCSPlayerResource", "CCSTeam", "CChicken", "CHostage", "CInferno", "CPlantedC4", "CWeaponTaser", "CWorld"}
	out := make([]messages.Class, len(names))
	for i, n := range names {
		out[i] = messages.Class{ID: int32(i), NetworkName: n}
	}
	return out
}()

// sampleCS2SimTime is the simulation time of a demo tick at 64 ticks/s.
func sampleCS2SimTime(tick int) decoder.Value {
	return decoder.Float(float64(float32(SampleCS2TickBase+tick) * float32(1.0/64)))
}

// GenerateCS2 returns dembug's CS2-shaped sample replay: a second of a
// CS2 SourceTV demo carrying the decoder families only CS2 uses (precise
// angles, unsigned varint − 1, binary blocks) and a polymorphic pointer,
// with landmarks described in docs/sample-tour.md. The bytes are the same
// on every call and every machine.
func GenerateCS2() []byte {
	data, err := generateCS2Sample()
	if err != nil {
		panic(fmt.Sprintf("writer.GenerateCS2: %v", err))
	}
	return data
}

func generateCS2Sample() ([]byte, error) {
	h := messages.FileHeader{NetworkProtocol: SampleCS2Build, ServerName: "dembug cs2 sample", MapName: "cs_dembug",
		GameDirectory: SampleCS2GameDir, DemoVersionGUID: "64656d62-7567-4000-8000-637332736d70", BuildNum: SampleCS2Build}
	server := messages.ServerInfo{MaxClients: 16, TickInterval: 1.0 / 64, GameDir: SampleCS2GameDir, MapName: "cs_dembug"}
	s, err := newSampleScript(h, server, sampleCS2Serializers(), sampleCS2Classes, SampleCS2TickBase)
	if err != nil {
		return nil, err
	}
	d := s.d
	u := decoder.Uint
	i := decoder.Int
	f := decoder.Float
	str := decoder.String
	vec := decoder.Vector
	const (
		chicken = "CChicken"
		taser   = "CWeaponTaser"
		world   = "CWorld"
	)
	noOwner := decoder.Handle(decoder.HandleInvalid)

	// A baseline for every class, as CS2 servers send them.
	for _, c := range sampleCS2Classes {
		switch c.NetworkName {
		case chicken:
			s.baseline(chicken, "m_hOwnerEntity", noOwner, "CBodyComponent", decoder.Bool(true),
				"m_iHealth", i(1), "m_topology", str(""))
		case taser:
			// No clip yet: −1, sent as 0.
			s.baseline(taser, "m_hOwnerEntity", noOwner, "m_iClip1", i(-1))
		case world:
			s.baseline(world, "m_flCreateTime", f(0))
		default:
			s.baseline(c.NetworkName, "m_iTeamNum", u(0))
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	s.check(d.Signon())

	// The chicken wanders +x at 4 units a tick until the follow switch,
	// then stands.
	chickenX := func(tick int) float64 { return 512 + 4*float64(min(tick, SampleCS2Follow)) }
	for tick := 0; tick <= SampleCS2LastTick; tick++ {
		fr := d.Frame()
		// Entities go in index order: world 0, chicken 100, taser 200.
		if tick == 0 {
			s.check(fr.Create(0, d.Class(world), 1, s.ch(world, "m_flSimulationTime", sampleCS2SimTime(0),
				"m_WorldMins", vec(-2048, -3072, -256), "m_WorldMaxs", vec(2048, 3072, 768))))
		}
		cc := Changes{}
		set := func(kv ...any) {
			for k, v := range s.ch(chicken, kv...) {
				cc[k] = v
			}
		}
		if tick >= 1 && tick <= SampleCS2Follow {
			set("CBodyComponent.m_vecX", f(chickenX(tick)), "m_flSimulationTime", sampleCS2SimTime(tick))
		}
		switch tick {
		case SampleCS2Follow:
			set("m_pActivity", i(2), "m_pActivity.m_flStartTime", f(2000.125),
				"m_pActivity.m_hLeader", sampleHandle(SampleCS2TaserIdx, 9))
		case SampleCS2Turn:
			set("CBodyComponent.m_angRotation", vec(-12.5, 135.25, 0.75), "m_flSimulationTime", sampleCS2SimTime(tick))
		case SampleCS2Topology:
			// The binary block is the chicken's last field and the chicken
			// the message's only update, so its bytes end the entity data.
			set("m_topology", str("\x02\x00\xde\xb0\x67\x01"))
		}
		if tick == 0 {
			s.check(fr.Create(SampleCS2ChickenIdx, d.Class(chicken), 4, s.ch(chicken,
				"m_flSimulationTime", sampleCS2SimTime(0),
				"CBodyComponent.m_cellX", u(36), "CBodyComponent.m_cellY", u(30), "CBodyComponent.m_cellZ", u(32),
				"CBodyComponent.m_vecX", f(chickenX(0)), "CBodyComponent.m_vecY", f(256), "CBodyComponent.m_vecZ", f(0),
				"CBodyComponent.m_angRotation", vec(0, 90, 0),
				"m_pActivity", i(1), "m_pActivity.m_flStartTime", f(1999.5), "m_pActivity.m_vecGoal", vec(600, 256, 0),
			)))
		} else if len(cc) > 0 {
			s.check(fr.Update(SampleCS2ChickenIdx, cc))
		}
		switch tick {
		case 0:
			s.check(fr.Create(SampleCS2TaserIdx, d.Class(taser), 9, s.ch(taser,
				"m_flSimulationTime", sampleCS2SimTime(0), "m_iClip1", i(1), "m_fLastShotTime", f(0))))
		case SampleCS2Shot:
			s.check(fr.Update(SampleCS2TaserIdx, s.ch(taser, "m_flSimulationTime", sampleCS2SimTime(tick),
				"m_iClip1", i(0), "m_fLastShotTime", f(float64(float32(SampleCS2TickBase+tick)*float32(1.0/64))))))
		case SampleCS2TaserGone:
			s.check(fr.Delete(SampleCS2TaserIdx))
		}
		if s.err != nil {
			return nil, fmt.Errorf("tick %d: %w", tick, s.err)
		}
		s.check(d.Packet(int32(tick), fr))
	}
	if s.err != nil {
		return nil, s.err
	}
	return d.Finish(), nil
}
