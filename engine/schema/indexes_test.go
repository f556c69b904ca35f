package schema

import (
	"slices"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"pgregory.net/rapid"

	"github.com/dembug/dembug/engine/wiretree"
)

// walkIndexes is what rawSerializer.walk reads from a serializer message.
func walkIndexes(msg []byte) (name, version int32, idx []int32, err error) {
	rs := rawSerializer{msg: msg}
	err = rs.walk(func(i int32) { idx = append(idx, i) })
	return rs.nameSym, rs.version, idx, err
}

// checkFastIndexes holds checkIndexes and fillIndexes to the general walk
// on msg, whenever checkIndexes accepts it, with every third field naming
// a nested serializer.
func checkFastIndexes(t interface {
	Fatalf(string, ...any)
}, msg []byte, nFields int) bool {
	hasSer := make([]bool, nFields)
	for i := range hasSer {
		hasSer[i] = i%3 == 1
	}
	prior := []nestEdge{{7, 7}} // edges of serializers before: kept
	name, version, count, edges, cbad, ok := checkIndexes(msg, hasSer, prior)
	if !ok {
		if !slices.Equal(edges, prior) {
			t.Fatalf("declined, but edges %v, not %v", edges, prior)
		}
		return false
	}
	wname, wversion, widx, err := walkIndexes(msg)
	if err != nil {
		t.Fatalf("checkIndexes accepted a message the walk refuses: %v", err)
	}
	if name != wname || version != wversion || count != len(widx) {
		t.Fatalf("check: name %d version %d count %d; walk: %d %d %d", name, version, count, wname, wversion, len(widx))
	}
	fields := make([]*Field, nFields)
	for i := range fields {
		fields[i] = &Field{id: int32(i)}
	}
	got, bad := fillIndexes(msg, fields, nil, nil)
	var want []int32
	wantEdges := slices.Clone(prior)
	wbad := int32(-1)
	for _, i := range widx {
		if i < 0 || int(i) >= nFields {
			wbad = i
			continue
		}
		if hasSer[i] {
			wantEdges = append(wantEdges, nestEdge{int32(len(want)), i})
		}
		want = append(want, i)
	}
	ids := make([]int32, len(got))
	for i, f := range got {
		ids[i] = f.id
	}
	if bad != wbad || cbad != wbad || !slices.Equal(ids, want) {
		t.Fatalf("fill: %v (bad %d, check's %d); walk: %v (bad %d)", ids, bad, cbad, want, wbad)
	}
	if !slices.Equal(edges, wantEdges) {
		t.Fatalf("edges %v; walk's %v", edges, wantEdges)
	}
	return true
}

// Every real serializer takes the fast path and reads as the walk does.
func TestFastIndexesReadRealSchemas(t *testing.T) {
	for name, b := range realSerializers() {
		if b == nil {
			continue
		}
		n := 0
		for c := wiretree.NewCursor(b); c.Next(); {
			if c.Num == 1 {
				if !checkFastIndexes(t, c.Data, 4096) {
					t.Fatalf("%s: a serializer at byte %d is not of the usual shape", name, c.Offset())
				}
				n++
			}
		}
		if n == 0 {
			t.Fatalf("%s: no serializers", name)
		}
	}
}

// Any message: the fast path either declines it or reads what the walk
// reads (long and truncated varints, packed indexes, other fields, indexes
// out of range).
func TestFastIndexesMatchWalk(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var msg []byte
		for range rapid.IntRange(0, 40).Draw(t, "fields") {
			v := rapid.OneOf(rapid.Uint64Range(0, 300), rapid.Uint64Range(0, 1<<20), rapid.Uint64()).Draw(t, "v")
			switch rapid.IntRange(0, 9).Draw(t, "kind") {
			case 0:
				msg = protowire.AppendTag(msg, 1, protowire.VarintType)
				msg = protowire.AppendVarint(msg, v)
			case 1:
				msg = protowire.AppendTag(msg, 2, protowire.VarintType)
				msg = protowire.AppendVarint(msg, v)
			case 2:
				msg = protowire.AppendTag(msg, 3, protowire.BytesType)
				msg = protowire.AppendBytes(msg, protowire.AppendVarint(protowire.AppendVarint(nil, v), v/3))
			case 3:
				msg = protowire.AppendTag(msg, 4, protowire.VarintType)
				msg = protowire.AppendVarint(msg, v)
			case 4:
				msg = append(msg, byte(rapid.IntRange(0, 255).Draw(t, "junk")))
			default:
				msg = protowire.AppendTag(msg, 3, protowire.VarintType)
				msg = protowire.AppendVarint(msg, v)
			}
		}
		checkFastIndexes(t, msg, rapid.IntRange(0, 2000).Draw(t, "fields"))
	})
}

// countTop counts what the cursor counts, or declines: on messages of
// serializers, symbols and fields with lengths of every size, other fields
// among them, and cut anywhere.
func TestCountTopAgreesWithCursor(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var b []byte
		for range rapid.IntRange(0, 12).Draw(rt, "fields") {
			num := protowire.Number(rapid.SampledFrom([]int{1, 2, 3, 3, 4, 20}).Draw(rt, "num"))
			if rapid.IntRange(0, 9).Draw(rt, "varint") == 0 {
				b = protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), 5)
				continue
			}
			b = protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), make([]byte, rapid.SampledFrom([]int{0, 1, 127, 128, 200, 16384}).Draw(rt, "len")))
		}
		b = b[:rapid.IntRange(0, len(b)).Draw(rt, "cut")]
		nSer, nSym, nField, symBytes, ok := countTop(b)
		var wSer, wSym, wField, wBytes int
		c := wiretree.NewCursor(b)
		for c.Step() {
			switch c.Num {
			case 1:
				wSer++
			case 2:
				wSym++
				wBytes += len(c.Bytes())
			case 3:
				wField++
			}
		}
		if ok && (c.Err() != nil || nSer != wSer || nSym != wSym || nField != wField || symBytes != wBytes) {
			rt.Fatalf("counted %d %d %d %d, the cursor %d %d %d %d (%v)", nSer, nSym, nField, symBytes, wSer, wSym, wField, wBytes, c.Err())
		}
		if !ok && (nSer|nSym|nField|symBytes) != 0 {
			rt.Fatalf("declined with counts %d %d %d %d", nSer, nSym, nField, symBytes)
		}
	})
}
