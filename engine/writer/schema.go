package writer

// FieldSpec is one ProtoFlattenedSerializerField_t. Build it with Field and
// the With methods; unset optional values are left out of the message, as
// the schema distinguishes "no bit count" from 0 and "no low value" from 0.
type FieldSpec struct {
	Name, Type        string
	Encoder           string
	SendNode          string
	VarSerializer     string
	BitCount          int32
	HasBitCount       bool
	Low, High         float32
	HasLow, HasHigh   bool
	Flags             int32
	Serializer        string // nested serializer (pointers, tables)
	SerializerVersion int32
	Polymorphic       []SerializerRef // alternatives of a polymorphic pointer
}

// SerializerRef names a serializer version.
type SerializerRef struct {
	Name    string
	Version int32
}

// Field starts a field spec: var_name and var_type.
func Field(name, varType string) FieldSpec { return FieldSpec{Name: name, Type: varType} }

// WithBits sets bit_count.
func (f FieldSpec) WithBits(n int32) FieldSpec { f.BitCount, f.HasBitCount = n, true; return f }

// WithRange sets low_value and high_value.
func (f FieldSpec) WithRange(low, high float32) FieldSpec {
	f.Low, f.High, f.HasLow, f.HasHigh = low, high, true, true
	return f
}

// WithHigh sets high_value only (low stays unset, which means 0).
func (f FieldSpec) WithHigh(high float32) FieldSpec { f.High, f.HasHigh = high, true; return f }

// WithFlags sets encode_flags.
func (f FieldSpec) WithFlags(flags int32) FieldSpec { f.Flags = flags; return f }

// WithEncoder sets var_encoder.
func (f FieldSpec) WithEncoder(e string) FieldSpec { f.Encoder = e; return f }

// WithVarSerializer sets var_serializer.
func (f FieldSpec) WithVarSerializer(s string) FieldSpec { f.VarSerializer = s; return f }

// WithSerializer sets the nested serializer and its version.
func (f FieldSpec) WithSerializer(name string, version int32) FieldSpec {
	f.Serializer, f.SerializerVersion = name, version
	return f
}

// WithPolymorphic lists a polymorphic pointer's alternatives (besides the
// serializer set with WithSerializer).
func (f FieldSpec) WithPolymorphic(alts ...SerializerRef) FieldSpec {
	f.Polymorphic = append([]SerializerRef(nil), alts...)
	return f
}

// SerializerSpec is one ProtoFlattenedSerializer_t: a class's (or nested
// type's) ordered fields.
type SerializerSpec struct {
	Name    string
	Version int32
	Fields  []FieldSpec
}

// FlattenedSerializer builds CSVCMsg_FlattenedSerializer: serializers,
// the symbol table and the field table. Symbols and identical fields are
// shared, in order of first use, as Valve's message shares them.
func FlattenedSerializer(sers []SerializerSpec) []byte {
	var symbols []string
	symIndex := map[string]int32{}
	sym := func(s string) uint64 {
		if i, ok := symIndex[s]; ok {
			return uint64(i)
		}
		i := int32(len(symbols))
		symbols = append(symbols, s)
		symIndex[s] = i
		return uint64(i)
	}
	var fields [][]byte
	fieldIndex := map[string]int32{}
	var serMsgs [][]byte
	for _, s := range sers {
		var sm pb
		sm.varint(1, sym(s.Name))
		sm.int32(2, s.Version)
		for _, f := range s.Fields {
			fb := fieldMessage(f, sym)
			i, ok := fieldIndex[string(fb)]
			if !ok {
				i = int32(len(fields))
				fields = append(fields, fb)
				fieldIndex[string(fb)] = i
			}
			sm.int32(3, i)
		}
		serMsgs = append(serMsgs, sm.b)
	}
	var m pb
	for _, s := range serMsgs {
		m.bytes(1, s)
	}
	for _, s := range symbols {
		m.string(2, s)
	}
	for _, f := range fields {
		m.bytes(3, f)
	}
	return m.b
}

func fieldMessage(f FieldSpec, sym func(string) uint64) []byte {
	var m pb
	m.varint(1, sym(f.Type))
	m.varint(2, sym(f.Name))
	if f.HasBitCount {
		m.int32(3, f.BitCount)
	}
	if f.HasLow {
		m.float(4, f.Low)
	}
	if f.HasHigh {
		m.float(5, f.High)
	}
	if f.Flags != 0 {
		m.int32(6, f.Flags)
	}
	if f.Serializer != "" {
		m.varint(7, sym(f.Serializer))
		m.int32(8, f.SerializerVersion)
	}
	if f.SendNode != "" {
		m.varint(9, sym(f.SendNode))
	}
	if f.Encoder != "" {
		m.varint(10, sym(f.Encoder))
	}
	for _, p := range f.Polymorphic {
		var pm pb
		pm.varint(1, sym(p.Name))
		pm.int32(2, p.Version)
		m.bytes(11, pm.b)
	}
	if f.VarSerializer != "" {
		m.varint(12, sym(f.VarSerializer))
	}
	return m.b
}
