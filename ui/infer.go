package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dembug/dembug/engine/schema"
	"github.com/dembug/dembug/session"
	"github.com/dembug/dembug/views"
)

// inference is what the background inference found once the index pass
// ended: the names decoder choice does not know, and, where a message
// misaligned, what they behave as.
type inference struct {
	running  bool
	unknowns []schema.Unknown
	checked  *session.Inference // nil until it ran, when nothing misaligned, or nothing was inferred
	err      string
}

// inferCmd starts the inference once the index is complete: the unknown
// names always; hypotheses only when a message misaligned. Off the UI
// loop, it decodes from the keyframe before the first misaligned message
// (File.Infer), with the index pass's values.
func (m *Model) inferCmd() tea.Cmd {
	if m.inference != nil || m.schema == nil {
		return nil
	}
	inf := &inference{unknowns: m.schema.Unknowns()}
	m.inference = inf
	if len(inf.unknowns) == 0 || !m.misaligned() {
		if len(m.ix.Values) > 0 && m.note == "" {
			m.setNote(m.valuesOpeningNote(), false)
		}
		return nil
	}
	inf.running = true
	file, ix := m.file, m.ix       // ix is done: what Infer reads of it stays
	ctx := m.jobs.context(jobFile) // ended when the file is reopened (I) or closed
	return m.run(jobFile, func() any {
		out := &inference{unknowns: inf.unknowns}
		ch, err := file.Infer(ctx, ix)
		if err != nil {
			out.err = err.Error()
		}
		out.checked = ch
		return out
	})
}

// misaligned reports whether any packet-entities message misaligned.
func (m *Model) misaligned() bool {
	_, ok := m.firstMisaligned()
	return ok
}

func (m *Model) onInfer(inf *inference) tea.Cmd {
	m.inference = inf
	if ch := inf.checked; ch != nil {
		m.setNote(fmt.Sprintf("inferred %s; I decodes the file with %s", findingText(ch.Findings[0]), strings.Join(ch.Aliases.Flags(), " ")), false)
	}
	if m.misaligned() {
		return m.firstSuspectCmd(inf.checked) // as check: its breaking read, or the search
	}
	return nil
}

// applyInferred opens the file again under the inferred aliases.
func (m *Model) applyInferred() tea.Cmd {
	inf := m.inference
	var aliases schema.Aliases
	switch {
	case inf != nil && !inf.running && inf.checked == nil && len(m.ix.Values) > 0:
		// Aligned, but values show types read wrongly (values.go).
		aliases = m.ix.ValueAliases(m.file.Aliases())
	case inf == nil || inf.running:
		m.setNote("no inference yet: it runs when the index pass ends and a message misaligned", true)
		return nil
	case inf.checked == nil:
		m.setNote("nothing inferred: no unknown name explains a misaligned message, and no unknown type's values show it read wrongly", true)
		return nil
	default:
		aliases = inf.checked.Aliases
	}
	at := m.sel
	m.reopen(m.file.WithAliases(aliases))
	if at != session.None {
		m.restore = &at // the same tick, update and field, once indexed
	}
	m.decodingNote = "decoding with " + strings.Join(aliases.Flags(), " ")
	m.setNote(m.decodingNote, false)
	return m.indexCmd()
}

func findingText(f session.InferredName) string {
	return fmt.Sprintf("%s %s behaves as %s", f.Kind, f.Unknown, f.As)
}

// inferenceLines are the inspector's lines on unknown names and what was
// inferred, for a misaligned message (misaligned) or the file summary.
func (m *Model) inferenceLines(misaligned bool) []views.InspectorLine {
	var l []views.InspectorLine
	if a := m.file.Aliases(); !a.Empty() {
		l = append(l, views.InspectorLine{Label: "aliases", Text: strings.Join(a.Flags(), " "), Style: views.LineMath})
	}
	inf := m.inference
	if inf == nil {
		return l
	}
	if n := len(inf.unknowns); n > 0 && misaligned {
		l = append(l, views.InspectorLine{Label: "unknown", Text: fmt.Sprintf("%d types or encoders without a decoder rule (DEM_SendTables lists them); those this message reads were tested", n)})
	} else if n > 0 {
		var names []string
		for i, u := range inf.unknowns {
			if i == 6 {
				names = append(names, fmt.Sprintf("… %d more", n-i))
				break
			}
			names = append(names, fmt.Sprintf("%s %s (%d)", u.Kind, u.Name, u.Fields))
		}
		l = append(l, views.InspectorLine{Label: "unknown", Text: fmt.Sprintf("%d types or encoders without a decoder rule: %s", n, strings.Join(names, ", "))})
	}
	if !misaligned {
		for _, ne := range m.ix.Values {
			l = append(l, views.InspectorLine{Label: "values", Text: fmt.Sprintf("type %s read as %s: %s (I applies --as %s=%s)", ne.Name, ne.Verdict.As, ne.Verdict.Evidence, ne.Name, ne.Verdict.As), Style: views.LineWarn})
		}
		return l
	}
	switch {
	case inf.running:
		l = append(l, views.InspectorLine{Label: "inferring", Text: "testing the unknown names against this message…"})
	case inf.checked != nil:
		ch := inf.checked
		for _, f := range ch.Findings {
			text := findingText(f) + ": " + f.Evidence
			if len(f.Same) > 0 {
				text += "; decodes identically as " + strings.Join(f.Same, ", ")
			}
			l = append(l, views.InspectorLine{Label: "inferred", Text: text, Style: views.LineMath})
		}
		if b := ch.Break; b != nil {
			where := fmt.Sprintf("%s of entity #%d %s at bit %s", b.FieldName, b.Entity, b.Class, views.Offset(b.Bit))
			if b.InBaseline {
				where += " of its instance baseline"
			}
			l = append(l, views.InspectorLine{Label: "breaks at", Text: "the first read of " + b.Name + ": " + where, Style: views.LineError})
		}
		l = append(l, views.InspectorLine{Label: "apply", Text: "I decodes the whole file with " + strings.Join(ch.Aliases.Flags(), " ")})
	case inf.err != "":
		l = append(l, views.InspectorLine{Label: "inference", Text: inf.err, Style: views.LineError})
	default:
		l = append(l, views.InspectorLine{Label: "inferred", Text: "no unknown name explains the misalignment"})
	}
	return l
}
