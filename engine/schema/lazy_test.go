package schema

import (
	"fmt"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/dembug/dembug/engine/game"
)

// sameLists reports where two schemas' serializers differ: names, versions,
// and each field list (fields compared by their place in Fields).
func sameLists(a, b *Schema) error {
	if len(a.Serializers) != len(b.Serializers) || len(a.AllFields()) != len(b.AllFields()) {
		return fmt.Errorf("%d serializers, %d fields; %d, %d", len(a.Serializers), len(a.AllFields()), len(b.Serializers), len(b.AllFields()))
	}
	for i, sa := range a.Serializers {
		sb := b.Serializers[i]
		if sa.Name != sb.Name || sa.Version != sb.Version || len(sa.Fields) != len(sb.Fields) {
			return fmt.Errorf("serializer %d: %s v%d (%d fields); %s v%d (%d fields)", i, sa.Name, sa.Version, len(sa.Fields), sb.Name, sb.Version, len(sb.Fields))
		}
		for j, f := range sa.Fields {
			g := sb.Fields[j]
			if f.id != g.id || f.Name != g.Name || f.Decoder.Family != g.Decoder.Family || (f.Serializer == nil) != (g.Serializer == nil) ||
				f.Serializer != nil && f.Serializer.id != g.Serializer.id {
				return fmt.Errorf("%s field %d: %s; %s", sa.Name, j, f.Name, g.Name)
			}
		}
	}
	return nil
}

// eachEagerAndLazy parses the built-in sample's schema and each shared
// replay's twice, whole and lazily, for fn.
func eachEagerAndLazy(t *testing.T, fn func(name string, eager, lazy *Schema)) {
	t.Helper()
	for name, b := range realSerializers() {
		if b == nil {
			continue
		}
		g := game.Dota2
		if name != "dota2" && name != "sample" {
			g = game.CS2
		}
		eager, err := ParseWith(b, g, Aliases{})
		if err != nil {
			t.Fatal(err)
		}
		lazy, err := ParseLazy(b, g, Aliases{})
		if err != nil {
			t.Fatal(err)
		}
		fn(name, eager, lazy)
	}
}

// A serializer read on first use is the one ParseWith reads, and so is
// every serializer below it, in whatever order classes are first decoded.
func TestLazyReadsAsEager(t *testing.T) {
	eachEagerAndLazy(t, func(name string, eager, lazy *Schema) {
		// Every third serializer first, by name as classes link them.
		for i := 0; i < len(lazy.Serializers); i += 3 {
			ser := lazy.Serializer(lazy.Serializers[i].Name)
			want := eager.Serializer(ser.Name)
			if len(ser.Fields) != len(want.Fields) || len(ser.Hot()) != len(want.Fields) {
				t.Fatalf("%s: %s has %d fields read on first use, %d parsed", name, ser.Name, len(ser.Fields), len(want.Fields))
			}
			var below func(s *Serializer, depth int)
			below = func(s *Serializer, depth int) {
				if !s.loaded.Load() {
					t.Fatalf("%s: %s, below %s, not read", name, s.Name, ser.Name)
				}
				for _, f := range s.Fields {
					if f.Serializer != nil && depth < maxNesting {
						below(f.Serializer, depth+1)
					}
				}
			}
			below(ser, 0)
		}
		if err := sameLists(lazy.Complete(), eager); err != nil {
			t.Fatalf("%s: completed lazily vs parsed: %v", name, err)
		}
	})
}

// The nesting check on the edges the index check notes, before any list is
// read, refuses what the check over read lists refuses, with the same
// error: the Dota 2 schema with its nested fields pointed at other
// serializers (cycles, deep chains, wide expansions).
func TestLazyNestingCheckAgrees(t *testing.T) {
	b := realSerializers()["dota2"]
	if b == nil {
		t.Skip("no Dota 2 replay")
	}
	rapid.Check(t, func(rt *rapid.T) {
		s, err := ParseWith(b, game.Dota2, Aliases{})
		if err != nil {
			rt.Fatal(err)
		}
		var nested []*Field
		for _, f := range s.AllFields() {
			if f.Serializer != nil {
				nested = append(nested, f)
			}
		}
		for range rapid.IntRange(1, 8).Draw(rt, "rewires") {
			f := nested[rapid.IntRange(0, len(nested)-1).Draw(rt, "field")]
			f.Serializer = s.Serializers[rapid.IntRange(0, len(s.Serializers)-1).Draw(rt, "to")]
		}
		p := &pending{raws: make([]rawField, len(s.AllFields())), starts: make([]int32, len(s.Serializers)+1)}
		for i, f := range s.AllFields() {
			if f.Serializer != nil {
				p.raws[i].ser = f.Serializer.id
			}
		}
		for i, ser := range s.Serializers {
			for pos, f := range ser.Fields {
				if f.Serializer != nil {
					p.edges = append(p.edges, nestEdge{int32(pos), f.id})
				}
			}
			p.starts[i+1] = int32(len(p.edges))
			p.msgs = append(p.msgs, rawSerializer{count: len(ser.Fields)})
		}
		want, got := checkNesting(s.Serializers), p.checkNesting(s.Serializers)
		if fmt.Sprint(want) != fmt.Sprint(got) {
			rt.Fatalf("over read lists: %v; over edges: %v", want, got)
		}
	})
}

