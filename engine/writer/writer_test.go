package writer

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dembug/dembug/engine/bitio"
	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/fieldpath"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/engine/stringtable"
)

// testSerializers is a small hand-built schema with every field model and
// many field kinds. Under CS2 the last few fields take the CS2-only
// decoders (precise angles, unsigned−1, binary blocks); under Dota 2 the
// same fields fall back to Dota's table.
func testSerializers() []SerializerSpec {
	return []SerializerSpec{
		{Name: "CTestNested", Fields: []FieldSpec{
			Field("m_x", "int32"),
			Field("m_y", "float32").WithBits(8).WithRange(0, 1),
		}},
		{Name: "CTestElem", Fields: []FieldSpec{
			Field("m_id", "uint32"),
			Field("m_name", "CUtlString"),
			Field("m_pos", "Vector").WithEncoder("coord"),
		}},
		{Name: "CTestShape", Fields: []FieldSpec{Field("m_nSides", "uint8")}},
		{Name: "CTestCircle", Fields: []FieldSpec{Field("m_flRadius", "float32"), Field("m_bFilled", "bool")}},
		{Name: "CTestBox", Fields: []FieldSpec{Field("m_vecSize", "Vector2D"), Field("m_nColor", "Color"), Field("m_szLabel", "char[16]")}},
		{Name: "CTestEntity", Fields: []FieldSpec{
			Field("m_iValue", "int32"),
			Field("m_nCount", "uint16"),
			Field("m_nEnum", "TestEnum_t"),
			Field("m_bFlag", "bool"),
			Field("m_nBig", "uint64"),
			Field("m_nBigSigned", "int64"),
			Field("m_nFixed", "uint64").WithEncoder("fixed64"),
			Field("m_flRaw", "float32"),
			Field("m_flQZero", "float32").WithBits(10).WithRange(-1000, 1000).WithFlags(decoder.QuantEncodeZero),
			Field("m_flQUp", "CNetworkedQuantizedFloat").WithBits(10).WithRange(0, 1000).WithFlags(decoder.QuantRoundUp),
			Field("m_flQInt", "float32").WithBits(6).WithRange(0, 100).WithFlags(decoder.QuantEncodeIntegers),
			Field("m_flQDown", "float32").WithBits(13).WithHigh(256).WithFlags(decoder.QuantRoundDown),
			Field("m_flCoord", "float32").WithEncoder("coord"),
			Field("m_flSimulationTime", "float32"),
			Field("m_flRuneTime", "float32"),
			Field("m_vecNormal", "Vector").WithEncoder("normal"),
			Field("m_vecPos", "Vector").WithBits(14).WithRange(-4096, 4096),
			Field("m_vecRaw", "Vector4D"),
			Field("m_angPY", "QAngle").WithEncoder("qangle_pitch_yaw").WithBits(12),
			Field("m_angBits", "QAngle").WithBits(9),
			Field("m_angCoord", "QAngle"),
			Field("m_szName", "CUtlString"),
			Field("m_hOwner", "CHandle< CBaseEntity >"),
			Field("m_arr", "int32[3]"),
			Field("m_vec", "CNetworkUtlVectorBase< uint32 >"),
			Field("m_pNested", "CTestNested*").WithSerializer("CTestNested", 0),
			Field("m_vecTable", "CUtlVectorEmbeddedNetworkVar< CTestElem >").WithSerializer("CTestElem", 0),
			Field("m_pShape", "CTestShape*").WithSerializer("CTestShape", 0).
				WithPolymorphic(SerializerRef{"CTestCircle", 0}, SerializerRef{"CTestBox", 0}),
			Field("m_angPrecise", "QAngle").WithEncoder("qangle_precise"),
			Field("m_iClip1", "int32"),
			Field("m_blob", "CUtlBinaryBlock"),
		}},
		{Name: "CTestOther", Fields: []FieldSpec{
			Field("m_flSimulationTime", "float32"),
			Field("m_iValue", "int32"),
			Field("m_pNested", "CTestNested*").WithSerializer("CTestNested", 0),
		}},
	}
}

var testClasses = []messages.Class{{ID: 0, NetworkName: "CTestEntity"}, {ID: 1, NetworkName: "CTestOther"}}

