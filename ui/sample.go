package ui

import "github.com/dembug/dembug/session"

// builtInNote is the note the debugger opens with when it was given no
// file: what is on screen is the built-in sample, and how to open a replay.
const builtInNote = "the built-in sample (no file given): dembug FILE.dem opens a replay"

// sayBuiltIn notes, when the open file is the built-in sample, that it is.
func (m *Model) sayBuiltIn() {
	if session.IsBuiltIn(m.path) && m.note == "" {
		m.setNote(builtInNote, false)
	}
}
