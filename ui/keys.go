package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// KeyMap is every key binding of the debugger. The help screen, the status
// line and docs/tui.md are all generated from it.
type KeyMap struct {
	Up, Down, Left, Right         key.Binding
	PageUp, PageDown, Home, End   key.Binding
	NextPane, PrevPane            key.Binding
	NextUpdate, PrevUpdate        key.Binding
	NextPacket, PrevPacket        key.Binding
	Expand                        key.Binding
	GotoTick, Search, Filter, Ent key.Binding
	NextAnomaly, PrevAnomaly      key.Binding
	ListAnomalies, MuteField      key.Binding
	NextDiff, PrevDiff            key.Binding
	WhatIf, Toggle, Scope         key.Binding
	ApplyInferred                 key.Binding
	Before, HeaderFirst           key.Binding
	Help, Back, Quit              key.Binding
	JumpBack, JumpForward         key.Binding
	OpStream, Promote, Parsers    key.Binding
	OpTable                       key.Binding
	MarkWindow, WriteWindow       key.Binding
}

// DefaultKeyMap returns the bindings.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:            b([]string{"up", "k"}, "↑ k", "up: row, field or scroll"),
		Down:          b([]string{"down", "j"}, "↓ j", "move down"),
		Left:          b([]string{"left", "h"}, "← h", "collapse / previous field"),
		Right:         b([]string{"right", "l"}, "→ l", "expand / next field"),
		PageUp:        b([]string{"pgup", "ctrl+u"}, "pgup ctrl+u", "page up"),
		PageDown:      b([]string{"pgdown", "ctrl+d"}, "pgdn ctrl+d", "page down"),
		Home:          b([]string{"home"}, "home", "first row"),
		End:           b([]string{"end"}, "end", "last row"),
		NextPane:      b([]string{"tab"}, "tab", "next pane"),
		PrevPane:      b([]string{"shift+tab"}, "shift+tab", "previous pane"),
		NextUpdate:    b([]string{"n"}, "n", "next entity update"),
		PrevUpdate:    b([]string{"N"}, "N", "previous entity update"),
		NextPacket:    b([]string{"]"}, "]", "next packet"),
		PrevPacket:    b([]string{"["}, "[", "previous packet"),
		Expand:        b([]string{"enter"}, "enter", "expand or collapse row"),
		GotoTick:      b([]string{"g"}, "g", "go to a tick"),
		Search:        b([]string{"/"}, "/", "search fields and classes"),
		Filter:        b([]string{"f"}, "f", "filter (empty clears)"),
		Ent:           b([]string{"e"}, "e", "jump to an entity index"),
		NextAnomaly:   b([]string{"a"}, "a", "next anomaly"),
		PrevAnomaly:   b([]string{"A"}, "A", "previous anomaly"),
		ListAnomalies: b([]string{"L"}, "L", "anomalies grouped by rule (m mutes)"),
		MuteField:     b([]string{"M"}, "M", "mute / unmute the field's anomalies"),
		NextDiff:      b([]string{"c"}, "c", "next difference from --compare"),
		PrevDiff:      b([]string{"C"}, "C", "previous difference from --compare"),
		WhatIf:        b([]string{"d"}, "d", "what-if: another decoder"),
		Toggle:        b([]string{"x"}, "x", "show original / what-if"),
		Scope:         b([]string{"s"}, "s", "picker: scope of a decoder"),
		ApplyInferred: b([]string{"I"}, "I", "decode as inferred (--as)"),
		Before:        b([]string{"b"}, "b", "entity before / after"),
		HeaderFirst:   b([]string{"H"}, "H", "inspector: update header, baseline first"),
		Help:          b([]string{"?"}, "?", "this help"),
		Back:          b([]string{"esc"}, "esc", "close, leave or unfilter"),
		Quit:          b([]string{"q", "ctrl+c"}, "q ctrl+c", "quit"),
		Promote:       b([]string{"P"}, "P", "what-if: decode the whole file that way (--as)"),
		OpStream:      b([]string{"o"}, "o", "inspector: the update's field-path ops"),
		OpTable:       b([]string{"O"}, "O", "inspector: every field-path op (weight, code, operands, effect)"),
		Parsers:       b([]string{"p"}, "p", "inspector: how each public parser reads the file, and the fix"),
		JumpBack:      b([]string{"ctrl+o"}, "ctrl+o", "back to before the last jump"),
		JumpForward:   b([]string{"ctrl+i", "ctrl+n"}, "ctrl+i ctrl+n", "forward again (ctrl+i is tab on most terminals)"),
		MarkWindow:    b([]string{"v"}, "v", "mark a window's first / last tick"),
		WriteWindow:   b([]string{"w"}, "w", "write the window as a replay"),
	}
}