// Decoders on several goroutines reading the same lazy schema (a debugger's
// index pass beside its live decode) read each list once, whole.
func TestLazyConcurrentReads(t *testing.T) {
	b := realSerializers()["dota2"]
	if b == nil {
		t.Skip("no Dota 2 replay")
	}
	eager, err := ParseWith(b, game.Dota2, Aliases{})
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := ParseLazy(b, game.Dota2, Aliases{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(lazy.Serializers); i += 2 {
				name := lazy.Serializers[i].Name
				ser := lazy.LazySerializer(name)
				ser.Load()
				if len(ser.Fields) != len(eager.Serializer(name).Fields) || len(ser.Hot()) != len(ser.Fields) {
					errs <- fmt.Errorf("%s: %d fields", name, len(ser.Fields))
					return
				}
			}
			if w == 3 {
				lazy.Complete()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := sameLists(lazy, eager); err != nil {
		t.Fatal(err)
	}
}

// AllFields builds every distinct field, as a complete schema has them,
// without reading a serializer's field list.
func TestAllFieldsReadsNoLists(t *testing.T) {
	eachEagerAndLazy(t, func(name string, eager, lazy *Schema) {
		got, want := lazy.AllFields(), eager.AllFields()
		for _, ser := range lazy.Serializers {
			if ser.loaded.Load() {
				t.Fatalf("%s: AllFields read %s's list", name, ser.Name)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d fields, %d when complete", name, len(got), len(want))
		}
		for i, f := range got {
			w := want[i]
			if f == nil || f.id != w.id || f.Name != w.Name || f.Decoder.Family != w.Decoder.Family || f.UnknownType != w.UnknownType || f.Why != w.Why {
				t.Fatalf("%s: field %d %+v, complete %+v", name, i, f, w)
			}
		}
		if err := sameLists(lazy.Complete(), eager); err != nil {
			t.Fatalf("%s: completed after AllFields: %v", name, err)
		}
	})
}

// Writes, on a lazy schema that has built no field, says of every name the
// complete schema's fields carry (and of names none carries, misspelt)
// what Carrying says; a realiased schema answers as its parse, and so does
// a lazy schema once every field is built.
func TestWritesAsCarrying(t *testing.T) {
	eachEagerAndLazy(t, func(name string, eager, lazy *Schema) {
		seen := map[Name]bool{}
		var names []Name
		for _, f := range eager.AllFields() {
			for _, n := range f.WrittenNames() {
				if !seen[n] {
					seen[n] = true
					names = append(names, n, Name{n.Kind, n.Name + "x"}, Name{n.Kind, "C" + n.Name})
				}
			}
		}
		if len(names) == 0 {
			t.Fatalf("%s: no names", name)
		}
		for _, n := range names {
			if got, want := lazy.Writes(n.Kind, n.Name), len(eager.Carrying(n.Kind, n.Name)) > 0; got != want {
				t.Fatalf("%s: %s %q written %v, carried %v", name, n.Kind, n.Name, got, want)
			}
		}
		if lazy.src.built != 0 {
			t.Errorf("%s: Writes built %d fields", name, lazy.src.built)
		}
		re := lazy.RealiasLazy(Aliases{Types: map[string]string{"NoSuchType": "int32"}})
		for _, n := range names[:min(len(names), 300)] {
			if got, want := re.Writes(n.Kind, n.Name), len(eager.Carrying(n.Kind, n.Name)) > 0; got != want {
				t.Fatalf("%s, realiased: %s %q written %v, carried %v", name, n.Kind, n.Name, got, want)
			}
		}
		lazy.AllFields()
		for _, n := range names[:min(len(names), 300)] {
			if got, want := lazy.Writes(n.Kind, n.Name), len(eager.Carrying(n.Kind, n.Name)) > 0; got != want {
				t.Fatalf("%s, built: %s %q written %v, carried %v", name, n.Kind, n.Name, got, want)
			}
		}
	})
}

// Declaring, on a lazy schema with a few lists read, counts what a walk of
// the complete schema counts, for names declared in many serializers and
// in one, and for none; it builds no field.
func TestDeclaringAsComplete(t *testing.T) {
	eachEagerAndLazy(t, func(name string, eager, lazy *Schema) {
		for i := 0; i < len(lazy.Serializers); i += 7 {
			lazy.Serializer(lazy.Serializers[i].Name) // some lists read, as decoding leaves them
		}
		built := lazy.src.built
		fields := eager.AllFields()
		for i := 0; i < len(fields); i += max(1, len(fields)/60) {
			for _, q := range []string{fields[i].Name, fields[i].Name + "zz"} {
				match := func(n string) bool { return n == q }
				var want Declared
				for _, ser := range eager.Serializers {
					found := false
					for _, f := range ser.Fields {
						if match(f.Name) {
							if want.Field == "" {
								want.Field, want.Serializer = f.Name, ser.Name
							}
							found = true
						}
					}
					if found {
						want.Serializers++
					}
				}
				if got := lazy.Declaring(match); got != want {
					t.Fatalf("%s: %q declared %+v, want %+v", name, q, got, want)
				}
			}
		}
		if lazy.src != nil && lazy.src.built != built {
			t.Errorf("%s: Declaring built %d fields", name, lazy.src.built-built)
		}
	})
}
