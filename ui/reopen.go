package ui

import "github.com/dembug/dembug/session"

// reopen shows f, the open file's bytes under other aliases
// (session.File.WithAliases): what was derived from the file (the index,
// the selection, the background passes, what-ifs and the inference)
// starts again from f; the screen's size and theme stay. Results of the
// old file's work still on their way carry an older generation and are
// dropped.
func (m *Model) reopen(f *session.File) {
	w, h, theme, jobs, cut := m.w, m.h, m.theme, m.jobs.reopened(), m.cut
	if m.stopIndex != nil {
		m.stopIndex()
	}
	opts := m.opts
	opts.Aliases = f.Aliases()
	*m = *newModel(m.path, f, opts)
	m.w, m.h, m.theme = w, h, theme
	m.jobs = jobs
	m.cut = cut // the marks are ticks of the same bytes; a cut written is on disk
}