func testHeader(g game.Game) messages.FileHeader {
	dir := map[game.Game]string{game.Dota2: "/srcds/dota", game.CS2: "/srcds/csgo"}[g]
	return messages.FileHeader{DemoFileStamp: container.Magic, NetworkProtocol: 47, MapName: "test",
		GameDirectory: dir, ServerName: "dembug test", BuildNum: 1}
}

// randomValue draws a value the decoder can hold.
func randomValue(t *rapid.T, f *schema.Field, d *decoder.Decoder) decoder.Value {
	switch d.Family {
	case decoder.FamUnsigned, decoder.FamDefault:
		return decoder.Uint(uint64(rapid.Uint32().Draw(t, "u32")))
	case decoder.FamHandle:
		return decoder.Handle(uint64(rapid.Uint32().Draw(t, "handle")))
	case decoder.FamSigned:
		return decoder.Int(int64(rapid.Int32().Draw(t, "i32")))
	case decoder.FamUnsigned64, decoder.FamFixed64:
		return decoder.Uint(rapid.Uint64().Draw(t, "u64"))
	case decoder.FamSigned64:
		return decoder.Int(rapid.Int64().Draw(t, "i64"))
	case decoder.FamBool:
		return decoder.Bool(rapid.Bool().Draw(t, "bool"))
	case decoder.FamUnsignedMinusOne:
		return decoder.Int(rapid.Int64Range(-1, 1e6).Draw(t, "minus one"))
	case decoder.FamPolyPointer:
		return decoder.Int(rapid.Int64Range(-1, int64(len(f.Polymorphic))-1).Draw(t, "poly"))
	case decoder.FamString:
		return decoder.String(rapid.StringMatching(`[a-z_]{0,12}`).Draw(t, "string"))
	case decoder.FamBinaryBlock:
		return decoder.String(string(rapid.SliceOfN(rapid.Byte(), 0, 20).Draw(t, "block")))
	case decoder.FamNormal:
		th := rapid.Float64Range(0, math.Pi).Draw(t, "theta")
		ph := rapid.Float64Range(-math.Pi, math.Pi).Draw(t, "phi")
		return decoder.Vector(math.Sin(th)*math.Cos(ph), math.Sin(th)*math.Sin(ph), math.Cos(th))
	case decoder.FamQAnglePitchYaw:
		return decoder.Vector(rapid.Float64Range(0, 360).Draw(t, "pitch"), rapid.Float64Range(0, 360).Draw(t, "yaw"), 0)
	case decoder.FamQAngleBits, decoder.FamQAngleCoord, decoder.FamQAnglePrecise:
		return decoder.Vector(rapid.Float64Range(-180, 180).Draw(t, "a"), rapid.Float64Range(-180, 180).Draw(t, "b"), rapid.Float64Range(-180, 180).Draw(t, "c"))
	case decoder.FamVector:
		v := decoder.Value{Kind: decoder.KindVector, N: d.Components}
		for i := 0; i < int(d.Components); i++ {
			v.F[i] = randomFloat(t, d.Elem)
		}
		return v
	}
	return decoder.Float(randomFloat(t, d))
}

func randomFloat(t *rapid.T, d *decoder.Decoder) float64 {
	switch d.Family {
	case decoder.FamQuantized:
		lo, hi := float64(d.Q.Low), float64(d.Q.High)
		switch rapid.IntRange(0, 5).Draw(t, "special") {
		case 0:
			return lo
		case 1:
			return hi
		case 2:
			if lo <= 0 && hi >= 0 {
				return 0
			}
		}
		return lo + (hi-lo)*rapid.Float64Range(0, 1).Draw(t, "pos")
	case decoder.FamCoord:
		return rapid.Float64Range(-16000, 16000).Draw(t, "coord")
	case decoder.FamSimTime:
		return float64(rapid.IntRange(0, 1e6).Draw(t, "ticks")) * float64(d.TickInterval)
	case decoder.FamRuneTime:
		return float64(math.Float32frombits(rapid.Uint32Range(0, 15).Draw(t, "rune")))
	}
	return float64(rapid.Float32Range(-1e6, 1e6).Draw(t, "raw"))
}

