package interop

import (
	"fmt"
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

// op is one entity update as a parser reported it.
type op struct {
	tick  int32
	index int32
	op    provenance.Op
}

func (o op) String() string { return fmt.Sprintf("tick %d entity %d %s", o.tick, o.index, o.op) }

// value is one field of a live entity.
type value struct {
	field *schema.Field
	v     decoder.Value
}

// live is one entity dembug holds at the end.
type live struct {
	class  string
	serial uint32
	fields map[string]value // by Manta-style name (entity.Walk)
	order  []string         // names in walk order
}

// reading is what dembug read from a file: the oracle's expectations.
type reading struct {
	lastTick int32
	netTick  uint32
	ops      []op
	live     map[int32]live
	// listed are the entities the deletion lists removed (no update
	// command names them).
	listed []int32
	fields int // field values read
}

// readDembug decodes data to its end, recording every update.
func readDembug(t *testing.T, data []byte) reading {
	t.Helper()
	r, err := replay.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	out := reading{live: map[int32]live{}}
	rec := &provenance.Message{}
	exists := map[int32]bool{}
	r.Hooks.Record = func(replay.Location) *provenance.Message { return rec }
	r.Hooks.Entities = func(loc replay.Location, _ *messages.PacketEntities, _ entity.Result, m *provenance.Message) {
		if m == nil {
			t.Fatalf("tick %d: no record", loc.Tick)
		}
		if m.Err != "" {
			t.Fatalf("dembug, tick %d: %s", loc.Tick, m.Err)
		}
		out.fields += len(m.Fields)
		for _, u := range m.Updates {
			out.ops = append(out.ops, op{loc.Tick, u.Index, u.Op})
			switch u.Op {
			case provenance.Create:
				exists[u.Index] = true
			case provenance.Delete:
				delete(exists, u.Index)
			}
		}
		for idx := range exists {
			if r.Entities.Entities[idx] == nil {
				out.listed = append(out.listed, idx)
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
	out.lastTick, out.netTick = r.Stats.LastTick, r.NetTick
	slices.Sort(out.listed)
	for idx, e := range r.Entities.Entities {
		if e == nil {
			continue
		}
		l := live{class: e.Class.Name, serial: e.Serial, fields: map[string]value{}}
		entity.Walk(e.Class.Serializer, e.State, func(name string, f *schema.Field, v decoder.Value) {
			l.fields[name] = value{f, v}
			l.order = append(l.order, name)
		})
		out.live[int32(idx)] = l
	}
	return out
}

// isLength tells a variable array's or table's length, or a pointer's
// presence, from the values entity.Walk gives: parsers hold these as
// containers, not values.
func isLength(name string, f *schema.Field) bool {
	switch f.Model {
	case schema.VariableArray, schema.VariableTable, schema.FixedTable:
		return len(name) >= len(f.Name) && name[len(name)-len(f.Name):] == f.Name
	}
	return false
}

// pastLength reports whether name is an element of a variable array or
// table at or past its length: after a shrink, the engine and other
// parsers keep the old elements, but entity.Walk stops at the length.
func (l live) pastLength(name string) bool {
	parts := strings.Split(name, ".")
	for i := len(parts) - 1; i > 0; i-- {
		k, err := strconv.Atoi(parts[i])
		if err != nil {
			continue
		}
		n, ok := l.fields[strings.Join(parts[:i], ".")]
		if ok && isLength(strings.Join(parts[:i], "."), n.field) && uint64(k) >= n.v.U {
			return true
		}
	}
	return false
}
