package interop

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/schema"
)

// Op is one entity update as a parser reported it.
type Op struct {
	Tick  int32
	Index int32
	Op    provenance.Op
}

func (o Op) String() string { return fmt.Sprintf("tick %d entity %d %s", o.Tick, o.Index, o.Op) }

// Value is one field of a live entity.
type Value struct {
	Field *schema.Field
	V     decoder.Value
}

// Live is one entity dembug holds at the end.
type Live struct {
	Class  string
	Serial uint32
	Fields map[string]Value // by Manta-style name (entity.Walk)
	Order  []string         // names in walk order
	// Poly: the class reaches a polymorphic pointer.
	Poly bool
}

// Reading is what dembug read from a file: the oracle's expectations.
type Reading struct {
	LastTick int32
	NetTick  uint32
	Ops      []Op
	Live     map[int32]Live
	// listed are the entities the deletion lists removed (no update
	// command names them).
	Listed []int32
	Fields int // field values read
}

// ReadDembug decodes data to its end, recording every update.
func ReadDembug(t testing.TB, data []byte) Reading {
	t.Helper()
	r, err := openAsParsersRead(data)
	if err != nil {
		t.Fatal(err)
	}
	out := Reading{Live: map[int32]Live{}}
	rec := &provenance.Message{}
	exists := map[int32]bool{}
	r.Hooks.Record = func(replay.Location) *provenance.Message { return rec }
	r.Hooks.Entities = func(loc replay.Location, _ *messages.PacketEntities, _ entity.Result, m *provenance.Message) {
		if m == nil {
			t.Fatalf("tick %d: no record", loc.Tick)
		}
		if m.Err != nil {
			t.Fatalf("dembug, tick %d: %v", loc.Tick, m.Err)
		}
		out.Fields += len(m.Fields)
		for _, u := range m.Updates {
			out.Ops = append(out.Ops, Op{loc.Tick, u.Index, u.Op})
			switch u.Op {
			case provenance.Create:
				exists[u.Index] = true
			case provenance.Delete:
				delete(exists, u.Index)
			}
		}
		for idx := range exists {
			if r.Entities.Entities[idx] == nil {
				out.Listed = append(out.Listed, idx)
				delete(exists, idx)
			}
		}
	}
	if err := r.Run(nil); err != nil {
		t.Fatalf("dembug: %v", err)
	}
	if !r.Done || r.Stats.Misaligned != 0 {
		t.Fatalf("dembug: done %v, %d misaligned", r.Done, r.Stats.Misaligned)
	}
	out.LastTick, out.NetTick = r.Stats.LastTick, r.NetTick
	slices.Sort(out.Listed)
	for idx, e := range r.Entities.Entities {
		if e == nil {
			continue
		}
		l := Live{Class: e.Class.Name, Serial: e.Serial, Fields: map[string]Value{}, Poly: e.Class.Serializer.HasPolymorphic()}
		entity.Walk(e.Class.Serializer, e.State, func(name string, f *schema.Field, v decoder.Value) {
			l.Fields[name] = Value{f, v}
			l.Order = append(l.Order, name)
		})
		out.Live[int32(idx)] = l
	}
	return out
}

// IsLength tells a variable array's or table's length, or a pointer's
// presence, from the values entity.Walk gives: parsers hold these as
// containers, not values.
func IsLength(name string, f *schema.Field) bool {
	switch f.Model {
	case schema.VariableArray, schema.VariableTable, schema.FixedTable:
		return len(name) >= len(f.Name) && name[len(name)-len(f.Name):] == f.Name
	}
	return false
}

// PastLength reports whether name is an element of a variable array or
// table at or past its length: after a shrink, the engine and other
// parsers keep the old elements, but entity.Walk stops at the length.
func (l Live) PastLength(name string) bool {
	parts := strings.Split(name, ".")
	for i := len(parts) - 1; i > 0; i-- {
		k, err := strconv.Atoi(parts[i])
		if err != nil {
			continue
		}
		n, ok := l.Fields[strings.Join(parts[:i], ".")]
		if ok && IsLength(strings.Join(parts[:i], "."), n.Field) && uint64(k) >= n.V.U {
			return true
		}
	}
	return false
}

// Same reports whether a value another parser holds (bool, uint32,
// uint64, int32, int64, float32, []float32 or string) is dembug's v.
// Floats compare as float32s (NaNs equal too).
func Same(v decoder.Value, got any) bool {
	switch v.Kind {
	case decoder.KindBool:
		b, ok := got.(bool)
		return ok && b == (v.U != 0)
	case decoder.KindUint, decoder.KindHandle:
		switch g := got.(type) {
		case uint32:
			return uint64(g) == v.U
		case uint64:
			return g == v.U
		}
	case decoder.KindInt:
		switch g := got.(type) {
		case int32:
			return int64(g) == v.Int64()
		case int64:
			return g == v.Int64()
		}
	case decoder.KindFloat:
		g, ok := got.(float32)
		return ok && sameFloat(g, v.F[0])
	case decoder.KindVector:
		g, ok := got.([]float32)
		if !ok || len(g) != int(v.N) {
			return false
		}
		for i := range g {
			if !sameFloat(g[i], v.F[i]) {
				return false
			}
		}
		return true
	case decoder.KindString:
		g, ok := got.(string)
		return ok && g == v.Str()
	}
	return false
}

func sameFloat(g float32, w float64) bool {
	if math.IsNaN(float64(g)) && math.IsNaN(w) {
		return true
	}
	return g == float32(w)
}

// Mismatch describes a value that differs.
func Mismatch(parser string, w Value, got any) string {
	return fmt.Sprintf("%s %v (%T), dembug %v", parser, got, got, w.V)
}

// openAsParsersRead opens data to be decoded by the seed's tables alone
// (--decoders seed): what Manta and demoinfocs read, so that a value they
// read doubled (a tick, a player id) is dembug's value too.
func openAsParsersRead(data []byte) (*replay.Replay, error) {
	r, err := replay.Open(data)
	if err != nil {
		return nil, err
	}
	r.Aliases = schema.Aliases{Seed: true}
	return r, nil
}