// randomChanges draws an update for an entity of serializer ser whose
// current state is state: each field set or not, arrays resized, pointers
// filled in, table elements written.
func randomChanges(t *rapid.T, ser *schema.Serializer, state Changes) Changes {
	ch := Changes{}
	var fill func(ser *schema.Serializer, pre fieldpath.Path)
	fill = func(ser *schema.Serializer, pre fieldpath.Path) {
		for i, f := range ser.Fields {
			if !rapid.Bool().Draw(t, "set "+f.Name) {
				continue
			}
			p := pre
			p.Last++
			p.Idx[p.Last] = int32(i)
			elem := func(k int) fieldpath.Path {
				q := p
				q.Last++
				q.Idx[q.Last] = int32(k)
				return q
			}
			switch f.Model {
			case schema.Simple:
				ch[p] = randomValue(t, f, f.Decoder)
			case schema.FixedArray:
				ch[elem(rapid.IntRange(0, f.Type.Count-1).Draw(t, "element"))] = randomValue(t, f, f.Decoder)
			case schema.VariableArray:
				n := rapid.IntRange(0, 4).Draw(t, "length")
				ch[p] = decoder.Uint(uint64(n))
				for k := 0; k < n; k++ {
					if rapid.Bool().Draw(t, "set element") {
						ch[elem(k)] = randomValue(t, f, f.Elem)
					}
				}
			case schema.FixedTable:
				next := f.Serializer
				if len(f.Polymorphic) > 0 {
					v := randomValue(t, f, f.Decoder)
					ch[p] = v
					if pi := v.Int64(); pi > 0 {
						next = f.Polymorphic[pi]
					}
				} else {
					ch[p] = decoder.Bool(true)
				}
				if p.Last+1 < fieldpath.MaxDepth {
					fill(next, p)
				}
			case schema.VariableTable:
				n := rapid.IntRange(0, 3).Draw(t, "rows")
				ch[p] = decoder.Uint(uint64(n))
				for k := 0; k < n && p.Last+2 < fieldpath.MaxDepth; k++ {
					fill(f.Serializer, elem(k))
				}
			}
		}
	}
	fill(ser, fieldpath.Path{Last: -1})
	return ch
}

// engineValue reads the value at p from an engine entity state, walking
// the nodes as entity.resolve does.
func engineValue(ser *schema.Serializer, node *entity.Node, p fieldpath.Path) decoder.Value {
	for i := 0; ; i++ {
		idx := int(p.Idx[i])
		f := ser.Fields[idx]
		switch f.Model {
		case schema.Simple:
			return node.Get(idx)
		case schema.FixedArray:
			return node.Kid(idx).Get(int(p.Idx[i+1]))
		case schema.FixedTable:
			if i == p.Last {
				return node.Get(idx)
			}
			next := f.Serializer
			if pi := node.Get(idx).Int64(); len(f.Polymorphic) > 0 && pi > 0 && pi < int64(len(f.Polymorphic)) {
				next = f.Polymorphic[pi]
			}
			ser, node = next, node.Kid(idx)
		case schema.VariableArray:
			if i == p.Last {
				return node.Get(idx)
			}
			return node.Kid(idx).Get(int(p.Idx[i+1]))
		case schema.VariableTable:
			if i == p.Last {
				return node.Get(idx)
			}
			ser, node = f.Serializer, node.Kid(idx).Kid(int(p.Idx[i+1]))
			i++
		}
	}
}

// sameEntities checks that the engine holds exactly the writer's entities,
// with every value the writer set.
func sameEntities(t interface{ Fatalf(string, ...any) }, w *Entities, tab *entity.Table) {
	n := 0
	for _, e := range tab.Entities {
		if e != nil {
			n++
		}
	}
	live := w.Live()
	if n != len(live) {
		t.Fatalf("engine holds %d entities, writer %d", n, len(live))
	}
	for _, we := range live {
		e := tab.Entities[we.Index]
		if e == nil || e.Class == nil || e.Class.ID != we.Class || e.Serial != we.Serial || e.Active != we.Active {
			t.Fatalf("entity %d: engine %+v, writer class %d serial %d active %v", we.Index, e, we.Class, we.Serial, we.Active)
		}
		ser := w.Serializer(we.Class)
		for _, p := range we.State.Paths() {
			if _, err := DecoderAt(ser, we.State, p); err != nil {
				continue // under a polymorphic pointer since switched: kept, but out of reach
			}
			want := we.State[p]
			if got := engineValue(ser, e.State, p); !got.Equal(want) {
				name, _, _ := entity.FieldName(ser, e.State, &p)
				t.Fatalf("entity %d %s %s: engine %v (%+v), writer %v (%+v)", we.Index, p, name, got, got.F, want, want.F)
			}
		}
	}
}

