package parsers

import (
	"strings"
	"testing"
)

// notFixable lists, per model, the kinds its tables use that no decoder
// of the parser can be named for in a fix line, with why.
var notFixable = map[string]map[Kind]string{}

func TestModelsComplete(t *testing.T) {
	if len(All()) == 0 {
		t.Fatal("no models registered")
	}
	seen := map[string]bool{}
	for _, m := range All() {
		if m.ID == "" || m.Name == "" || m.Release == "" || m.Repo == "" || m.File == "" {
			t.Errorf("%+v: ID, Name, Release, Repo and File are all needed", m.ID)
		}
		if seen[m.ID] {
			t.Errorf("%s registered twice", m.ID)
		}
		seen[m.ID] = true
		if len(m.Games) == 0 {
			t.Errorf("%s reads no game", m.ID)
		}
		if len(m.Types) == 0 {
			t.Errorf("%s: empty Types table", m.ID)
		}
		if m.TypeTable == "" {
			t.Errorf("%s: no TypeTable symbol", m.ID)
		}
		if len(m.Factories) > 0 && m.FactoryTable == "" {
			t.Errorf("%s: factories without a FactoryTable symbol", m.ID)
		}
		if m.entry == nil {
			t.Errorf("%s: no entry writer", m.ID)
		}
		for _, tbl := range []map[string]Entry{m.Factories, m.Types, m.Names} {
			for name, e := range tbl {
				if e.Kind == None || e.Kind >= kindCount {
					t.Errorf("%s: %q has kind %v", m.ID, name, e.Kind)
				}
				if e.Symbol == "" {
					t.Errorf("%s: %q has no symbol", m.ID, name)
				}
			}
		}
	}
}

func TestFactoryFlags(t *testing.T) {
	for _, m := range All() {
		for name, e := range m.Factories {
			if !e.Factory {
				t.Errorf("%s: factory row %q not marked Factory", m.ID, name)
			}
		}
		for name, e := range m.Types {
			if e.Factory {
				t.Errorf("%s: type row %q marked Factory", m.ID, name)
			}
		}
	}
}

func TestKindsFixable(t *testing.T) {
	for _, m := range All() {
		used := map[Kind]string{}
		for _, tbl := range []map[string]Entry{m.Factories, m.Types, m.Names} {
			for name, e := range tbl {
				used[e.Kind] = name
			}
		}
		if m.Stops == "" {
			used[m.Fallback] = "(fallback)"
		}
		for k, name := range used {
			if _, ok := m.symbols[k]; ok {
				continue
			}
			if why, ok := notFixable[m.ID][k]; ok && why != "" {
				continue
			}
			t.Errorf("%s: kind %v (used by %s) has no fix symbol and is not listed as not fixable", m.ID, k, name)
		}
		for k := range notFixable[m.ID] {
			if _, ok := m.symbols[k]; ok {
				t.Errorf("%s: kind %v listed not fixable but has a symbol", m.ID, k)
			}
		}
	}
}

func TestFixForNamesTheType(t *testing.T) {
	const made = "NetMadeUp_t"
	for _, m := range All() {
		for k := Kind(1); k < kindCount; k++ {
			fx, ok := m.FixFor(made, k)
			if _, has := m.symbols[k]; has != ok {
				t.Errorf("%s: FixFor(%v) ok=%v, symbol present=%v", m.ID, k, ok, has)
			}
			if !ok {
				continue
			}
			if !strings.Contains(fx.Entry, `"`+made+`"`) {
				t.Errorf("%s: FixFor(%v) = %q, no quoted type name", m.ID, k, fx.Entry)
			}
			if strings.Contains(fx.Entry, "\n") {
				t.Errorf("%s: FixFor(%v) = %q spans lines", m.ID, k, fx.Entry)
			}
			if fx.File != m.File || fx.Symbol == "" {
				t.Errorf("%s: FixFor(%v) = %+v", m.ID, k, fx)
			}
			want := m.TypeTable
			if m.symbols[k].Factory {
				want = m.FactoryTable
			}
			if fx.Symbol != want {
				t.Errorf("%s: FixFor(%v) table %q, want %q", m.ID, k, fx.Symbol, want)
			}
		}
	}
}

