package views

import "charm.land/lipgloss/v2"

// Severity grades how strongly a field's anomalies (or the worst of an
// update's, message's or command's fields) point at a misread. The TUI maps
// the diagnostics' scores onto it: strong from the suspect threshold up,
// weak below it.
type Severity uint8

const (
	SevNone   Severity = iota
	SevWeak            // an anomaly below the suspect threshold (a fallback decoder, a dangling handle)
	SevStrong          // an anomaly at or above the threshold: likely a misread
)

// Mark is the one-cell marker drawn for a severity: '!' strong, '?' weak,
// a space for none. It carries the information without colour; with colour
// it is painted with Style.
func (s Severity) Mark() string {
	switch s {
	case SevStrong:
		return "!"
	case SevWeak:
		return "?"
	}
	return " "
}

// sevStyle is the style of a severity marker: Error when strong, Warning
// when weak.
func (t Theme) sevStyle(s Severity) lipgloss.Style {
	switch s {
	case SevStrong:
		return t.Error
	case SevWeak:
		return t.Warning
	}
	return t.Text
}