// script is a random run of frames: creates, updates, leaves, deletes and
// deletion-list entries over a handful of entity indexes.
func script(t *rapid.T, w *Entities, frames int, emit func(fr *Frame, tick int) error) {
	indexes := []int32{0, 1, 2, 5, 60, 61, 300, 16383}
	serial := uint32(1)
	last := map[int32]Changes{} // each entity's last update
	for tick := 0; tick < frames; tick++ {
		fr := w.NewFrame(tick > 0)
		var deleted []int32
		for _, idx := range indexes {
			en := w.Entity(idx)
			op := rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("op %d", idx))
			var err error
			switch {
			case op == 0: // nothing
			case en == nil || op == 1:
				class := rapid.Int32Range(0, 1).Draw(t, "class")
				serial = (serial*7 + 3) % (1 << entity.SerialBits)
				err = fr.Create(idx, class, serial, randomChanges(t, w.Serializer(class), nil))
			case op == 2:
				err = fr.Leave(idx)
			case op == 3 && tick > 0:
				err = fr.Delete(idx)
			case op == 4 && tick > 0 && entity.HasDeletionList(w.Game):
				deleted = append(deleted, idx) // after this frame's updates
			case op == 5 && last[idx] != nil && rapid.Bool().Draw(t, "repeat paths"):
				// The paths of the entity's last update again, with new
				// values: the decoder replays such paths from its memo.
				ch := Changes{}
				for p, v := range last[idx] {
					if d, derr := DecoderAt(w.Serializer(en.Class), en.State, p); derr == nil && d.Family != decoder.FamPolyPointer {
						v = randomValue(t, nil, d)
					}
					ch[p] = v
				}
				err = fr.Update(idx, ch)
				last[idx] = ch
			default:
				ch := randomChanges(t, w.Serializer(en.Class), en.State)
				err = fr.Update(idx, ch)
				last[idx] = ch
			}
			if en == nil || op >= 1 && op <= 4 {
				// A new entity (perhaps of another class), or one whose
				// next updates may not carry fields.
				delete(last, idx)
			}
			if err != nil {
				t.Fatalf("tick %d entity %d: %v", tick, idx, err)
			}
		}
		for _, idx := range deleted {
			if err := fr.DeleteAtEnd(idx); err != nil {
				t.Fatal(err)
			}
		}
		if err := emit(fr, tick); err != nil {
			t.Fatalf("tick %d: %v", tick, err)
		}
	}
}

// TestEntitiesRoundTrip: random entity states, written as packet-entities
// messages (protobuf body included), decoded by entity.Table.Apply, give
// the same state with every bit consumed, and every field read by the
// decoder the writer chose.
func TestEntitiesRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapid.SampledFrom([]game.Game{game.Dota2, game.CS2}).Draw(t, "game")
		s, err := schema.Parse(FlattenedSerializer(testSerializers()), g)
		if err != nil {
			t.Fatal(err)
		}
		maxClasses := rapid.Int32Range(2, 5000).Draw(t, "max classes")
		w, err := NewEntities(s, testClasses, maxClasses)
		if err != nil {
			t.Fatal(err)
		}
		// tab records every message; plain does not, and so replays
		// repeated paths from its memo.
		tab, plain := entity.NewTable(), entity.NewTable()
		for _, tb := range []*entity.Table{tab, plain} {
			tb.SetClassCount(maxClasses)
			if err := tb.SetClasses(testClasses, s); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range testClasses {
			if !rapid.Bool().Draw(t, "baseline") {
				continue
			}
			data, err := w.SetBaseline(c.ID, randomChanges(t, w.Serializer(c.ID), nil))
			if err != nil {
				t.Fatal(err)
			}
			tab.SetBaseline(c.ID, data)
			plain.SetBaseline(c.ID, data)
		}
		var rec provenance.Message
		script(t, w, rapid.IntRange(1, 6).Draw(t, "frames"), func(fr *Frame, tick int) error {
			pe, err := fr.Message(uint32(tick), int32(tick-1))
			if err != nil {
				return err
			}
			m, err := messages.ParsePacketEntities(PacketEntitiesBody(pe))
			if err != nil {
				return err
			}
			res := tab.Apply(&m, &rec)
			if res.Err != nil || res.Misaligned || res.Skipped {
				return fmt.Errorf("apply: %+v", res)
			}
			if pres := plain.Apply(&m, nil); pres != res {
				return fmt.Errorf("apply without recording: %+v, with: %+v", pres, res)
			}
			if res.DataBits-res.EndBit >= 8 {
				return fmt.Errorf("%d bits left unread", res.DataBits-res.EndBit)
			}
			// Every value was read by the decoder the writer encoded it with.
			for _, f := range rec.Fields {
				u := rec.Updates[f.Update]
				we := w.Entity(u.Index)
				if we == nil || we.Class != u.ClassID {
					continue // deleted at the end of this message
				}
				d, err := DecoderAt(w.Serializer(we.Class), we.State, f.Path)
				if err != nil || d != f.Decoder {
					return fmt.Errorf("entity %d %s read with %s, written with %v (%v)", u.Index, f.Name, f.Decoder.Describe(), d, err)
				}
			}
			sameEntities(t, w, tab)
			sameEntities(t, w, plain)
			return nil
		})
	})
}