// lookup is one reading checked by hand against the parser's source.
type lookup struct {
	model, typ, field string
	elem              bool
	kind              Kind
	known             bool
	symbol            string // "" to skip
}

var lookups = []lookup{
	// Clarity 4.0.0
	{model: "clarity", typ: "int32", kind: Signed, known: true, symbol: "IntVarSignedDecoder"},
	{model: "clarity", typ: "uint64", kind: Unsigned64, known: true, symbol: "LongUnsignedDecoderFactory"},
	{model: "clarity", typ: "uint64", elem: true, kind: Unsigned64, known: true, symbol: "LongUnsignedDecoderFactory"},
	{model: "clarity", typ: "ResourceId_t", kind: Unsigned64, known: true, symbol: "LongVarUnsignedDecoder"},
	{model: "clarity", typ: "CNetworkedQuantizedFloat", kind: Float, known: true},
	{model: "clarity", typ: "BloodType", kind: Fixed8, known: true},
	{model: "clarity", typ: "CGlobalSymbol", kind: Unsigned, known: false},
	{model: "clarity", typ: "CUtlBinaryBlock", kind: Unsigned, known: false},
	{model: "clarity", typ: "float32", field: "m_flSimulationTime", kind: Float, known: true},
	// demofile-net v0.44.1 (its fallback switch)
	{model: "demofile-net", typ: "int32", kind: Unsigned64, known: true, symbol: "buffer.ReadUVarInt64()"},
	{model: "demofile-net", typ: "CEntityIndex", kind: Signed, known: true},
	{model: "demofile-net", typ: "GameTick_t", kind: Unsigned, known: true},
	{model: "demofile-net", typ: "GameTime_t", kind: NoScale, known: true},
	{model: "demofile-net", typ: "float32", elem: true, kind: Float, known: true},
	{model: "demofile-net", typ: "CUtlBinaryBlock", kind: None, known: false},
	{model: "demofile-net", typ: "Quaternion", kind: None, known: false},
	// demoparser2 v0.41.3
	{model: "demoparser2", typ: "CEntityIndex", kind: Unsigned64, known: true, symbol: "Unsigned64Decoder"},
	{model: "demoparser2", typ: "int64", kind: Signed, known: true, symbol: "SignedDecoder"},
	{model: "demoparser2", typ: "HSequence", kind: Unsigned64, known: true},
	{model: "demoparser2", typ: "int32", field: "m_iClip1", kind: MinusOne, known: true, symbol: "AmmoDecoder"},
	{model: "demoparser2", typ: "float32", elem: true, kind: Float, known: true, symbol: "find_float_decoder"},
	{model: "demoparser2", typ: "Vector4D", kind: Vector3, known: true},
	{model: "demoparser2", typ: "Quaternion", kind: NoScale, known: true},
	{model: "demoparser2", typ: "CEntityHandle", kind: Unsigned64, known: true, symbol: "find_uint_decoder"},
	{model: "demoparser2", typ: "CHandle", elem: true, kind: Unsigned, known: true},
	{model: "demoparser2", typ: "ResourceId_t", kind: Unsigned, known: false},
	// haste a5c4fa8
	{model: "haste", typ: "uint32", kind: Unsigned64, known: false, symbol: "fallback"},
	{model: "haste", typ: "uint64", elem: true, kind: Unsigned64, known: false},
	{model: "haste", typ: "int32", kind: Signed64, known: true, symbol: "I64Decoder"},
	{model: "haste", typ: "GameTime_t", kind: Float, known: true},
	{model: "haste", typ: "Vector", elem: true, kind: Vector3, known: true},
	{model: "haste", typ: "VectorWS", kind: Unsigned64, known: false},
	{model: "haste", typ: "char", kind: String, known: true},
}

func TestStops(t *testing.T) {
	m := ByID("demofile-net")
	if m == nil || !strings.Contains(m.Stops, "NotSupportedException") {
		t.Fatalf("demofile-net should stop on a type it does not know: %+v", m)
	}
	for _, m := range All() {
		if m.Stops == "" && m.Fallback == None {
			t.Errorf("%s: neither a fallback kind nor a stop", m.ID)
		}
	}
}

