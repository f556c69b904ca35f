package schema

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dembug/dembug/engine/game"
)

func TestFixedArrayCountCap(t *testing.T) {
	if got := ParseVarType("uint8[512]").Count; got != 512 {
		t.Fatalf("uint8[512] has count %d", got)
	}
	vt := ParseVarType("uint8[2000000000]")
	if vt.Count != MaxArrayCount || vt.CountName != "2000000000" {
		t.Fatalf("huge bound parsed as %d (%q), want the cap %d", vt.Count, vt.CountName, MaxArrayCount)
	}
	f := chosen(field("m_big", "uint8[2000000000]", nil), game.Dota2)
	if f.Model != FixedArray || !strings.Contains(f.Problem, "cut to the limit") {
		t.Fatalf("model %s, problem %q", f.Model, f.Problem)
	}
}

func TestGenericNestingCap(t *testing.T) {
	if vt := ParseVarType("CNetworkUtlVectorBase< CHandle< CBaseEntity > >"); vt.Generic == nil || vt.Generic.Generic == nil || vt.Generic.Generic.Base != "CBaseEntity" {
		t.Fatalf("real type parsed as %+v", vt)
	}
	s := strings.Repeat("A<", 100000) + "int32" + strings.Repeat(">", 100000)
	vt := ParseVarType(s)
	depth := 0
	for g := vt.Generic; g != nil; g = g.Generic {
		depth++
	}
	if depth != maxGenericDepth {
		t.Fatalf("nesting parsed %d levels deep, want the cap %d", depth, maxGenericDepth)
	}
}

// chain builds levels serializers, each with width fields that all point
// to the next one: width^levels paths, but only levels serializers.
func chain(levels, width int, poly bool) []*Serializer {
	sers := make([]*Serializer, levels)
	for i := levels - 1; i >= 0; i-- {
		s := &Serializer{Name: fmt.Sprintf("S%d", i)}
		for k := 0; k < width; k++ {
			f := &Field{Name: fmt.Sprintf("f%d", k)}
			if i+1 < levels {
				f.Serializer = sers[i+1]
			}
			s.Fields = append(s.Fields, f)
		}
		sers[i] = s
	}
	if poly {
		last := sers[levels-1]
		last.Fields[0].Polymorphic = []*Serializer{last}
	}
	return sers
}

// Shared nested serializers are measured once: checking nesting and asking
// about polymorphism take time linear in the schema, not in its paths.
func TestNestingCheckIsLinear(t *testing.T) {
	start := time.Now()
	sers := chain(maxNesting, 40, false) // 40^16 paths
	if err := checkNesting(sers); err == nil || !strings.Contains(err.Error(), "expands to more than") {
		t.Fatalf("40^16 fields accepted: %v", err)
	}
	for _, s := range sers {
		if s.HasPolymorphic() {
			t.Fatalf("%s has no polymorphic pointer below it", s.Name)
		}
	}
	sers = chain(maxNesting, 40, true)
	for _, s := range sers {
		if !s.HasPolymorphic() {
			t.Fatalf("%s reaches a polymorphic pointer", s.Name)
		}
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
	if err := checkNesting(chain(maxNesting+1, 1, false)); err != nil {
		t.Fatalf("%d levels refused: %v", maxNesting+1, err)
	}
	if err := checkNesting(chain(maxNesting+2, 1, false)); err == nil {
		t.Fatalf("%d levels accepted", maxNesting+2)
	}
	cyc := chain(3, 2, false)
	cyc[2].Fields[1].Serializer = cyc[0]
	if err := checkNesting(cyc); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("cycle: %v", err)
	}
}
