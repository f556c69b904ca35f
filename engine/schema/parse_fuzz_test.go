package schema

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/internal/testreplays"
	"github.com/dembug/dembug/sample"
)

// serializerOf returns the CSVCMsg_FlattenedSerializer body of a demo file.
func serializerOf(data []byte) []byte {
	cr, err := container.NewReader(data)
	if err != nil {
		return nil
	}
	for {
		c, err := cr.Next()
		if err != nil {
			return nil
		}
		if c.Kind == container.SendTables {
			d, err := messages.SendTablesData(c.Body)
			if err != nil {
				return nil
			}
			return bytes.Clone(d)
		}
	}
}

// realSerializers returns the built-in sample's serializer and that of the
// first shared replay of each game (when the folder is present).
func realSerializers() map[string][]byte {
	out := map[string][]byte{"sample": serializerOf(sample.Replay)}
	dir := testreplays.Dir()
	if dir == "" {
		return out
	}
	for _, g := range []string{"dota2", "cs2", "deadlock"} {
		files, _ := filepath.Glob(filepath.Join(dir, g, "*.dem"))
		if len(files) == 0 {
			continue
		}
		if data, err := os.ReadFile(files[0]); err == nil {
			if s := serializerOf(data); s != nil {
				out[g] = s
			}
		}
	}
	return out
}

// parseLimit is far above any real parse (the Dota 2 schema parses in
// about 15 ms): a parse slower than this is treated as a hang.
const parseLimit = 5 * time.Second

// checkSchema parses b and checks what a successful parse promises to the
// entity decoder: every field linked and given a decoder, nesting within
// maxNesting, array bounds within MaxArrayCount, and the polymorphism query
// answering quickly.
func checkSchema(t *testing.T, b []byte, g game.Game) {
	t.Helper()
	start := time.Now()
	s, err := Parse(b, g)
	if d := time.Since(start); d > parseLimit {
		t.Fatalf("parse took %v for %d bytes", d, len(b))
	}
	if err != nil {
		return
	}
	for _, ser := range s.Serializers {
		if h := ser.Hot(); len(h) != len(ser.Fields) {
			t.Fatalf("serializer %s: %d hot entries for %d fields", ser.Name, len(h), len(ser.Fields))
		}
		for i, f := range ser.Fields {
			if f == nil {
				t.Fatalf("serializer %s: field %d is nil", ser.Name, i)
			}
			switch f.Model {
			case Simple, FixedArray, VariableArray:
				if f.Decoder == nil {
					t.Fatalf("field %s has no decoder", f.Name)
				}
			case FixedTable, VariableTable:
				if f.Serializer == nil || f.Decoder == nil {
					t.Fatalf("table field %s without serializer or decoder", f.Name)
				}
			}
			if f.Model == VariableArray && f.Elem == nil {
				t.Fatalf("variable array %s without an element decoder", f.Name)
			}
			if f.Model == FixedArray && (f.Type.Count <= 0 || f.Type.Count > MaxArrayCount) {
				t.Fatalf("fixed array %s of %d", f.Name, f.Type.Count)
			}
		}
	}
	if err := checkNesting(s.Serializers); err != nil {
		t.Fatalf("accepted schema fails the nesting check: %v", err)
	}
	start = time.Now()
	for _, ser := range s.Serializers {
		ser.HasPolymorphic()
	}
	if d := time.Since(start); d > parseLimit {
		t.Fatalf("HasPolymorphic took %v", d)
	}
}

// FuzzParse parses arbitrary bytes as a flattened-serializer message,
// seeded with the real ones, for every game's decoder choice.
func FuzzParse(f *testing.F) {
	for _, b := range realSerializers() {
		f.Add(b, uint8(game.Dota2))
	}
	f.Add([]byte{0x12, 0x01, 'a', 0x1a, 0x04, 0x08, 0x00, 0x10, 0x00, 0x0a, 0x06, 0x08, 0x00, 0x1a, 0x02, 0x00, 0x00}, uint8(game.CS2))
	f.Fuzz(func(t *testing.T, b []byte, g uint8) {
		checkSchema(t, b, game.Game(g%4))
	})
}

// FuzzParseDota2Mutated applies arbitrary edits to the real Dota 2
// CSVCMsg_FlattenedSerializer and parses the result: the edits stay close to
// a valid schema, so they reach the linking, nesting and decoder choice
// that random bytes rarely get past the wire format to. Each edit is 4
// bytes: a 24-bit position (modulo the length), then an action byte whose
// low 2 bits pick xor, set, delete (a run of up to 64 bytes) or insert.
func FuzzParseDota2Mutated(f *testing.F) {
	real := realSerializers()["dota2"]
	if real == nil {
		f.Skip("the Dota 2 replay is not in the shared folder")
	}
	edit := func(pos uint32, action byte) []byte {
		b := binary.LittleEndian.AppendUint32(nil, pos)
		b[3] = action
		return b
	}
	f.Add([]byte{})
	f.Add(edit(100, 0x10))
	f.Add(edit(5000, 0xfd))
	f.Add(append(edit(200000, 0x42), edit(300, 0x83)...))
	f.Fuzz(func(t *testing.T, edits []byte) {
		if len(edits) > 64 {
			edits = edits[:64]
		}
		b := bytes.Clone(real)
		for ; len(edits) >= 4 && len(b) > 0; edits = edits[4:] {
			pos := int(binary.LittleEndian.Uint32(edits) & 0xffffff % uint32(len(b)))
			action := edits[3]
			switch action & 3 {
			case 0:
				b[pos] ^= action | 1
			case 1:
				b[pos] = action >> 2
			case 2:
				n := min(int(action>>2)+1, len(b)-pos)
				b = append(b[:pos], b[pos+n:]...)
			case 3:
				b = append(b[:pos], append([]byte{action >> 2}, b[pos:]...)...)
			}
		}
		checkSchema(t, b, game.Dota2)
	})
}
