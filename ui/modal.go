package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/views"
)

// modal is a child the root model opens over the panes: while it is open it
// takes every key first, may draw the body and may own the status line.
// The root model holds the children's state; a modal reads and changes it
// through the model it is given.
type modal interface {
	// open says whether the modal is open.
	open(m *Model) bool
	// onKey handles a key while the modal is open.
	onKey(m *Model, msg tea.KeyPressMsg) tea.Cmd
	// view draws the body of bodyH lines while the modal is open.
	view(m *Model, bodyH int) string
	// status gives the status line while the modal is open: line, when not
	// empty, is all of it; else wide and narrow, when not empty, are the
	// key hints on the right of a wide and of a narrow terminal.
	status(m *Model) (line, wide, narrow string)
}

// modals in the order they take the keys: the first open one has them.
// At most one is open at a time (each opens from the panes' keys only).
var modals = []modal{promptModal{}, pickerModal{}, listModal{}, helpModal{}}

// openModal is the open modal, or nil when the panes have the keys.
func (m *Model) openModal() modal {
	for _, md := range modals {
		if md.open(m) {
			return md
		}
	}
	return nil
}

// promptModal is the one-line prompt in the status line (g, /, f, e).
type promptModal struct{}

func (promptModal) open(m *Model) bool { return m.prompt != promptNone }

func (promptModal) onKey(m *Model, msg tea.KeyPressMsg) tea.Cmd { return m.onPromptKey(msg) }

func (promptModal) view(m *Model, bodyH int) string { return m.panesBody(bodyH) }

func (promptModal) status(m *Model) (string, string, string) {
	label := promptLabels[m.prompt]
	if m.prompt == promptSearch && m.lastSearch != "" {
		label += fmt.Sprintf(" (empty: next %q)", m.lastSearch)
	}
	left := label + ": " + m.input + "█"
	return views.StatusBar(left, "enter ok · esc cancel", m.w, m.theme), "", ""
}

// pickerModal is the decoder picker of a what-if, over the panes.
type pickerModal struct{}

func (pickerModal) open(m *Model) bool { return m.picker != nil }

func (pickerModal) onKey(m *Model, msg tea.KeyPressMsg) tea.Cmd { return m.onPickerKey(msg) }

func (pickerModal) view(m *Model, bodyH int) string {
	box, x, y := m.pickerBox(bodyH)
	return views.Overlay(m.panesBody(bodyH), box, x, y)
}

func (pickerModal) status(*Model) (string, string, string) {
	return "", "↑↓ choose · enter try · s scope · esc cancel", "enter try · esc"
}

// listModal is the anomaly list (L), instead of the panes.
type listModal struct{}

func (listModal) open(m *Model) bool { return m.list != nil }

func (listModal) onKey(m *Model, msg tea.KeyPressMsg) tea.Cmd { return m.onListKey(msg) }

func (listModal) view(m *Model, bodyH int) string {
	title, list := m.listBody(m.w-2, bodyH-2)
	return views.Box(title, list, m.w, bodyH, true, m.theme)
}

func (listModal) status(*Model) (string, string, string) { return "", "", "" }

// helpModal is the key help (?), instead of the panes.
type helpModal struct{}

func (helpModal) open(m *Model) bool { return m.showHelp }

func (helpModal) onKey(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	// Any of ?, esc and q closes the help (ctrl+c quits before the modals).
	k := m.keys
	if key.Matches(msg, k.Help, k.Back, k.Quit) {
		m.showHelp = false
	}
	return nil
}

func (helpModal) view(m *Model, bodyH int) string {
	return views.Box("Keys · ?, esc or q closes", views.Help(m.keys.HelpGroups(), m.w-2, bodyH-2, m.theme), m.w, bodyH, true, m.theme)
}

func (helpModal) status(*Model) (string, string, string) { return "", "", "" }
