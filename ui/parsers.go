package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// parsersSection is the inspector's word on how each public parser of
// the file's game reads the field: its decoder and the value it gets from
// the same bits, or that its bits part from ours.
func (m *Model) parsersSection(f *provenance.Field) []views.InspectorSection {
	rs := session.ParserReadings(m.ix.Game, f)
	if len(rs) == 0 {
		return nil
	}
	var lines []views.InspectorLine
	for _, r := range rs {
		text, style := "same value: "+r.Value, views.LinePlain
		switch {
		case r.Value == "":
			text, style = "other bits: every later read of the message shifts", views.LineError
		case !r.Same:
			text, style = "value "+r.Value, views.LineWarn
		}
		lines = append(lines, views.InspectorLine{Label: r.Parser, Text: text + " · reads it " + r.Reads, Style: style})
	}
	if f.Schema != nil && f.Schema.UnknownType != "" {
		// Agreeing with dembug's own fallback is no evidence.
		lines = append(lines, views.InspectorLine{Text: "dembug reads " + f.Schema.UnknownType + " by its fallback too: where they agree, both may be wrong (check and I say what the values or the alignment show)", Style: views.LineDim})
	}
	return []views.InspectorSection{{Title: "Parsers · this read (p: the file)", Lines: lines}}
}

// parsersFileSection is the file's forecast (p): how each public parser
// of its game reads it against what the game wrote, and the entries that
// fix it.
func (m *Model) parsersFileSection() views.InspectorSection {
	sec := views.InspectorSection{Title: "Parsers · this file (p closes)"}
	rs := m.parsers
	switch {
	case rs == nil:
		sec.Lines = append(sec.Lines, views.InspectorLine{Text: "decoding the file as check does, to see how each parser reads it…", Style: views.LineDim})
	case len(rs) == 0:
		sec.Lines = append(sec.Lines, views.InspectorLine{Text: "no public parser modelled for this game", Style: views.LineDim})
	}
	for _, r := range rs {
		style := views.LinePlain
		if r.Reads != "right" {
			style = views.LineWarn
		}
		sec.Lines = append(sec.Lines, views.InspectorLine{Label: r.Parser, Text: strings.TrimPrefix(r.Sentence(), r.Parser+" "), Style: style})
		table := ""
		for _, f := range r.Fix {
			if t := f.Symbol + " in " + f.File; t != table {
				table = t
				sec.Lines = append(sec.Lines, views.InspectorLine{Label: "", Text: "fix: add to " + t, Style: views.LineDim})
			}
			sec.Lines = append(sec.Lines, views.InspectorLine{Label: "", Text: f.Entry, Style: views.LineMath})
		}
		for _, g := range r.UnfixedGroups() {
			sec.Lines = append(sec.Lines, views.InspectorLine{Label: "", Text: "no table line fixes " + strings.Join(g.Names, ", ") + " (" + g.Why + ")", Style: views.LineDim})
		}
	}
	return sec
}

// parsersResult is the file's forecast, as asked by p.
type parsersResult struct {
	rs []session.ParserForecast
}

// askParsers starts the file's forecast (a decode as check makes) the
// first time p is pressed; its result stays for the open file.
func (m *Model) askParsers() tea.Cmd {
	if !m.parsersFirst || m.parsersAsked {
		return nil
	}
	m.parsersAsked = true
	file := m.file
	return m.run(jobFile, func() any {
		rs := file.Forecast()
		if rs == nil {
			rs = []session.ParserForecast{}
		}
		return parsersResult{rs}
	})
}

func (m *Model) onParsers(msg parsersResult) { m.parsers = msg.rs }
