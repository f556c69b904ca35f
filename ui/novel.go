package ui

import (
	"github.com/dembug/dembug/engine/game"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// novelLines are the inspector's lines for what the selected command or
// message carries that dembug does not know (engine/knownfmt): a game
// update's new field, command or message type, named so it is not passed
// in silence. Under a misaligned message of a file whose game is unknown
// they say so first: the suspects below are found under Dota 2's rules.
func (m *Model) novelLines(c *session.Command, msg *session.Message) []views.InspectorLine {
	var out []views.InspectorLine
	if msg != nil && msg.PE != nil && msg.PE.Err != nil && m.ix.Done && m.ix.Game == game.Unknown {
		out = append(out, views.InspectorLine{Label: "game", Text: "unknown: neither a file header nor svc_ServerInfo's game directory names a game dembug knows; decoded with Dota 2's rules, which may be why this message misaligns", Style: views.LineError})
	}
	if l := m.suspect; msg != nil && l.header() != "" && l.cmd == m.sel.Cmd && l.msg == m.sel.Msg {
		out = append(out, views.InspectorLine{Label: "header", Text: l.header(), Style: views.LineError})
	}
	if msg != nil && !msg.Novel || msg == nil && !session.NovelCommand(c.Kind) {
		return out
	}
	for _, s := range m.file.NovelFields(c, msg) {
		out = append(out, views.InspectorLine{Label: "format", Text: s + ": " + session.NovelNote, Style: views.LineError})
	}
	return out
}