func TestPathOf(t *testing.T) {
	s, err := schema.Parse(FlattenedSerializer(testSerializers()), game.Dota2)
	if err != nil {
		t.Fatal(err)
	}
	ser := s.Serializer("CTestEntity")
	cases := []struct{ name, path string }{
		{"m_iValue", "[0]"},
		{"m_flSimulationTime", "[13]"},
		{"m_arr.0002", "[23 2]"},
		{"m_arr.0", "[23 0]"},
		{"m_vec", "[24]"}, // the length
		{"m_vec.3", "[24 3]"},
		{"m_pNested", "[25]"}, // the presence bit
		{"m_pNested.m_y", "[25 1]"},
		{"m_vecTable", "[26]"},
		{"m_vecTable.0001.m_name", "[26 1 1]"},
		{"m_vecTable.0009.m_pos", "[26 9 2]"},
		{"m_pShape", "[27]"},
		{"m_pShape.m_nSides", "[27 0]"},
		{"m_pShape.m_bFilled", "[27 1]"}, // from the CTestCircle alternative
		{"m_pShape.m_szLabel", "[27 2]"}, // from CTestBox
		{"m_blob", "[30]"},
		// Errors.
		{"m_nope", ""},
		{"m_arr", ""}, // a fixed array needs an element
		{"m_iValue.0001", ""},
		{"m_pNested.m_x.0001", ""},
		{"m_vecTable.0001", ""},
		{"m_vecTable.x.m_id", ""},
		{"m_vec.0001.0002", ""},
		{"m_pShape.m_nope", ""},
	}
	for _, c := range cases {
		p, err := PathOf(ser, c.name)
		if c.path == "" {
			if err == nil {
				t.Errorf("%s: path %s, want an error", c.name, p)
			}
			continue
		}
		if err != nil || p.String() != c.path {
			t.Errorf("%s: %s %v, want %s", c.name, p, err, c.path)
			continue
		}
		if strings.HasPrefix(c.name, "m_pShape.") {
			continue // the engine names these from the pointer's current alternative
		}
		if got, _, _ := entity.FieldName(ser, nil, &p); got != normalizeName(c.name) {
			t.Errorf("%s: the engine names path %s %s", c.name, p, got)
		}
	}
	if _, err := PathOf(nil, "m_x"); err == nil {
		t.Error("nil serializer accepted")
	}
}

// normalizeName zero-pads indexes as the engine spells them.
func normalizeName(name string) string {
	parts := strings.Split(name, ".")
	for i, p := range parts {
		if p != "" && strings.Trim(p, "0123456789") == "" {
			parts[i] = fmt.Sprintf("%04s", p)
		}
	}
	return strings.Join(parts, ".")
}

