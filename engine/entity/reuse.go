package entity

import (
	"unsafe"

	"github.com/dembug/dembug/internal/keep"
)

// A decode that is done with its table can hand it back (Release), and the
// next NewTable of the process takes it: its entities, state nodes, memo
// sets and buffers serve the next decode's creates instead of being garbage
// for the collector and new memory for the next (check over many files,
// benchmarks, the decodes of a test). Only a table that never shared a
// node is kept: a snapshot, copy, frozen keyframe or ShareState of it, or a
// baseline handed out, may still read its nodes.

// released holds the tables Release kept, at most one per processor.
var released keep.Pool[*Table]

// Release hands the table's storage to the next NewTable: the caller and
// everything it gave the table's entities or nodes to must not use them
// again. A table that shared its nodes (Snapshot, Copy, Freeze, Reshare,
// ShareState, BaselineState) is left to the collector instead.
func (t *Table) Release() {
	if t == nil || t.shared.Load() || t.whatIf != nil {
		return
	}
	if released.Full() {
		return
	}
	sp, dead, memos := t.spare, t.dead, t.spareMemos
	sp.all = true
	for _, e := range t.Entities {
		if e == nil {
			continue
		}
		sp.releaseAll(e.State, e.owner)
		dead = append(dead, e)
	}
	for _, l := range t.free {
		for _, n := range l {
			sp.release(n, n.owner)
		}
	}
	for _, n := range t.baseState {
		sp.release(n, 0)
	}
	// The bound counts what the next decode keeps, not what this one
	// leaves: nodes of sizes it never asks for would otherwise fill it.
	sp.all, sp.bytes = false, 0
	slab, paths, ops := t.targetSlab, t.paths[:0], t.ops[:0]
	baselines, baseState := t.baselines, t.baseState
	clear(baselines)
	clear(baseState)
	*t = Table{
		baselines:  baselines,
		baseState:  baseState,
		spare:      sp,
		dead:       dead,
		spareMemos: memos,
		targetSlab: slab,
		paths:      paths,
		ops:        ops,
	}
	released.Put(t)
}

// reusedTable is a table Release kept, or nil.
func reusedTable() *Table {
	t, _ := released.Take()
	return t
}

// releaseAll is release for an entity's top-level node, which may be an
// overlay: its own nodes below are kept, the overlay left to the collector.
func (sp *spares) releaseAll(n *Node, owner uint32) {
	if n == nil || n.owner != owner {
		return
	}
	if n.ov != nil {
		sp.releaseKids(n, owner)
		sp.keepOverlay(n)
		return
	}
	sp.release(n, owner)
}

// keepOverlay keeps the overlay node n (newOverlay's) for the next
// overlay with no more slots than it has room for.
func (sp *spares) keepOverlay(n *Node) {
	x := (*overlayNode)(unsafe.Pointer(n)) // n is the block's first member
	slots, kids := x.ov.slots[:0], n.kids.nodes[:0]
	clear(kids[:cap(kids)])
	*x = overlayNode{n: Node{kids: kidList{nodes: kids}}, ov: overlay{slots: slots}}
	if cap(slots) == overlayRoom {
		sp.smallOv = append(sp.smallOv, x)
	} else {
		sp.bigOv = append(sp.bigOv, x)
	}
}

// takeOverlay is a kept overlay node with room for room slots, or nil.
func (sp *spares) takeOverlay(room int) *overlayNode {
	list := &sp.bigOv
	if room <= overlayRoom {
		list = &sp.smallOv
	}
	if l := *list; len(l) == 0 || cap(l[len(l)-1].ov.slots) < room {
		return nil
	}
	return popLast(list)
}