// ShortHelp is the status-line summary (help.KeyMap).
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.NextUpdate, k.NextPane, k.Search, k.Help, k.Quit}
}

// FullHelp is every binding in groups (help.KeyMap).
func (k KeyMap) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range k.groups() {
		out = append(out, g.keys)
	}
	return out
}

type keyGroup struct {
	title string
	keys  []key.Binding
}

func (k KeyMap) groups() []keyGroup {
	return []keyGroup{
		{"Move", []key.Binding{k.Up, k.Down, k.Left, k.Right, k.PageUp, k.PageDown, k.Home, k.End, k.NextPane, k.PrevPane}},
		{"Step", []key.Binding{k.NextUpdate, k.PrevUpdate, k.NextPacket, k.PrevPacket, k.Expand}},
		{"Find", []key.Binding{k.GotoTick, k.Search, k.Filter, k.Ent, k.JumpBack, k.JumpForward}},
		{"Diagnose", []key.Binding{k.NextAnomaly, k.PrevAnomaly, k.ListAnomalies, k.MuteField, k.WhatIf, k.Toggle, k.Scope, k.Promote, k.ApplyInferred, k.NextDiff, k.PrevDiff}},
		{"Show", []key.Binding{k.Before, k.HeaderFirst, k.OpStream, k.OpTable, k.Parsers, k.Help, k.Back, k.Quit}},
		{"Cut", []key.Binding{k.MarkWindow, k.WriteWindow}},
	}
}

// HelpGroups converts the bindings for views.Help.
func (k KeyMap) HelpGroups() []views.HelpGroup {
	var out []views.HelpGroup
	for _, g := range k.groups() {
		hg := views.HelpGroup{Title: g.title}
		for _, b := range g.keys {
			hg.Keys = append(hg.Keys, views.HelpKey{Keys: b.Help().Key, Desc: b.Help().Desc})
		}
		out = append(out, hg)
	}
	hg := views.HelpGroup{Title: "Mouse"}
	hg.Keys = append(hg.Keys,
		views.HelpKey{Keys: "wheel", Desc: "timeline, fields, bits: move the selection; others: scroll"},
		views.HelpKey{Keys: "click", Desc: "focus the pane; select the row under it"})
	out = append(out, hg)
	return append(out, legend()...)
}

// legend says what the screen's markers and short decoder names mean.
func legend() []views.HelpGroup {
	marks := views.HelpGroup{Title: "Markers", Keys: []views.HelpKey{
		{Keys: "!", Desc: "strong anomaly (likely a misread)"},
		{Keys: "?", Desc: "weak anomaly"},
		{Keys: "✗", Desc: "failed to decode, misaligned"},
		{Keys: session.NovelMark, Desc: "carries what dembug's definitions lack (a field, command or message new in this build?)"},
		{Keys: "▸ ▾", Desc: "collapsed / expanded row"},
		{Keys: "pre", Desc: "signon command (no tick yet)"},
		{Keys: "z", Desc: "snappy-compressed command"},
		{Keys: "37f 558b", Desc: "fields written, bits of an update"},
		{Keys: ">", Desc: "the selection"},
		{Keys: "┌ ┆ └", Desc: "timeline: the window marked for a cut (v)"},
		{Keys: "*", Desc: "entity: written by the update; what-if: changed"},
		{Keys: "+ -", Desc: "what-if: read only by the what-if / the original"},
		{Keys: "^ ~", Desc: "bitstream: value bits / path bits"},
	}}
	decs := views.HelpGroup{Title: "Decoders (fields pane)"}
	for _, f := range session.DecoderFamilies() {
		d := &session.Decoder{Family: f}
		short := d.Short()
		switch f {
		case session.FamQuantized:
			short = "quantN"
		case session.FamQAnglePitchYaw, session.FamQAngleBits:
			short = strings.TrimSuffix(short, "0") + "N"
		case session.FamVector:
			short = "vecN×…"
		}
		desc := f.String()
		switch f {
		case session.FamQuantized:
			desc += " in N bits"
		case session.FamQAnglePitchYaw, session.FamQAngleBits:
			desc += ", N bits each"
		case session.FamVector:
			desc = "N components, each as …"
		}
		decs.Keys = append(decs.Keys, views.HelpKey{Keys: short, Desc: desc})
	}
	return []views.HelpGroup{marks, decs}
}
