package schema

import (
	"sync"
	"testing"
)

// In a cycle (A nests B, B nests A) the answer for B does not depend on
// which was asked first: B reaches A's polymorphic field whichever way the
// walk came. The old walk, asked of A first, marked B "no" while A was
// being visited and kept it.
func TestPolymorphicThroughACycle(t *testing.T) {
	for _, first := range []string{"A", "B"} {
		a, b, alt := &Serializer{Name: "A"}, &Serializer{Name: "B"}, &Serializer{Name: "Alt"}
		a.Fields = []*Field{{Name: "toB", Serializer: b}, {Name: "ptr", Serializer: alt, Polymorphic: []*Serializer{alt, alt}}}
		b.Fields = []*Field{{Name: "toA", Serializer: a}}
		order := []*Serializer{a, b}
		if first == "B" {
			order = []*Serializer{b, a}
		}
		for _, s := range order {
			if !s.HasPolymorphic() {
				t.Errorf("asked of %s first: %s reaches A's polymorphic field", first, s.Name)
			}
		}
		if alt.HasPolymorphic() {
			t.Error("Alt has no field at all")
		}
	}
}

// The same when the polymorphic field lies past a cycle (A nests itself
// and X, X nests P, P holds the pointer): the walk is cut inside the
// cycle with X and P still ahead of it, and must not keep "no" for what it
// left half seen.
func TestPolymorphicPastACycle(t *testing.T) {
	a, x, p, alt := &Serializer{Name: "A"}, &Serializer{Name: "X"}, &Serializer{Name: "P"}, &Serializer{Name: "Alt"}
	a.Fields = []*Field{{Name: "self", Serializer: a}, {Name: "toX", Serializer: x}}
	x.Fields = []*Field{{Name: "toP", Serializer: p}}
	p.Fields = []*Field{{Name: "ptr", Serializer: alt, Polymorphic: []*Serializer{alt, alt}}}
	for _, s := range []*Serializer{a, x, p} {
		if !s.HasPolymorphic() {
			t.Errorf("%s reaches P's polymorphic field", s.Name)
		}
	}
}

// Decoders on several goroutines ask the same fresh serializers at once
// (the debugger resumes a keyframe on several): under -race this is where
// the old walk's marks raced, and a goroutine could read another's
// "being visited" mark as "no".
func TestPolymorphicAskedConcurrently(t *testing.T) {
	for round := 0; round < 20; round++ {
		sers := chain(maxNesting, 8, round%2 == 0)
		want := round%2 == 0
		var wg sync.WaitGroup
		errs := make(chan string, 8*len(sers))
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range sers {
					s := sers[(i+g)%len(sers)]
					if s.HasPolymorphic() != want {
						errs <- s.Name
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for name := range errs {
			t.Fatalf("round %d: %s answered %v wrongly", round, name, !want)
		}
	}
}
