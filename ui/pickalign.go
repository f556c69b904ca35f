package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// In a misaligned message the picker says which of its decoders and bit
// edits make the message align: each is tried on this read, off the
// loop, as the picker opens; the marks arrive when all are done.

// alignResult carries the items that align, for picker p (dropped when
// another picker is open by then).
type alignResult struct {
	p      *picker
	aligns map[int]bool
}

// checkAlignments tries every decoder and bit edit of the open picker.
func (m *Model) checkAlignments() tea.Cmd {
	p := m.picker
	at := session.Ref{Cmd: p.cmd, Msg: p.msg, Upd: -1, Field: -1}
	if m.ix.Msg(at.Cmd, at.Msg) == nil {
		return nil
	}
	p.checking = true
	var reqs []session.Request
	var idx []int
	for i, it := range p.items {
		if it.Header || it.search || it.Current {
			continue
		}
		reqs, idx = append(reqs, p.requestAt(i, scopeRead)), append(idx, i)
	}
	file := m.file
	m.jobs.start(jobAlign)
	return m.run(jobAlign, func() any {
		out := map[int]bool{}
		for j, req := range reqs {
			if wi, err := file.WhatIf(at, req); err == nil && wi.Aligns() {
				out[idx[j]] = true
			}
		}
		return alignResult{p, out}
	})
}

// onAlign marks the picker's items that align.
func (m *Model) onAlign(msg alignResult) {
	p := m.picker
	if p == nil || p != msg.p {
		return
	}
	p.checking = false
	for i := range p.items {
		if msg.aligns[i] {
			p.items[i].Detail = "✓ aligns · " + p.items[i].Detail
		}
	}
	if len(msg.aligns) == 0 {
		m.setNote("no decoder or bit edit of this read alone makes the message align (try a wider scope, or the search)", false)
		return
	}
	m.setNote(views.Count(len(msg.aligns), "choice")+" of this read make the message align (✓)", false)
}