// buildDemo writes a demo for the test schema with a random script and
// returns it with the writer's final entities.
func buildDemo(t *rapid.T, g game.Game) ([]byte, *Demo, map[int32]stringtable.Entry) {
	d, err := NewDemo(testHeader(g), messages.ServerInfo{MaxClasses: 2, MaxClients: 10, TickInterval: 1.0 / 30, GameDir: "test", MapName: "test"},
		testSerializers(), testClasses)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range testClasses {
		if rapid.Bool().Draw(t, "baseline") {
			if err := d.SetBaseline(c.ID, randomChanges(t, d.Entities.Serializer(c.ID), nil)); err != nil {
				t.Fatal(err)
			}
		}
	}
	names := &stringtable.Table{Name: "EntityNames", VarintBitCounts: true}
	// model is EntityNames as the rules say the messages leave it.
	model := map[int32]stringtable.Entry{}
	write := func(entries []stringtable.Entry) []stringtable.Entry {
		for _, e := range entries {
			if e.Key == "" {
				e.Key = model[e.Index].Key
			}
			model[e.Index] = e
		}
		return entries
	}
	id, err := d.AddStringTable(names, write([]stringtable.Entry{{Index: 0, Key: "first"}, {Index: 1, Key: "second", Value: []byte{1, 2}}}), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Signon(); err != nil {
		t.Fatal(err)
	}
	script(t, d.Entities, rapid.IntRange(1, 5).Draw(t, "frames"), func(fr *Frame, tick int) error {
		var extra []Inner
		if tick == 0 {
			u, err := d.UpdateStringTable(id, write([]stringtable.Entry{{Index: 2, Key: "third"}}))
			if err != nil {
				return err
			}
			extra = append(extra, u)
		}
		if tick == 1 {
			u, err := d.UpdateStringTable(id, write(tableUpdateGen(t)))
			if err != nil {
				return err
			}
			extra = append(extra, u)
		}
		return d.Packet(int32(tick*2), fr, extra...) // a packet every other tick, as Dota's recorder writes
	})
	return d.Finish(), d, model
}

// tableUpdateGen draws a string-table update over the EntityNames entries
// written at signon and tick 0 and past them: jumps, keys that share a
// prefix with earlier ones (history references), entries without a key
// and entries without a value.
func tableUpdateGen(t *rapid.T) []stringtable.Entry {
	var out []stringtable.Entry
	idx := int32(-1)
	for i := range rapid.IntRange(1, 12).Draw(t, "table update entries") {
		idx += int32(rapid.IntRange(1, 3).Draw(t, "table step"))
		e := stringtable.Entry{Index: idx}
		if rapid.Bool().Draw(t, fmt.Sprintf("table key %d", i)) {
			e.Key = rapid.SampledFrom([]string{"first", "second", "third", "thirdly", "seconds"}).Draw(t, "table key") +
				rapid.StringMatching(`[a-z]{0,3}`).Draw(t, "table key suffix")
		}
		if rapid.Bool().Draw(t, fmt.Sprintf("table value %d", i)) {
			e.Value = rapid.SliceOfN(rapid.Byte(), 0, 6).Draw(t, "table value")
		}
		out = append(out, e)
	}
	return out
}

// TestDemoRoundTrip: a whole written demo decodes through replay.Open and
// Run with no error and zero misaligned messages, to the writer's entity
// state, in both a Dota 2 and a CS2 shape.
func TestDemoRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapid.SampledFrom([]game.Game{game.Dota2, game.CS2}).Draw(t, "game")
		data, d, model := buildDemo(t, g)
		r, err := replay.Open(data)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Run(nil); err != nil {
			t.Fatalf("run: %v", err)
		}
		if r.Stats.Misaligned != 0 || r.FirstMisaligned != nil {
			t.Fatalf("%d misaligned: %v", r.Stats.Misaligned, r.FirstMisaligned)
		}
		if !r.Done || r.Game != g || r.Server.MaxClasses != 2 {
			t.Fatalf("done %v game %s server %+v", r.Done, r.Game, r.Server)
		}
		sameEntities(t, d.Entities, r.Entities)
		// The update at tick 1 has jumps, history references, keyless
		// and value-less entries: the table read back is what the rules
		// say, and what the writer holds.
		names := r.Strings.ByName("EntityNames")
		if names == nil || names.Len() != len(model) || d.Table(1).Len() != len(model) {
			t.Fatalf("EntityNames table %+v, want %d entries", names, len(model))
		}
		for i, want := range model {
			got, _ := names.Get(i)
			mine, _ := d.Table(1).Get(i)
			if !bytes.Equal(got.Value, want.Value) || (got.Value == nil) != (want.Value == nil) || got.Key != want.Key || got.Index != i || mine.Key != want.Key {
				t.Fatalf("EntityNames entry %d = %+v (the writer's %+v), want %+v", i, got, mine, want)
			}
		}
	})
}

