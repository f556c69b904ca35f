package schema

// A ProtoFlattenedSerializer_t as Valve writes it: its name symbol (field
// 1), its version (field 2) and each field index (field 3) as a varint of
// its own, hundreds of them. checkIndexes and fillIndexes read exactly that
// shape in plain loops, with no call per index; a message of any other
// shape (packed indexes, other fields, wire types or long varints) is left
// to rawSerializer.walk, which reads every shape the wire format allows.

// Tags of the three fields as varints.
const (
	tagName    = 1<<3 | 0
	tagVersion = 2<<3 | 0
	tagIndex   = 3<<3 | 0
)

// shortVarint reads a varint of at most 5 bytes at b[i:], as the schema's
// int32 fields are written, returning the index after it; ok is false for
// a longer or truncated one.
func shortVarint(b []byte, i int) (v uint64, next int, ok bool) {
	for shift := uint(0); shift < 35; shift += 7 {
		if i >= len(b) {
			return 0, 0, false
		}
		x := b[i]
		i++
		v |= uint64(x&0x7f) << shift
		if x < 0x80 {
			return v, i, true
		}
	}
	return 0, 0, false
}

// fillIndexes appends the field each index of a message checkIndexes
// accepted names, calling build for one not built yet (nil in fields).
// bad is the last index outside fields, or -1.
func fillIndexes(msg []byte, fields, all []*Field, build func(int32) *Field) (out []*Field, bad int32) {
	bad = -1
	i := 0
	for i < len(msg) {
		for i+2 < len(msg) && msg[i] == tagIndex {
			var fi int
			if b := msg[i+1]; b < 0x80 {
				fi, i = int(b), i+2
			} else if c := msg[i+2]; c < 0x80 {
				fi, i = int(b&0x7f)|int(c)<<7, i+3
			} else {
				break
			}
			if fi >= len(fields) {
				bad = int32(fi)
				continue
			}
			f := fields[fi]
			if f == nil {
				f = build(int32(fi))
			}
			all = append(all, f)
		}
		if i >= len(msg) {
			break
		}
		tag := msg[i]
		v, next, ok := shortVarint(msg, i+1)
		if !ok {
			break // checkIndexes read it already: never
		}
		i = next
		if tag != tagIndex {
			continue
		}
		fi := int32(v)
		if fi < 0 || int(fi) >= len(fields) {
			bad = fi
			continue
		}
		f := fields[fi]
		if f == nil {
			f = build(fi)
		}
		all = append(all, f)
	}
	return all, bad
}

// nestEdge is a field index of a serializer naming a field of a nested
// serializer: its position in the serializer's list and the field.
type nestEdge struct{ pos, field int32 }

// checkIndexes reads a serializer message of the usual shape in one pass:
// its name symbol and version (the last of each, as protobuf merges), how
// many field indexes it lists, and, checked against the fields (hasSer:
// whether each names a nested serializer), an edge appended for each index
// of a nested one. bad is the last index outside the fields, or -1. ok is
// false for any other shape; edges are then as they were.
func checkIndexes(msg []byte, hasSer []bool, edges []nestEdge) (nameSym, version int32, count int, out []nestEdge, bad int32, ok bool) {
	bad = -1
	n0 := len(edges)
	pos := int32(0) // position among the indexes in range
	n := 0          // indexes read
	i := 0
	for i < len(msg) {
		// A run of indexes below 16,384 (all of a real schema's): each is
		// a tag and one or two bytes. The run is read on locals, three
		// bytes looked at through one bounds check.
		for i+2 < len(msg) {
			w := msg[i : i+3 : i+3]
			if w[0] != tagIndex {
				break
			}
			fi := int(w[1])
			if fi < 0x80 {
				i += 2
			} else if w[2] < 0x80 {
				fi, i = fi&0x7f|int(w[2])<<7, i+3
			} else {
				break
			}
			n++
			if uint(fi) >= uint(len(hasSer)) {
				bad = int32(fi)
				continue
			}
			if hasSer[fi] {
				edges = append(edges, nestEdge{pos, int32(fi)})
			}
			pos++
		}
		if i >= len(msg) {
			break
		}
		tag := msg[i]
		var v uint64
		if v, i, ok = shortVarint(msg, i+1); !ok {
			return 0, 0, 0, edges[:n0], -1, false
		}
		switch tag {
		case tagIndex:
			n++
			fi := int32(v)
			if fi < 0 || int(fi) >= len(hasSer) {
				bad = fi
				continue
			}
			if hasSer[fi] {
				edges = append(edges, nestEdge{pos, fi})
			}
			pos++
		case tagName:
			nameSym = int32(v)
		case tagVersion:
			version = int32(v)
		default:
			return 0, 0, 0, edges[:n0], -1, false
		}
	}
	return nameSym, version, n, edges, bad, true
}
