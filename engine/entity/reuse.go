package entity

import (
	"runtime"
	"sync"
)

// A decode that is done with its table can hand it back (Release), and the
// next NewTable of the process takes it: its entities, state nodes, memo
// sets and buffers serve the next decode's creates instead of being garbage
// for the collector and new memory for the next (check over many files,
// benchmarks, the decodes of a test). Only a table that never shared a
// node is kept: a snapshot, copy, frozen keyframe or ShareState of it, or a
// baseline handed out, may still read its nodes.

// released holds the tables Release kept, at most one per processor.
var released struct {
	sync.Mutex
	tables []*Table
}

// Release hands the table's storage to the next NewTable: the caller and
// everything it gave the table's entities or nodes to must not use them
// again. A table that shared its nodes (Snapshot, Copy, Freeze, Reshare,
// ShareState, BaselineState) is left to the collector instead.
func (t *Table) Release() {
	if t == nil || t.shared || t.whatIf != nil {
		return
	}
	released.Lock()
	full := len(released.tables) >= runtime.GOMAXPROCS(0)
	released.Unlock()
	if full {
		return
	}
	sp, dead, memos := t.spare, t.dead, t.spareMemos
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
	released.Lock()
	released.tables = append(released.tables, t)
	released.Unlock()
}

// reusedTable is a table Release kept, or nil.
func reusedTable() *Table {
	released.Lock()
	defer released.Unlock()
	n := len(released.tables)
	if n == 0 {
		return nil
	}
	t := released.tables[n-1]
	released.tables[n-1] = nil
	released.tables = released.tables[:n-1]
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
		return
	}
	sp.release(n, owner)
}
