package entity

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// A node's kids and far slots, written and copied at random, hold what a
// plain map by slot holds, and list it in slot order; a copy's writes
// leave the original as it was.
func TestKidsAndFarSlotsAgreeWithAMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		type model map[int32]int // slot -> which kid (its vals[0].U)
		kid := func(k int) *Node {
			n := newNode(1, 0)
			n.slot(0).U = uint64(k)
			return n
		}
		check := func(n *Node, m model, what string) {
			var got []int32
			n.EachKid(func(i int, k *Node) {
				got = append(got, int32(i))
				if want, ok := m[int32(i)]; !ok || int(k.Get(0).U) != want {
					t.Fatalf("%s: slot %d holds kid %d, want %d (present %v)", what, i, k.Get(0).U, want, ok)
				}
			})
			want := make([]int32, 0, len(m))
			for i := range m {
				want = append(want, i)
			}
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: kids at %v, want %v", what, got, want)
			}
			for i, k := range m {
				if g := n.Kid(int(i)); g == nil || int(g.Get(0).U) != k {
					t.Fatalf("%s: Kid(%d) is %v, want kid %d", what, i, g, k)
				}
			}
			if i := rapid.Int32Range(0, DenseSlots+300).Draw(t, "probe"); n.Kid(int(i)) != nil {
				if _, ok := m[i]; !ok {
					t.Fatalf("%s: a kid at slot %d, which has none", what, i)
				}
			}
		}
		owner := newOwner()
		n := newNode(8, owner)
		m := model{}
		next := 1
		for range rapid.IntRange(1, 60).Draw(t, "steps") {
			i := rapid.OneOf(rapid.Int32Range(0, DenseSlots-1), rapid.Int32Range(DenseSlots, DenseSlots+300)).Draw(t, "slot")
			setKid(n, i, kid(next))
			m[i] = next
			next++
			if rapid.Bool().Draw(t, "copy") {
				// A copy for another owner: writing it leaves n alone.
				c := n.cowCopy(newOwner())
				before := maps(m)
				j := rapid.Int32Range(0, DenseSlots+300).Draw(t, "copy slot")
				setKid(c, j, kid(-1))
				check(n, before, "original after its copy was written")
				cm := maps(m)
				cm[j] = -1
				check(c, cm, "copy")
			}
			check(n, m, "node")
		}
	})
}

func maps[M ~map[K]V, K comparable, V any](m M) M {
	c := make(M, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// setKid puts k below slot i of n, as kid does for a node it makes.
func setKid(n *Node, i int32, k *Node) {
	if i >= DenseSlots {
		n.farAt(i).kid = k
		return
	}
	*n.kids.ref(i) = k
}
