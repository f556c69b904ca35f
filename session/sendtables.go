package session

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/dembug/dembug/engine/messages"
)

// SendTables is a DEM_SendTables body read as the schema it carries
// (CSVCMsg_FlattenedSerializer), for the wire tree: every serializer with
// its symbols resolved and where it stands in the body. A field is read
// only when asked for (Field): a schema of 1,600 serializers costs one scan.
type SendTables struct {
	body []byte
	// DataOffset is where field 1 (data) starts in the body (its tag),
	// DataLen its bytes with the tag; Size is the varint size before the
	// CSVCMsg_FlattenedSerializer, which starts at body byte Start.
	DataOffset, DataLen, Size, Start int
	Serializers                      []STSerializer
	Symbols                          []string
	fields                           []span // each field message's bytes in the body
}

type span struct{ off, len, data int } // tag offset, bytes with the tag, offset of the payload

// STSerializer is one ProtoFlattenedSerializer_t.
type STSerializer struct {
	Offset, Len int // in the body, tag included
	Name        string
	Version     int32
	Fields      []int32 // indexes into the schema's fields (Field)
}

// STField is one ProtoFlattenedSerializerField_t with its symbols resolved.
type STField struct {
	Offset, Len                     int // in the body, tag included
	VarName, VarType, Encoder       string
	FieldSerializer, SendNode       string
	FieldSerializerVersion          int32
	BitCount, EncodeFlags           int32
	BitCountSet, FlagsSet           bool
	Low, High                       float32
	LowSet, HighSet, FieldSerVerSet bool
	Polymorphic                     int
}

// NumFields is the number of field messages in the schema.
func (st *SendTables) NumFields() int { return len(st.fields) }

// ParseSendTables scans a DEM_SendTables body: the serializers and the
// symbols are read, each field's place noted.
func ParseSendTables(body []byte) (*SendTables, error) {
	off, size, ok, err := messages.DataOffset(body, 1)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("no data field")
	}
	st := &SendTables{body: body}
	// The tag of field 1 is one byte (0x0a) then the length varint.
	st.DataOffset = off - protowire.SizeVarint(uint64(size)) - 1
	st.DataLen = off + size - st.DataOffset
	data := body[off : off+size]
	n, k := protowire.ConsumeVarint(data)
	if k < 0 || int(n) > len(data)-k {
		return st, fmt.Errorf("data: the size varint %d does not fit its %d bytes", n, len(data))
	}
	st.Size, st.Start = int(n), off+k
	fs := body[st.Start : st.Start+int(n)]
	type rawSer struct {
		at, ln int
		name   int32
		ver    int32
		fields []int32
	}
	var sers []rawSer
	for pos := 0; pos < len(fs); {
		num, typ, tn := protowire.ConsumeTag(fs[pos:])
		if tn < 0 {
			return st, fmt.Errorf("byte %d: %w", st.Start+pos, protowire.ParseError(tn))
		}
		vn := protowire.ConsumeFieldValue(num, typ, fs[pos+tn:])
		if vn < 0 {
			return st, fmt.Errorf("byte %d: field %d: %w", st.Start+pos, num, protowire.ParseError(vn))
		}
		if typ == protowire.BytesType {
			d, ln := protowire.ConsumeBytes(fs[pos+tn:])
			at := st.Start + pos
			switch num {
			case 1:
				rs := rawSer{at: at, ln: tn + vn, name: -1}
				readMsg(d, func(num protowire.Number, typ protowire.Type, v uint64, b []byte) {
					switch {
					case num == 1 && typ == protowire.VarintType:
						rs.name = int32(v)
					case num == 2 && typ == protowire.VarintType:
						rs.ver = int32(v)
					case num == 3 && typ == protowire.VarintType:
						rs.fields = append(rs.fields, int32(v))
					case num == 3 && typ == protowire.BytesType:
						for len(b) > 0 {
							x, k := protowire.ConsumeVarint(b)
							if k < 0 {
								break
							}
							rs.fields = append(rs.fields, int32(x))
							b = b[k:]
						}
					}
				})
				sers = append(sers, rs)
			case 2:
				st.Symbols = append(st.Symbols, string(d))
			case 3:
				st.fields = append(st.fields, span{off: at, len: tn + vn, data: at + tn + ln - len(d)})
			}
		}
		pos += tn + vn
	}
	for _, rs := range sers {
		st.Serializers = append(st.Serializers, STSerializer{Offset: rs.at, Len: rs.ln, Name: st.sym(rs.name), Version: rs.ver, Fields: rs.fields})
	}
	return st, nil
}

func (st *SendTables) sym(i int32) string {
	if i < 0 || int(i) >= len(st.Symbols) {
		return fmt.Sprintf("symbol %d?", i)
	}
	return st.Symbols[i]
}

// readMsg calls fn with each field of a protobuf message (no error: a
// malformed tail ends the walk).
func readMsg(b []byte, fn func(num protowire.Number, typ protowire.Type, v uint64, data []byte)) {
	for len(b) > 0 {
		num, typ, tn := protowire.ConsumeTag(b)
		if tn < 0 {
			return
		}
		vn := protowire.ConsumeFieldValue(num, typ, b[tn:])
		if vn < 0 {
			return
		}
		var v uint64
		var d []byte
		switch typ {
		case protowire.VarintType:
			v, _ = protowire.ConsumeVarint(b[tn:])
		case protowire.Fixed32Type:
			x, _ := protowire.ConsumeFixed32(b[tn:])
			v = uint64(x)
		case protowire.Fixed64Type:
			v, _ = protowire.ConsumeFixed64(b[tn:])
		case protowire.BytesType:
			d, _ = protowire.ConsumeBytes(b[tn:])
		}
		fn(num, typ, v, d)
		b = b[tn+vn:]
	}
}

// Field reads field i of the schema (an index a serializer lists).
func (st *SendTables) Field(i int32) (STField, bool) {
	if i < 0 || int(i) >= len(st.fields) {
		return STField{}, false
	}
	sp := st.fields[i]
	f := STField{Offset: sp.off, Len: sp.len}
	readMsg(st.body[sp.data:sp.off+sp.len], func(num protowire.Number, typ protowire.Type, v uint64, _ []byte) {
		switch num {
		case 1:
			f.VarType = st.sym(int32(v))
		case 2:
			f.VarName = st.sym(int32(v))
		case 3:
			f.BitCount, f.BitCountSet = int32(v), true
		case 4:
			f.Low, f.LowSet = math.Float32frombits(uint32(v)), true
		case 5:
			f.High, f.HighSet = math.Float32frombits(uint32(v)), true
		case 6:
			f.EncodeFlags, f.FlagsSet = int32(v), true
		case 7:
			f.FieldSerializer = st.sym(int32(v))
		case 8:
			f.FieldSerializerVersion, f.FieldSerVerSet = int32(v), true
		case 9:
			f.SendNode = st.sym(int32(v))
		case 10:
			f.Encoder = st.sym(int32(v))
		case 11:
			f.Polymorphic++
		}
	})
	return f, true
}