// TestDemoLayout checks the container of a fixed little demo: header
// offsets, command order, the signon tick.
func TestDemoLayout(t *testing.T) {
	d, err := NewDemo(testHeader(game.Dota2), messages.ServerInfo{MaxClasses: 2, TickInterval: 1.0 / 30}, testSerializers(), testClasses)
	if err != nil {
		t.Fatal(err)
	}
	other := d.Serializer("CTestOther")
	if err := d.SetBaseline(1, Changes{}); err != nil {
		t.Fatal(err)
	}
	if err := d.Signon(); err != nil {
		t.Fatal(err)
	}
	for tick := range 3 {
		fr := d.Frame()
		ch := Changes{}
		if err := ch.Set(other, "m_iValue", decoder.Int(int64(tick))); err != nil {
			t.Fatal(err)
		}
		if tick == 0 {
			err = fr.Create(7, 1, 99, ch)
		} else {
			err = fr.Update(7, ch)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Packet(int32(tick), fr); err != nil {
			t.Fatal(err)
		}
	}
	data := d.Finish()
	cr, err := container.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []container.Kind
	offsets := map[container.Kind]int{}
	for {
		c, err := cr.Next()
		if err != nil {
			break
		}
		kinds = append(kinds, c.Kind)
		offsets[c.Kind] = c.Offset
		if c.Index < 8 && c.Tick != -1 {
			t.Errorf("signon command %s at tick %d, want -1", c.Kind, c.Tick)
		}
	}
	want := []container.Kind{container.FileHeader, container.SignonPacket, container.SignonPacket, container.SignonPacket,
		container.SendTables, container.ClassInfo, container.StringTables, container.SyncTick,
		container.Packet, container.Packet, container.Packet, container.Stop, container.SpawnGroups, container.FileInfo}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Fatalf("commands %v, want %v", kinds, want)
	}
	if got := int(binary.LittleEndian.Uint32(data[8:])); got != offsets[container.FileInfo] {
		t.Errorf("header file-info offset %d, DEM_FileInfo at %d", got, offsets[container.FileInfo])
	}
	if got := int(binary.LittleEndian.Uint32(data[12:])); got != offsets[container.SpawnGroups] {
		t.Errorf("header spawn-groups offset %d, DEM_SpawnGroups at %d", got, offsets[container.SpawnGroups])
	}
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(nil); err != nil || r.Stats.Misaligned != 0 {
		t.Fatalf("run: %v, %d misaligned", err, r.Stats.Misaligned)
	}
	if e := r.Entities.Entities[7]; e == nil || e.Serial != 99 || e.State.Get(1).Int64() != 2 {
		t.Fatalf("entity 7: %+v", e)
	}
	if !bytes.Equal(data, d.Finish()) {
		t.Fatal("Finish twice gave different bytes")
	}
}

func TestCompressedCommand(t *testing.T) {
	f := NewFile()
	body := bytes.Repeat([]byte("dembug "), 100)
	f.Command(container.ConsoleCmd, 7, body, true)
	cr, err := container.NewReader(f.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	c, err := cr.Next()
	if err != nil || !c.Compressed || c.Kind != container.ConsoleCmd || c.Tick != 7 || !bytes.Equal(c.Body, body) {
		t.Fatalf("command %+v, %v", c, err)
	}
	if !ShouldCompress(body, 100) || ShouldCompress(body, 1000) || ShouldCompress([]byte{1, 2, 3}, 0) {
		t.Fatal("ShouldCompress")
	}
}

func TestWriteFieldsRejects(t *testing.T) {
	s, _ := schema.Parse(FlattenedSerializer(testSerializers()), game.Dota2)
	ser := s.Serializer("CTestEntity")
	bad := []Changes{
		{fieldpath.Path{Idx: [fieldpath.MaxDepth]int32{99}}: decoder.Int(1)},             // no such field
		{fieldpath.Path{Idx: [fieldpath.MaxDepth]int32{0}}: decoder.Float(1)},            // wrong kind
		{fieldpath.Path{Idx: [fieldpath.MaxDepth]int32{23, 3}, Last: 1}: decoder.Int(1)}, // beyond int32[3]
		{fieldpath.Path{Idx: [fieldpath.MaxDepth]int32{0, 1}}: decoder.Int(1)},           // junk beyond Last
	}
	for i, ch := range bad {
		var w bitio.Writer
		if _, err := WriteFields(&w, ser, nil, ch); err == nil || w.Len() != 0 {
			t.Errorf("case %d: err %v, %d bits written", i, err, w.Len())
		}
	}
}
