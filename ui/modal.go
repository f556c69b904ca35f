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
var modals = []modal{promptModal{}, pickerModal{}, listModal{}, helpModal{}, cutModal{}}

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
	if m.prompt == promptCut {
		label = m.cutPromptLabel()
	}
	if m.prompt == promptSearch && m.lastSearch != "" {
		label += fmt.Sprintf(" (empty: next %q)", m.lastSearch)
	}
	if m.prompt == promptFilter && m.filterText != "" {
		label += fmt.Sprintf(" (empty: clear %q)", m.filterText)
	}
	if e := m.promptEntityDefault(); m.prompt == promptEntity && e >= 0 {
		label += fmt.Sprintf(" (empty: next of #%d)", e)
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
	// Any of ?, esc and q closes the help (ctrl+c quits before the modals);
	// the movement keys scroll it where it does not fit.
	k := m.keys
	page := max(1, m.h-4)
	switch {
	case key.Matches(msg, k.Help, k.Back, k.Quit):
		m.showHelp, m.helpTop = false, 0
	case key.Matches(msg, k.Down):
		m.helpTop++
	case key.Matches(msg, k.Up):
		m.helpTop--
	case key.Matches(msg, k.PageDown):
		m.helpTop += page
	case key.Matches(msg, k.PageUp):
		m.helpTop -= page
	case key.Matches(msg, k.Home):
		m.helpTop = 0
	case key.Matches(msg, k.End):
		m.helpTop = 1 << 30
	}
	in := m.helpInput()
	m.helpTop = clamp(m.helpTop, 0, max(0, views.HelpLines(in)-in.Height))
	return nil
}

// helpInput is the help screen's content at the window's size.
func (m *Model) helpInput() views.HelpInput {
	return views.HelpInput{Groups: m.keys.HelpGroups(), Width: m.w - 2, Height: max(1, m.h-3), Scroll: m.helpTop, Theme: m.theme}
}

func (helpModal) view(m *Model, bodyH int) string {
	in := m.helpInput()
	in.Height = max(1, bodyH-2)
	return views.Box("Keys · ?, esc or q closes", views.HelpView(in), m.w, bodyH, true, m.theme)
}

// status says where the help is scrolled to when it does not fit.
func (helpModal) status(m *Model) (string, string, string) {
	in := m.helpInput()
	n := views.HelpLines(in)
	if n <= in.Height {
		return "", "?, esc or q closes", "esc closes"
	}
	end := min(n, m.helpTop+in.Height)
	wide := fmt.Sprintf("lines %d–%d of %d · j k pgdn pgup scroll · esc closes", m.helpTop+1, end, n)
	narrow := fmt.Sprintf("%d–%d/%d j/k · esc", m.helpTop+1, end, n)
	return "", wide, narrow
}
