package ui

import (
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// novelLines are the inspector's lines for what the selected command or
// message carries that dembug does not know (engine/knownfmt): a game
// update's new field, command or message type, named so it is not passed
// in silence.
func (m *Model) novelLines(c *session.Command, msg *session.Message) []views.InspectorLine {
	if msg != nil && !msg.Novel || msg == nil && !session.NovelCommand(c.Kind) {
		return nil
	}
	var out []views.InspectorLine
	for _, s := range session.NovelFields(m.data, c, msg) {
		out = append(out, views.InspectorLine{Label: "format", Text: s + ": " + session.NovelNote, Style: views.LineError})
	}
	return out
}