func TestLookups(t *testing.T) {
	for _, l := range lookups {
		m := ByID(l.model)
		if m == nil {
			t.Errorf("no model %q", l.model)
			continue
		}
		e, known := m.Reads(l.typ, l.field, l.elem)
		if e.Kind != l.kind || known != l.known || l.symbol != "" && e.Symbol != l.symbol {
			t.Errorf("%s reads %s (elem %v) as %v %q known=%v, want %v %q known=%v",
				l.model, l.typ, l.elem, e.Kind, e.Symbol, known, l.kind, l.symbol, l.known)
		}
	}
}

func TestEntryIdioms(t *testing.T) {
	for _, c := range []struct {
		model string
		kind  Kind
		want  string
	}{
		{"clarity", Signed, `DECODERS.put("X", new IntVarSignedDecoder());`},
		{"clarity", Float, `FACTORIES.put("X", new FloatDecoderFactory());`},
		{"clarity", Vector3, `FACTORIES.put("X", new VectorDecoderFactory(3));`},
		{"clarity", Fixed8, `DECODERS.put("X", new IntUnsignedDecoder(8));`},
		{"demoparser2", Signed, `"X" => SignedDecoder,`},
		{"demoparser2", Float, `"X" => self.find_float_decoder(qf_map),`},
		{"demoparser2", Vector3, `"X" => self.find_vector_type(3, qf_map),`},
		{"demoparser2", Unsigned64, `"X" => self.find_uint_decoder(),`},
		{"haste", Signed, `"X" => non_special!(I64Decoder),`},
		{"demofile-net", Signed, `case "X": decoder = (Unit _, ReadOnlySpan<int> _, ref BitBuffer buffer) => buffer.ReadVarInt32(); return true;`},
		{"demofile-net", Float, `case "X": { var read = FieldDecode.CreateDecoder_float(encodingInfo); decoder = (Unit _, ReadOnlySpan<int> _, ref BitBuffer buffer) => read(ref buffer); return true; }`},
		{"haste", Float, `"X" => non_special!(F32Decoder::new(field)?),`},
		{"haste", Unsigned64, `"X" => non_special!(U64Decoder::new(field)),`},
	} {
		m := ByID(c.model)
		if m == nil {
			t.Errorf("no model %q", c.model)
			continue
		}
		fx, ok := m.FixFor("X", c.kind)
		if !ok || fx.Entry != c.want {
			t.Errorf("%s FixFor(X, %v) = %q, %v; want %q", c.model, c.kind, fx.Entry, ok, c.want)
		}
	}
}

// NoFixWhy says why no table line mends a read, and nothing where one
// does: a parser whose tables go by type is asked of a field, a kind no
// decoder of it reads, and a kind it has a line for.
func TestNoFixWhy(t *testing.T) {
	for _, c := range []struct {
		model string
		field bool
		kind  Kind
		want  string // "" when a line fixes it
	}{
		{"clarity", true, MinusOne, "none by field name"},
		{"haste", true, MinusOne, "none by field name"},
		{"demoinfocs-golang", true, MinusOne, ""},
		{"demoinfocs-golang", false, Signed, ""},
		{"clarity", false, Signed, ""},
	} {
		m := ByID(c.model)
		if m == nil {
			t.Fatalf("no model %q", c.model)
		}
		got := m.NoFixWhy("X", c.field, c.kind)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s NoFixWhy(X, field %v, %v) = %q, want %q", c.model, c.field, c.kind, got, c.want)
		}
	}
	// A kind no decoder of the model reads: found, not assumed.
	for _, m := range All() {
		for k := Kind(1); k < kindCount; k++ {
			if _, ok := m.symbols[k]; !ok && m.entry != nil {
				if got := m.NoFixWhy("X", false, k); !strings.Contains(got, "no decoder of its reads it as "+k.String()) {
					t.Errorf("%s NoFixWhy(X, %v) = %q", m.ID, k, got)
				}
				return
			}
		}
	}
	t.Error("every model reads every kind: the no-decoder reason went untested")
}
