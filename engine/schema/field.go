package schema

// fieldBlock is how many fields are allocated together: a replay builds a
// few hundred to a thousand, each some 400 bytes.
const fieldBlock = 64

// field returns field i, building it on first use: its names, type and
// settings from the message, the nested serializers the parse resolved,
// then the corrections and the decoder choice every field gets. Under
// p.mu.
func (p *pending) field(i int32) *Field {
	if f := p.fields[i]; f != nil {
		return f
	}
	if len(p.block) == 0 {
		p.block = p.store.block(p.blocks)
		p.blocks++
	}
	f := &p.block[0]
	p.block = p.block[1:]
	rf := &p.raws[i]
	f.Name, f.VarType = p.symbols[rf.nameSym], p.symbols[rf.typeSym]
	f.Encoder, f.SendNode, f.VarSerializer = p.symbol(rf.encoderSym), p.symbol(rf.sendNodeSym), p.symbol(rf.varSerSym)
	f.BitCount, f.BitCountSet = rf.bitCount, rf.bitCountSet
	f.Low, f.LowSet, f.High, f.HighSet = rf.low, rf.lowSet, rf.high, rf.highSet
	f.EncodeFlags = rf.flags
	f.SerializerVersion = rf.serVersion
	f.Type = p.varType(rf.typeSym)
	f.id = i
	s := p.schema
	if rf.hasSerName {
		f.SerializerName = p.symbols[rf.serNameSym]
		f.Serializer = s.Serializers[rf.ser]
		if len(rf.polySers) > 0 {
			f.Polymorphic = make([]*Serializer, 0, len(rf.polySers)+1)
			f.Polymorphic = append(f.Polymorphic, f.Serializer)
			for _, id := range rf.polySers {
				f.Polymorphic = append(f.Polymorphic, s.Serializers[id])
			}
		}
	}
	applyAliases(f, s.Aliases)
	applyCorrection(f, s.Game, s.Aliases.Seed)
	patchField(f, s.Game)
	chooseModelIn(f, s.Game, p.memo)
	setTickInterval(f, s.TickInterval)
	markUnknown(f, s.Game)
	p.watch(f)
	p.fields[i] = f
	if p.built++; p.built == len(p.fields) {
		// Every field is built: what building them needs can go (a
		// crafted schema's tens of thousands of raw fields).
		p.raws, p.symbols, p.block, p.types, p.memo = nil, nil, nil, nil, nil
		p.store.raws, p.store.symbols, p.store.types, p.store.memo = nil, nil, nil, nil
	}
	return f
}

// varType is symbol i parsed as a var_type, each parsed once. Under p.mu.
func (p *pending) varType(i int32) VarType {
	s := p.symbols[i]
	t, ok := p.types[s]
	if !ok {
		t = ParseVarType(s)
		p.types[s] = t
	}
	return t
}

// symbol is symbol i, or "" for an optional one the field does not set
// (or sets out of range, as the parse has always read it).
func (p *pending) symbol(i int32) string {
	if i < 0 || int(i) >= len(p.symbols) {
		return ""
	}
	return p.symbols[i]
}
